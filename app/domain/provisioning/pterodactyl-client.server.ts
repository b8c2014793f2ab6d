import { localAddressKind, panelBaseUrl } from "./panel-address";
import type { SnapshotNode } from "./panel-connection";
import { PanelAddressRefused, panelFetch, type PanelResolver } from "./panel-transport.server";
import type { EggVariable } from "./provisioning";

export { PanelAddressRefused } from "./panel-transport.server";

// The client of a Pterodactyl panel's Application API: the dozen calls provisioning uses, each
// with a timeout, the panel's error body read into typed errors, and every request reported to `onCall`
// (method, path, status, duration; never the key). Retries and backoff belong to the job that calls it
// (`isRetryablePanelFailure` says which failures are worth another attempt); the one exception, asked
// for with `retryReads`, is a read sent once more at once, request by request (a page of a list).
// What each call follows in the panel's source is in docs/provisioning.md.

const API_PREFIX = "/api/application";
/** The panel's paginated lists take any per_page; 100 keeps a page small and the calls few. */
const PER_PAGE = 100;
/** A list longer than this many pages is a panel answering the same page for ever, not a real list. */
const MAX_PAGES = 1_000;
const DEFAULT_TIMEOUT_MS = 10_000;

export interface PanelCall {
  method: string;
  /** The path and query as sent, from `/api/application` on, without the panel's address. */
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

/** One entry of the panel's `errors` array. */
export interface PanelErrorItem {
  code: string;
  status: string;
  detail: string;
  meta: Record<string, unknown> | null;
}

/** The panel answered with an error status (or with something that is not its API). */
export class PanelError extends Error {
  override readonly name = "PanelError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** errors[0].code (`ValidationException`, `NotFoundHttpException`...), "HttpError" when the body is not the panel's. */
  readonly code: string;
  readonly detail: string;
  /** errors[0].meta: for a validation error `{ source_field, rule }`. */
  readonly meta: Record<string, unknown> | null;
  readonly retryAfterSeconds: number | null;
  /** Every entry of `errors` (a 422 has one per failed rule); empty when the body was not the panel's. */
  readonly errors: PanelErrorItem[];
  readonly method: string;
  readonly path: string;

  constructor(init: {
    status: number;
    code: string;
    detail: string;
    meta?: Record<string, unknown> | null;
    retryAfterSeconds?: number | null;
    errors?: PanelErrorItem[];
    method: string;
    path: string;
  }) {
    super(
      `The panel refused ${init.method} ${init.path}: ${init.code} (${init.status}) ${init.detail}`,
    );
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.meta = init.meta ?? null;
    this.retryAfterSeconds = init.retryAfterSeconds ?? null;
    this.errors = init.errors ?? [];
    this.method = init.method;
    this.path = init.path;
  }
}

/** No answer: the request timed out, or the connection failed or was lost before the answer was read. */
export class PanelUnreachable extends Error {
  override readonly name = "PanelUnreachable";
  readonly kind: "timeout" | "network";
  readonly method: string;
  readonly path: string;

  constructor(
    kind: "timeout" | "network",
    init: { method: string; path: string; timeoutMs: number; cause?: unknown },
  ) {
    super(
      kind === "timeout"
        ? `The panel did not answer ${init.method} ${init.path} within ${init.timeoutMs} ms`
        : `The panel could not be reached for ${init.method} ${init.path}: ${describeCause(init.cause)}`,
      { cause: init.cause },
    );
    this.kind = kind;
    this.method = init.method;
    this.path = init.path;
  }
}

/**
 * Whether another attempt may succeed: no answer (timeout, network), too many requests (429) or a fault
 * on the panel's side (5xx). A 4xx other than 429 says the request itself is wrong and will stay wrong.
 * A timed-out or lost write may have been done on the panel: callers look it up before writing again.
 */
export function isRetryablePanelFailure(error: unknown): boolean {
  // PanelAddressRefused is not: the address stays where it is until an admin changes it or the rule.
  if (error instanceof PanelUnreachable) return true;
  if (error instanceof PanelError) return error.status === 429 || error.status >= 500;
  return false;
}

export interface PanelLocation {
  id: number;
  short: string;
  long: string | null;
}

/** A node as the panel lists it: what the last check keeps, and the host its servers answer on. */
export interface PanelNode extends SnapshotNode {
  fqdn: string;
}

export interface PanelAllocation {
  id: number;
  nodeId: number;
  ip: string;
  alias: string | null;
  port: number;
  assigned: boolean;
}

export interface PanelNest {
  id: number;
  name: string;
}

export interface PanelEggVariable extends EggVariable {
  description: string;
}

export interface PanelEgg {
  id: number;
  nestId: number;
  name: string;
  /** The first of `dockerImages` (the panel's deprecated `docker_image`). */
  dockerImage: string;
  /** Label → image. */
  dockerImages: Record<string, string>;
  startup: string;
  variables: PanelEggVariable[];
}

export interface PanelUser {
  id: number;
  externalId: string | null;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
}

export type PanelServerStatus =
  null | "installing" | "install_failed" | "reinstall_failed" | "suspended" | "restoring_backup";

const SERVER_STATUSES: readonly PanelServerStatus[] = [
  null,
  "installing",
  "install_failed",
  "reinstall_failed",
  "suspended",
  "restoring_backup",
];

export interface PanelServer {
  id: number;
  externalId: string | null;
  /** The short identifier of the panel's links (`/server/<identifier>`). */
  identifier: string;
  uuid: string;
  name: string;
  description: string;
  userId: number;
  nodeId: number;
  /** The default allocation. */
  allocationId: number;
  suspended: boolean;
  status: PanelServerStatus;
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number };
  featureLimits: { databases: number; allocations: number; backups: number };
  nestId: number;
  eggId: number;
  startup: string;
  image: string;
  /** The egg's variables with their values, and the panel's own (STARTUP, P_SERVER_UUID...). */
  environment: Record<string, string>;
}

