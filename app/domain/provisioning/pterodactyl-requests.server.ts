import { localAddressKind, panelBaseUrl } from "./panel-address";
import { PanelAddressRefused, panelFetch, type PanelResolver } from "./panel-transport.server";
import {
  asList,
  attributesOf,
  isRecord,
  ShapeError,
  type Attributes,
} from "./pterodactyl-answers.server";
import {
  isRetryablePanelFailure,
  PanelError,
  PanelUnreachable,
  type PanelErrorItem,
} from "./pterodactyl-errors.server";

// How one request goes to a panel's API and its answer comes back, for any of the panel's APIs (the
// prefix says which): the key in its header, a timeout, no redirect followed, the panel's error body
// read into typed errors, a list followed page by page, every request reported to `onCall`, and the
// one retry of a read asked for with `retryReads`. The calls themselves are the clients' own
// (pterodactyl-client.server.ts for the Application API, pterodactyl-client-api.server.ts for the
// Client API).

/** The panel's paginated lists take any per_page; 100 keeps a page small and the calls few. */
const PER_PAGE = 100;
/** A list longer than this many pages is a panel answering the same page for ever, not a real list. */
const MAX_PAGES = 1_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface PanelCall {
  method: string;
  /**
   * The path and query as sent, from the API's prefix (`/api/application`) on, without the panel's
   * address.
   */
  path: string;
  /** The HTTP status, or null when no answer came (timeout, connection lost). */
  status: number | null;
  durationMs: number;
  /** The panel's error code (`ValidationException`, `HttpError`...), "timeout" or "network"; null on success. */
  errorCode: string | null;
}

export interface PanelClientOptions {
  url: string;
  apiKey: string;
  /** Per request, until the whole answer is read (default 10 s). */
  timeoutMs?: number;
  /**
   * Whether the panel may be on the local network: loopback, private, link-local addresses (the
   * setting gamePanel.allowLocalNetwork). Off, such an address is refused at construction, and a
   * name that resolves to one when a request connects (PanelAddressRefused, never retried).
   */
  allowLocalNetwork?: boolean;
  /** Instead of the system's resolver (tests stand in for DNS with it). */
  resolve?: PanelResolver;
  /**
   * Instead of the client's own transport (panel-transport.server.ts), which alone checks the
   * addresses a name resolves to: for tests that script the panel's answers.
   */
  fetch?: typeof fetch;
  /** Called once per HTTP request, after it ends, success or failure. It should not throw. */
  onCall?: (call: PanelCall) => void;
  /** Milliseconds, read when a request starts and ends for its `durationMs` (default performance.now). */
  clock?: () => number;
  /**
   * Send each GET once more, at once, when the panel failed it with a 5xx or no answer came (never after
   * a 429: the panel said when to come back; never a write: it may have happened). Per request, so a
   * failed fifth page of a list repeats that page, not the four before it.
   */
  retryReads?: boolean;
}

/** The requests of one of the panel's APIs: what a client's calls are made of. */
export interface PanelRequests {
  request<T>(
    method: string,
    path: string,
    decode: (answer: unknown) => T,
    body?: unknown,
  ): Promise<T>;
  find<T>(path: string, read: (attributes: Attributes) => T): Promise<T | null>;
  listAll<T>(path: string, query: string, read: (attributes: Attributes) => T): Promise<T[]>;
}

/**
 * Requests to the API under `apiPrefix` (`/api/application`) of the panel at `options.url`; throws when
 * the URL or key cannot be used at all, and PanelAddressRefused when the URL's host is a local address
 * that is not allowed.
 */
