import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { isIpAddress, localAddressKind, type LocalAddressKind } from "./panel-address";

// How the panel client's requests go out (docs/provisioning.md "Where the panel may be"): node's own
// HTTP client, which never follows a redirect, and, unless a panel on the local network is allowed,
// a connection only to public addresses. A name is checked as it is resolved for the connection
// itself (the agent's lookup), so a public name that resolves to 127.0.0.1, or to a public address
// once and a private one the next time, never gets a request, nor the key in it.

/** The panel's address is, or resolves to, a local one while a panel on the local network is not allowed. */
export class PanelAddressRefused extends Error {
  override readonly name = "PanelAddressRefused";
  readonly kind: LocalAddressKind;

  constructor(kind: LocalAddressKind) {
    // The address itself is not named: an error a page shows must not map someone's network.
    super(`The panel's address is, or resolves to, a ${kind} address, which is not allowed`);
    this.kind = kind;
  }
}

/** A resolver as node:dns's `lookup` with `all: true` (a test's stands in for DNS). */
export type PanelResolver = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

const systemResolver: PanelResolver = (hostname, options, callback) =>
  dnsLookup(hostname, options, callback);

/**
 * A connection's lookup that resolves with `resolve` and, unless `allowLocalNetwork`, refuses the name
 * when any of its addresses is local (every one may be tried, one after the other).
 */
export function panelLookup(
  allowLocalNetwork: boolean,
  resolve: PanelResolver = systemResolver,
): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const refused = allowLocalNetwork
        ? null
        : addresses.map((each) => localAddressKind(each.address)).find((kind) => kind !== null);
      if (refused) return callback(new PanelAddressRefused(refused), "", 0);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first)
        return callback(Object.assign(new Error("No address"), { code: "ENOTFOUND" }), "", 0);
      callback(null, first.address, first.family);
    });
  };
}

interface Agents {
  http: http.Agent;
  https: https.Agent;
}

function agentsFor(lookup: LookupFunction, keepAlive: boolean): Agents {
  return {
    http: new http.Agent({ keepAlive, lookup }),
    https: new https.Agent({ keepAlive, lookup }),
  };
}

/**
 * The system resolver's agents, one pair per rule, kept for the process: a connection kept open for
 * one rule is never reused under the other.
 */
const shared: { open?: Agents; guarded?: Agents } = {};
function sharedAgents(allowLocalNetwork: boolean): Agents {
  const key = allowLocalNetwork ? "open" : "guarded";
  return (shared[key] ??= agentsFor(panelLookup(allowLocalNetwork), true));
}

/** Statuses whose answer has no body (the Response constructor refuses one). */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A fetch for the panel client: `redirect` is ignored (a redirect is never followed: its answer is
 * returned as it is), the whole body is read before it resolves, and the request is aborted, with the
 * signal's reason, when its signal fires.
 */
export function panelFetch({
  allowLocalNetwork,
  resolve,
}: {
  allowLocalNetwork: boolean;
  /** Instead of the system's resolver (tests); its connections are not kept open. */
  resolve?: PanelResolver;
}): typeof fetch {
  const lookup = resolve ? panelLookup(allowLocalNetwork, resolve) : undefined;
  const agents = lookup ? agentsFor(lookup, false) : sharedAgents(allowLocalNetwork);
  return (input, init = {}) =>
    new Promise<Response>((resolveAnswer, rejectAnswer) => {
      const signal = init.signal ?? undefined;
      let settled = false;
      const settle = (finish: () => void) => {
        if (settled) return;
        settled = true;
        signal?.removeEventListener("abort", abort);
        finish();
      };
      const fail = (error: unknown) => settle(() => rejectAnswer(error));
      const url = new URL(input instanceof Request ? input.url : String(input));
      // An address is connected to without a lookup: it is judged here.
      const literal = isIpAddress(url.hostname) ? localAddressKind(url.hostname) : null;
      if (literal && !allowLocalNetwork) return fail(new PanelAddressRefused(literal));
      if (signal?.aborted) return fail(signal.reason);
      // The client sends JSON text or nothing.
      if (init.body != null && typeof init.body !== "string")
        return fail(new TypeError("The panel's transport sends text bodies only"));
      const body = init.body ?? undefined;
      const headers: Record<string, string> = { ...(init.headers as Record<string, string>) };
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const secure = url.protocol === "https:";
      const request = (secure ? https : http).request(
        url,
        { method: init.method ?? "GET", headers, agent: secure ? agents.https : agents.http },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("error", fail);
          answer.on("close", () => {
            if (!answer.complete) fail(new Error("The connection was lost during the answer"));
          });
          answer.on("end", () => {
            const status = answer.statusCode ?? 0;
            if (status < 200 || status > 599)
              return fail(new Error(`The answer's status ${status} is not one fetch gives`));
            const answerHeaders = new Headers();
            for (let at = 0; at + 1 < answer.rawHeaders.length; at += 2)
              answerHeaders.append(answer.rawHeaders[at]!, answer.rawHeaders[at + 1]!);
            const response = new Response(NO_BODY.has(status) ? null : Buffer.concat(chunks), {
              status,
              statusText: answer.statusMessage,
              headers: answerHeaders,
            });
            settle(() => resolveAnswer(response));
          });
        },
      );
      function abort() {
        request.destroy();
        fail(signal!.reason);
      }
      signal?.addEventListener("abort", abort, { once: true });
      request.on("error", fail);
      request.end(body);
    });
}
