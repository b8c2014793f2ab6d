import { attributesOf } from "./pterodactyl-answers.server";
import {
  listItems,
  PANEL_POWER_SIGNALS,
  readClientServer,
  readResources,
  readStartupVariable,
  type PanelClientServer,
  type PanelPowerSignal,
  type PanelResources,
  type PanelStartupVariable,
} from "./pterodactyl-client-answers.server";
import { PanelError } from "./pterodactyl-errors.server";
import { panelRequests, type PanelClientOptions } from "./pterodactyl-requests.server";

export { PanelAddressRefused } from "./panel-transport.server";
export {
  isRetryablePanelFailure,
  PanelError,
  PanelUnreachable,
  type PanelErrorItem,
} from "./pterodactyl-errors.server";
export type { PanelCall, PanelClientOptions } from "./pterodactyl-requests.server";
export type {
  PanelClientServer,
  PanelPowerSignal,
  PanelPowerState,
  PanelResources,
  PanelStartupVariable,
} from "./pterodactyl-client-answers.server";

// The client of a Pterodactyl panel's Client API (/api/client), with a client key (`ptlc_…`) of a root
// admin of the panel: a server's state and what it uses, its power, its reinstall and the egg variables
// its user may edit. The same requests as the Application API's client (pterodactyl-requests.server.ts:
// the key in its header, a timeout, no redirect followed, the panel's errors typed, every request
// reported to `onCall` with its path from /api/client on, never the key). What each call follows in
// the panel's source is in docs/provisioning.md.

export interface PanelClientApi {
  /** Answers while the server installs or is suspended too (the panel lets its page be read). */
  getServer(identifier: string): Promise<PanelClientServer>;
  /** What Wings says; 409 while installing, suspended or being transferred, 5xx when Wings is not there. */
  getResources(identifier: string): Promise<PanelResources>;
  /** Wings takes the signal and answers at once (204): the state moves afterwards. */
  sendPower(identifier: string, signal: PanelPowerSignal): Promise<void>;
  /** The egg variables the server's user may see, with this server's values. */
  listStartupVariables(identifier: string): Promise<PanelStartupVariable[]>;
  /** Checked by the panel against the variable's own rules (422 on `value`). */
  updateStartupVariable(
    identifier: string,
    key: string,
    value: string,
  ): Promise<PanelStartupVariable>;
  /** The server is installing again once this answers (202): its files are wiped by the egg's script. */
  reinstall(identifier: string): Promise<void>;
}

/** The panel binds `{server}` by its short identifier (8 characters) or, any other length, its uuid. */
const IDENTIFIER =
  /^(?:[0-9a-f]{8}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/**
 * A client of the Client API of the panel at `options.url` (`options.apiKey` is the client key); throws
 * when the URL or key cannot be used at all, and PanelAddressRefused when the URL's host is a local
 * address that is not allowed.
 */
export function createPanelClientApi(options: PanelClientOptions): PanelClientApi {
  const { request } = panelRequests(options, "/api/client");
  const none = () => undefined;

  // Methods are async so that a bad identifier rejects like any other failure. Only the panel's own
  // forms are sent, so no identifier can reach another path of the API.
  const server = (identifier: string) => {
    if (!IDENTIFIER.test(identifier))
      throw new Error(`Not a panel server identifier: ${identifier}`);
    return `/servers/${identifier}`;
  };

  return {
    getServer: async (identifier) =>
      request("GET", server(identifier), (answer) => readClientServer(attributesOf(answer))),
    getResources: async (identifier) =>
      request("GET", `${server(identifier)}/resources`, (answer) =>
        readResources(attributesOf(answer)),
      ),
    async sendPower(identifier, signal) {
      if (!PANEL_POWER_SIGNALS.includes(signal)) throw new Error(`Not a power signal: ${signal}`);
      await request("POST", `${server(identifier)}/power`, none, { signal });
    },
    listStartupVariables: async (identifier) =>
      request("GET", `${server(identifier)}/startup`, (answer) =>
        listItems(answer).map((item) => readStartupVariable(attributesOf(item))),
      ),
    updateStartupVariable: async (identifier, key, value) =>
      request(
        "PUT",
        `${server(identifier)}/startup/variable`,
        (answer) => readStartupVariable(attributesOf(answer)),
        { key, value },
      ),
    async reinstall(identifier) {
      await request("POST", `${server(identifier)}/settings/reinstall`, none);
    },
  };
}

/**
 * True when the panel refused because the server is installing, suspended, being transferred, restoring a
 * backup or on a node under maintenance (ServerStateConflictException, 409): no use asking again until
 * that changes.
 */
export function isServerStateConflict(error: unknown): boolean {
  return (
    error instanceof PanelError &&
    error.status === 409 &&
    error.code === "ServerStateConflictException"
  );
}