/**
 * A server with the allocations it holds, read with `include=allocations`. The node's own listing says
 * only whether an allocation is assigned, not to which server, so where a server answers is read here.
 */
export interface PanelServerWithAllocations extends PanelServer {
  allocations: PanelAllocation[];
}

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
  findUserByExternalId(externalId: string): Promise<PanelUser | null>;
  /** The user whose email is exactly this one (compared without case), or null. */
  findUserByEmail(email: string): Promise<PanelUser | null>;
  /** Created without a password: the panel mails the person a link to set one. */
  createUser(input: PanelUserInput): Promise<PanelUser>;
  updateUser(id: number, input: PanelUserInput): Promise<PanelUser>;
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
    const fullPath = `${API_PREFIX}${path}`;
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
      path: `${API_PREFIX}${path}`,
    });
  }

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

// ---------------------------------------------------------------------------------------------------
// The URL, the error body, Retry-After

function trimSlashes(url: string): string {
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
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

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // Node's own error ("connect ECONNREFUSED 10.1.2.3:443"): its code, not the address it tried.
  const own = (cause as { code?: unknown }).code;
  if (typeof own === "string") return `the connection failed (${own})`;
  const inner = cause.cause;
  if (isRecord(inner) || inner instanceof Error) {
    const code = (inner as { code?: unknown }).code;
    const message = (inner as { message?: unknown }).message;
    if (typeof code === "string") return `${cause.message} (${code})`;
    if (typeof message === "string") return `${cause.message} (${message})`;
  }
  return cause.message;
}

// ---------------------------------------------------------------------------------------------------
// Reading the answers (app/Transformers/Api/Application/*, wrapped by PterodactylSerializer)

type Attributes = Record<string, unknown>;

/** An answer that is not what the panel's transformers give; `request` turns it into a PanelError. */
class ShapeError extends Error {}

/** `{"object": "...", "attributes": {...}}` → the attributes. */
function attributesOf(item: unknown): Attributes {
  if (!isRecord(item) || !isRecord(item.attributes)) {
    throw new ShapeError("an item of the answer has no attributes");
  }
  return item.attributes;
}

/** `{"object": "list", "data": [...], "meta": {"pagination": {...}}}`; eggs come without meta. */
function asList(answer: unknown) {
  if (!isRecord(answer) || !Array.isArray(answer.data)) {
    throw new ShapeError("The answer is not a list");
  }
  const pagination = isRecord(answer.meta) ? answer.meta.pagination : undefined;
  const totalPages = isRecord(pagination) ? Number(pagination.total_pages) : NaN;
  return { data: answer.data, totalPages: Number.isFinite(totalPages) ? totalPages : null };
}

function field(attributes: Attributes, key: string): unknown {
  return attributes[key];
}

function int(attributes: Attributes, key: string): number {
  const value = field(attributes, key);
  const number = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) {
    throw new ShapeError(`"${key}" is not a whole number in the panel's answer`);
  }
  return number;
}

/** A limit the panel may leave null (no databases, no extra allocations): null counts as 0. */
function intOrZero(attributes: Attributes, key: string): number {
  return field(attributes, key) === null || field(attributes, key) === undefined
    ? 0
    : int(attributes, key);
}

function text(attributes: Attributes, key: string): string {
  const value = field(attributes, key);
  if (typeof value !== "string") {
    throw new ShapeError(`"${key}" is not a text in the panel's answer`);
  }
  return value;
}

function textOrNull(attributes: Attributes, key: string): string | null {
  const value = field(attributes, key);
  return value === null || value === undefined ? null : text(attributes, key);
}

function flag(attributes: Attributes, key: string): boolean {
  const value = field(attributes, key);
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  throw new ShapeError(`"${key}" is not true or false in the panel's answer`);
}

