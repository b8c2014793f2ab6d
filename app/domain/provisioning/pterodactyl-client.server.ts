import {
  attributesOf,
  readAllocation,
  readEgg,
  readLocation,
  readNest,
  readNode,
  readServer,
  readServerWithAllocations,
  readUser,
  type Attributes,
  type PanelAllocation,
  type PanelEgg,
  type PanelLocation,
  type PanelNest,
  type PanelNode,
  type PanelServer,
  type PanelServerWithAllocations,
  type PanelUser,
} from "./pterodactyl-answers.server";
import { panelRequests, trimSlashes, type PanelClientOptions } from "./pterodactyl-requests.server";

export { PanelAddressRefused } from "./panel-transport.server";
export {
  isRetryablePanelFailure,
  PanelError,
  PanelUnreachable,
  type PanelErrorItem,
} from "./pterodactyl-errors.server";
export type { PanelCall, PanelClientOptions } from "./pterodactyl-requests.server";
export type {
  PanelAllocation,
  PanelEgg,
  PanelEggVariable,
  PanelLocation,
  PanelNest,
  PanelNode,
  PanelServer,
  PanelServerStatus,
  PanelServerWithAllocations,
  PanelUser,
} from "./pterodactyl-answers.server";

// The client of a Pterodactyl panel's Application API: the dozen calls provisioning uses, each
// with a timeout, the panel's error body read into typed errors, and every request reported to `onCall`
// (method, path, status, duration; never the key). Retries and backoff belong to the job that calls it
// (`isRetryablePanelFailure` says which failures are worth another attempt); the one exception, asked
// for with `retryReads`, is a read sent once more at once, request by request (a page of a list).
// What each call follows in the panel's source is in docs/provisioning.md.
//
// Its parts: how a request goes and its answer comes back (pterodactyl-requests.server.ts, shared with
// any other of the panel's APIs), how a call fails (pterodactyl-errors.server.ts), and the answers read
// into typed objects (pterodactyl-answers.server.ts). Here: the calls, and what they send.

export interface NewPanelServer {
  externalId: string;
  name: string;
  userId: number;
  eggId: number;
  dockerImage: string;
  startup: string;
  environment: Record<string, string>;
  limits: PanelServer["limits"];
  featureLimits: PanelServer["featureLimits"];
  allocation: { default: number; additional: number[] };
  description?: string;
  startOnCompletion?: boolean;
}

export interface PanelUserInput {
  externalId: string;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
}

export interface PanelBuildInput {
  allocationId: number;
  limits: PanelServer["limits"];
  featureLimits: PanelServer["featureLimits"];
  addAllocations?: number[];
  removeAllocations?: number[];
}

export interface PanelStartupInput {
  startup: string;
  /** Every variable of the egg: the panel validates them all against their rules. */
  environment: Record<string, string>;
  eggId: number;
  image: string;
  skipScripts?: boolean;
}

export interface PanelClient {
  listLocations(): Promise<PanelLocation[]>;
  listNodes(): Promise<PanelNode[]>;
  listAllocations(nodeId: number): Promise<PanelAllocation[]>;
  listNests(): Promise<PanelNest[]>;
  listEggs(nestId: number): Promise<PanelEgg[]>;
  getEgg(nestId: number, eggId: number): Promise<PanelEgg>;
  getUser(id: number): Promise<PanelUser>;
  findUserByExternalId(externalId: string): Promise<PanelUser | null>;
  /** The user whose email is exactly this one (compared without case), or null. */
  findUserByEmail(email: string): Promise<PanelUser | null>;
  /** Created without a password: the panel mails the person a link to set one. */
  createUser(input: PanelUserInput): Promise<PanelUser>;
  updateUser(id: number, input: PanelUserInput): Promise<PanelUser>;
  /**
   * Sets the user's password on the panel (game panel and SFTP sign-in). The panel's UpdateUserRequest
   * needs the email, username, first and last name with it: the user's current ones are read first and
   * sent back unchanged.
   */
  setUserPassword(id: number, password: string): Promise<void>;
  /** The panel refuses (400) while the user still owns servers. */
  deleteUser(id: number): Promise<void>;
  /** With its allocations: a server found this way is one an earlier attempt made. */
  findServerByExternalId(externalId: string): Promise<PanelServerWithAllocations | null>;
  getServer(id: number): Promise<PanelServer>;
  getServerWithAllocations(id: number): Promise<PanelServerWithAllocations>;
  listServers(): Promise<PanelServer[]>;
  createServer(input: NewPanelServer): Promise<PanelServer>;
  suspendServer(id: number): Promise<void>;
  unsuspendServer(id: number): Promise<void>;
  reinstallServer(id: number): Promise<void>;
  /** Force delete: the panel removes the server even when its node does not answer. */
  deleteServer(id: number): Promise<void>;
  updateBuild(id: number, input: PanelBuildInput): Promise<PanelServer>;
  updateStartup(id: number, input: PanelStartupInput): Promise<PanelServer>;
}

/** The panel's page of a server, for the customer's "Open game panel" link. */
export function panelServerLink(panelUrl: string, identifier: string): string {
  return `${trimSlashes(panelUrl)}/server/${encodeURIComponent(identifier)}`;
}