export function panelRequests(options: PanelClientOptions, apiPrefix: string): PanelRequests {
  const base = checkedBaseUrl(options.url);
  const allowLocalNetwork = options.allowLocalNetwork ?? false;
  const local = localAddressKind(new URL(base).hostname);
  if (local && !allowLocalNetwork) throw new PanelAddressRefused(local);
  if (!options.apiKey.trim()) throw new Error("The panel's API key is empty");
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = options.fetch ?? panelFetch({ allowLocalNetwork, resolve: options.resolve });
  const clock = options.clock ?? (() => performance.now());
  const headers: Record<string, string> = {
    authorization: `Bearer ${options.apiKey}`,
    // Without it the panel answers errors as web pages and redirects (Laravel's expectsJson()).
    accept: "application/json",
  };

  /**
   * One HTTP request, its answer decoded by `decode` (an answer of the wrong shape is a PanelError
   * "InvalidResponse"), reported to onCall once whatever happens.
   */
  async function request<T>(
    method: string,
    path: string,
    decode: (answer: unknown) => T,
    body?: unknown,
  ): Promise<T> {
    if (!options.retryReads || method !== "GET") return send(method, path, decode, body);
    try {
      return await send(method, path, decode, body);
    } catch (error) {
      if (!isRetryablePanelFailure(error) || (error instanceof PanelError && error.status === 429))
        throw error;
      return send(method, path, decode, body);
    }
  }

  /** One HTTP request (request() without the second try of a read). */
  async function send<T>(
    method: string,
    path: string,
    decode: (answer: unknown) => T,
    body?: unknown,
  ): Promise<T> {
    const fullPath = `${apiPrefix}${path}`;
    const started = clock();
    let status: number | null = null;
    let errorCode: string | null = null;
    try {
      const answer = await exchange(method, fullPath, body);
      status = answer.status;
      const json = readAnswer(method, fullPath, answer);
      try {
        return decode(json);
      } catch (error) {
        if (!(error instanceof ShapeError)) throw error;
        throw new PanelError({
          status: answer.status,
          code: "InvalidResponse",
          detail: error.message,
          method,
          path: fullPath,
        });
      }
    } catch (error) {
      errorCode =
        error instanceof PanelError
          ? error.code
          : error instanceof PanelUnreachable
            ? error.kind
            : error instanceof PanelAddressRefused
              ? "addressRefused"
              : "error";
      throw error;
    } finally {
      options.onCall?.({
        method,
        path: fullPath,
        status,
        durationMs: Math.round(clock() - started),
        errorCode,
      });
    }
  }

  /** Sends the request and reads the whole answer, or throws PanelUnreachable. */
  async function exchange(method: string, fullPath: string, body: unknown) {
    try {
      const response = await doFetch(`${base}${fullPath}`, {
        method,
        headers: body === undefined ? headers : { ...headers, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
        // The timeout covers reading the body too: a panel that sends headers then stalls is no answer.
        signal: AbortSignal.timeout(timeoutMs),
        // Never followed (the client's own transport cannot): a redirect would turn a POST into a GET,
        // and would take the key wherever the panel's address, or whoever answers there, says.
        redirect: "manual",
      });
      return {
        status: response.status,
        headers: response.headers,
        text: await response.text(),
      };
    } catch (error) {
      if (error instanceof PanelAddressRefused) throw error;
      if (error instanceof Error && error.cause instanceof PanelAddressRefused) throw error.cause;
      const timedOut =
        error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
      throw new PanelUnreachable(timedOut ? "timeout" : "network", {
        method,
        path: fullPath,
        timeoutMs,
        cause: error,
      });
    }
  }

  /** The JSON of a 2xx answer (null when empty), or the PanelError of any other. */
  function readAnswer(
    method: string,
    fullPath: string,
    answer: { status: number; headers: Headers; text: string },
  ): unknown {
    const parsed = parseJson(answer.text);
    if (answer.status >= 200 && answer.status < 300) {
      if (answer.text.trim() === "") return null;
      if (parsed.ok) return parsed.value;
      throw new PanelError({
        status: answer.status,
        code: "InvalidResponse",
        detail: "The answer is not JSON: is the URL the panel's address?",
        method,
        path: fullPath,
      });
    }
    const errors = parsed.ok ? errorItems(parsed.value) : [];
    const first = errors[0];
    // Where a redirect leads is not said: the page shows this detail, and the address a redirect
    // names (an internal host, a token in a URL) is not for it to show.
    throw new PanelError({
      status: answer.status,
      code: first?.code ?? "HttpError",
      detail:
        first?.detail ??
        (answer.status >= 300 && answer.status < 400
          ? `The panel answered with a redirect (HTTP ${answer.status}), which is not followed: save the panel's own address`
          : `The panel answered HTTP ${answer.status} without its error body`),
      meta: first?.meta ?? null,
      retryAfterSeconds: retryAfterSeconds(answer.headers.get("retry-after")),
      errors,
      method,
      path: fullPath,
    });
  }

  /**
   * GET of one resource; null when the panel says it has no such record. A 404 that is not the panel's
   * (a proxy's page) or says the route does not exist means a wrong URL, not "none": callers create
   * what they do not find, so that one stays an error.
   */
  async function find<T>(path: string, read: (attributes: Attributes) => T): Promise<T | null> {
    try {
      return await request("GET", path, (answer) => read(attributesOf(answer)));
    } catch (error) {
      if (
        error instanceof PanelError &&
        error.status === 404 &&
        error.code === "NotFoundHttpException" &&
        !error.detail.startsWith("The route ")
      ) {
        return null;
      }
      throw error;
    }
  }

  /** Every item of a list, page after page (the panel's lists are paginated; eggs are not). */
  async function listAll<T>(
    path: string,
    query: string,
    read: (attributes: Attributes) => T,
  ): Promise<T[]> {
    const items: T[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const { data, totalPages } = await request(
        "GET",
        `${path}?${query ? `${query}&` : ""}page=${page}&per_page=${PER_PAGE}`,
        (answer) => {
          const list = asList(answer);
          return {
            data: list.data.map((item) => read(attributesOf(item))),
            totalPages: list.totalPages,
          };
        },
      );
      items.push(...data);
      // The links the panel gives drop per_page and filters, so the next page is asked for by number.
      if (totalPages === null || page >= totalPages) return items;
    }
    throw new PanelError({
      status: 200,
      code: "InvalidResponse",
      detail: `The list has more than ${MAX_PAGES} pages`,
      method: "GET",
      path: `${apiPrefix}${path}`,
    });
  }

  return { request, find, listAll };
}

// ---------------------------------------------------------------------------------------------------
// The URL, the error body, Retry-After

export function trimSlashes(url: string): string {
  return url.trim().replace(/\/+$/, "");
}

function checkedBaseUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw new Error(`The panel URL is not a web address: "${url}"`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
    throw new Error(`The panel URL must start with http:// or https://: "${url}"`);
  }
  if (parsed.username || parsed.password) {
    throw new Error("The panel URL must not carry a user name or password");
  }
  const base = panelBaseUrl(url);
  if (!base) throw new Error("The panel URL must not carry a query or a fragment");
  return base;
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

/** The panel's `{"errors":[{code, status, detail, meta}]}` (app/Exceptions/Handler.php). */
function errorItems(body: unknown): PanelErrorItem[] {
  if (!isRecord(body) || !Array.isArray(body.errors)) return [];
  return body.errors.filter(isRecord).map((item) => ({
    code: typeof item.code === "string" ? item.code : "HttpError",
    status: typeof item.status === "string" ? item.status : String(item.status ?? ""),
    detail: typeof item.detail === "string" ? item.detail : "",
    meta: isRecord(item.meta) ? item.meta : null,
  }));
}

/** Seconds from a Retry-After header: a number of seconds or an HTTP date. */
function retryAfterSeconds(header: string | null): number | null {
  if (header === null || header.trim() === "") return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  if (Number.isNaN(at)) return null;
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