function record(attributes: Attributes, key: string): Attributes {
  const value = field(attributes, key);
  if (!isRecord(value)) throw new ShapeError(`"${key}" is missing in the panel's answer`);
  return value;
}

function readLocation(a: Attributes): PanelLocation {
  return { id: int(a, "id"), short: text(a, "short"), long: textOrNull(a, "long") };
}

function readNode(a: Attributes): PanelNode {
  const allocated = record(a, "allocated_resources");
  return {
    id: int(a, "id"),
    name: text(a, "name"),
    locationId: int(a, "location_id"),
    fqdn: text(a, "fqdn"),
    memoryMb: int(a, "memory"),
    memoryOverallocate: intOrZero(a, "memory_overallocate"),
    diskMb: int(a, "disk"),
    diskOverallocate: intOrZero(a, "disk_overallocate"),
    allocatedMemoryMb: intOrZero(allocated, "memory"),
    allocatedDiskMb: intOrZero(allocated, "disk"),
    maintenance: flag(a, "maintenance_mode"),
  };
}

function readAllocation(a: Attributes, nodeId: number): PanelAllocation {
  return {
    id: int(a, "id"),
    nodeId,
    ip: text(a, "ip"),
    alias: textOrNull(a, "alias"),
    port: int(a, "port"),
    assigned: flag(a, "assigned"),
  };
}

function readNest(a: Attributes): PanelNest {
  return { id: int(a, "id"), name: text(a, "name") };
}

function readEgg(a: Attributes): PanelEgg {
  const relationships = field(a, "relationships");
  const variables = isRecord(relationships) ? relationships.variables : undefined;
  if (!isRecord(variables) || !Array.isArray(variables.data)) {
    throw new ShapeError(`the egg ${String(a.id)} came without its variables`);
  }
  const images = record(a, "docker_images");
  const dockerImages: Record<string, string> = {};
  for (const [label, image] of Object.entries(images)) {
    if (typeof image === "string") dockerImages[label] = image;
  }
  return {
    id: int(a, "id"),
    nestId: int(a, "nest"),
    name: text(a, "name"),
    dockerImage: textOrNull(a, "docker_image") ?? Object.values(dockerImages)[0] ?? "",
    dockerImages,
    startup: text(a, "startup"),
    variables: variables.data.map((item) => {
      const v = attributesOf(item);
      return {
        name: text(v, "name"),
        envVariable: text(v, "env_variable"),
        defaultValue: textOrNull(v, "default_value") ?? "",
        rules: text(v, "rules"),
        userEditable: flag(v, "user_editable"),
        description: textOrNull(v, "description") ?? "",
      };
    }),
  };
}

function readUser(a: Attributes): PanelUser {
  return {
    id: int(a, "id"),
    externalId: textOrNull(a, "external_id"),
    email: text(a, "email"),
    username: text(a, "username"),
    firstName: textOrNull(a, "first_name") ?? "",
    lastName: textOrNull(a, "last_name") ?? "",
  };
}

function readServerWithAllocations(a: Attributes): PanelServerWithAllocations {
  const server = readServer(a);
  const relationships = field(a, "relationships");
  const allocations = isRecord(relationships) ? relationships.allocations : undefined;
  if (!isRecord(allocations) || !Array.isArray(allocations.data)) {
    throw new ShapeError(`the server ${server.id} came without its allocations`);
  }
  return {
    ...server,
    allocations: allocations.data.map((item) => readAllocation(attributesOf(item), server.nodeId)),
  };
}

function readServer(a: Attributes): PanelServer {
  const status = field(a, "status");
  if (!SERVER_STATUSES.includes(status as PanelServerStatus)) {
    throw new ShapeError(`unknown server status "${String(status)}"`);
  }
  const limits = record(a, "limits");
  const featureLimits = record(a, "feature_limits");
  const container = record(a, "container");
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(record(container, "environment"))) {
    environment[key] = value === null || value === undefined ? "" : String(value);
  }
  return {
    id: int(a, "id"),
    externalId: textOrNull(a, "external_id"),
    identifier: text(a, "identifier"),
    uuid: text(a, "uuid"),
    name: text(a, "name"),
    description: textOrNull(a, "description") ?? "",
    userId: int(a, "user"),
    nodeId: int(a, "node"),
    allocationId: int(a, "allocation"),
    suspended: flag(a, "suspended"),
    status: status as PanelServerStatus,
    limits: {
      memory: int(limits, "memory"),
      swap: int(limits, "swap"),
      disk: int(limits, "disk"),
      io: int(limits, "io"),
      cpu: int(limits, "cpu"),
    },
    featureLimits: {
      databases: intOrZero(featureLimits, "databases"),
      allocations: intOrZero(featureLimits, "allocations"),
      backups: intOrZero(featureLimits, "backups"),
    },
    nestId: int(a, "nest"),
    eggId: int(a, "egg"),
    startup: text(container, "startup_command"),
    image: text(container, "image"),
    environment,
  };
}