/**
 * A client for the panel at `options.url`; throws when the URL or key cannot be used at all, and
 * PanelAddressRefused when the URL's host is a local address that is not allowed.
 */
export function createPanelClient(options: PanelClientOptions): PanelClient {
  const { request, find, listAll } = panelRequests(options, "/api/application");

  const none = () => undefined;
  const one =
    <T>(read: (attributes: Attributes) => T) =>
    (answer: unknown) =>
      read(attributesOf(answer));

  // Methods are async so that a bad id rejects like any other failure.
  const id = (value: number) => {
    if (!Number.isSafeInteger(value) || value < 1) throw new Error(`Not a panel id: ${value}`);
    return value;
  };
  const userBody = (input: PanelUserInput) => ({
    external_id: input.externalId,
    email: input.email,
    username: input.username,
    first_name: input.firstName,
    last_name: input.lastName,
  });

  return {
    listLocations: async () => listAll("/locations", "", readLocation),
    listNodes: async () => listAll("/nodes", "", readNode),
    listAllocations: async (nodeId) =>
      listAll(`/nodes/${id(nodeId)}/allocations`, "", (a) => readAllocation(a, nodeId)),
    listNests: async () => listAll("/nests", "", readNest),
    listEggs: async (nestId) => listAll(`/nests/${id(nestId)}/eggs`, "include=variables", readEgg),
    getEgg: async (nestId, eggId) =>
      request("GET", `/nests/${id(nestId)}/eggs/${id(eggId)}?include=variables`, one(readEgg)),
    getUser: async (userId) => request("GET", `/users/${id(userId)}`, one(readUser)),
    findUserByExternalId: async (externalId) =>
      find(`/users/external/${encodeURIComponent(externalId)}`, readUser),
    async findUserByEmail(email) {
      // The panel's filter is a LIKE %value% without case: asking for a@b.c finds xa@b.com too.
      const wanted = email.trim().toLowerCase();
      const users = await listAll(
        "/users",
        `filter[email]=${encodeURIComponent(email.trim())}`,
        readUser,
      );
      return users.find((user) => user.email.toLowerCase() === wanted) ?? null;
    },
    createUser: async (input) => request("POST", "/users", one(readUser), userBody(input)),
    updateUser: async (userId, input) =>
      request("PATCH", `/users/${id(userId)}`, one(readUser), userBody(input)),
    async setUserPassword(userId, password) {
      // The panel reads an empty password as none and keeps the old one without a word.
      if (password === "") throw new Error("The new panel password is empty");
      const user = await request("GET", `/users/${id(userId)}`, one(readUser));
      // No external_id: absent, the panel keeps it ("sometimes"). The password is never trimmed
      // (TrimStrings leaves `password` alone).
      await request("PATCH", `/users/${id(userId)}`, one(readUser), {
        email: user.email,
        username: user.username,
        first_name: user.firstName,
        last_name: user.lastName,
        password,
      });
    },
    deleteUser: async (userId) => request("DELETE", `/users/${id(userId)}`, none),
    findServerByExternalId: async (externalId) =>
      find(
        `/servers/external/${encodeURIComponent(externalId)}?include=allocations`,
        readServerWithAllocations,
      ),
    getServer: async (serverId) => request("GET", `/servers/${id(serverId)}`, one(readServer)),
    getServerWithAllocations: async (serverId) =>
      request(
        "GET",
        `/servers/${id(serverId)}?include=allocations`,
        one(readServerWithAllocations),
      ),
    listServers: async () => listAll("/servers", "", readServer),
    createServer: async (input) =>
      request("POST", "/servers", one(readServer), {
        external_id: input.externalId,
        name: input.name,
        ...(input.description === undefined ? {} : { description: input.description }),
        user: input.userId,
        egg: input.eggId,
        docker_image: input.dockerImage,
        startup: input.startup,
        environment: input.environment,
        limits: input.limits,
        feature_limits: input.featureLimits,
        allocation: { default: input.allocation.default, additional: input.allocation.additional },
        start_on_completion: input.startOnCompletion ?? false,
      }),
    suspendServer: async (serverId) => request("POST", `/servers/${id(serverId)}/suspend`, none),
    unsuspendServer: async (serverId) =>
      request("POST", `/servers/${id(serverId)}/unsuspend`, none),
    reinstallServer: async (serverId) =>
      request("POST", `/servers/${id(serverId)}/reinstall`, none),
    deleteServer: async (serverId) => request("DELETE", `/servers/${id(serverId)}/force`, none),
    updateBuild: async (serverId, input) =>
      request("PATCH", `/servers/${id(serverId)}/build`, one(readServer), {
        allocation: input.allocationId,
        limits: input.limits,
        feature_limits: input.featureLimits,
        add_allocations: input.addAllocations ?? [],
        remove_allocations: input.removeAllocations ?? [],
      }),
    updateStartup: async (serverId, input) =>
      request("PATCH", `/servers/${id(serverId)}/startup`, one(readServer), {
        startup: input.startup,
        environment: input.environment,
        egg: input.eggId,
        image: input.image,
        // The panel requires the field ("present|boolean").
        skip_scripts: input.skipScripts ?? false,
      }),
  };
}
