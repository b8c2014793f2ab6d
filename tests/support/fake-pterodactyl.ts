import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { randomBytes } from "node:crypto";
import { CLIENT_ROUTES } from "./fake-pterodactyl/client-routes";
import {
  matchRoute,
  PanelHttpError,
  type Reply,
  type RouteContext,
} from "./fake-pterodactyl/routes";
import { seedDefaultPanel } from "./fake-pterodactyl/seed";
import {
  FakePanelStore,
  type FakeAllocation,
  type FakeEgg,
  type FakeLocation,
  type FakeNest,
  type FakeNode,
  type FakeServer,
  type FakeUser,
  type NewFakeEgg,
  type NewFakeNode,
  type NewFakeServer,
  type NewFakeUser,
} from "./fake-pterodactyl/state";
import { CLIENT_RATE_LIMIT, FakeRateLimit } from "./fake-pterodactyl/throttle";
import { FakeWings, type FakePowerState, type FakeResources } from "./fake-pterodactyl/wings";

export type { FakePowerSignal, FakePowerState, FakeResources } from "./fake-pterodactyl/wings";
export type {
  FakeAllocation,
  FakeEgg,
  FakeEggVariable,
  FakeLocation,
  FakeNest,
  FakeNode,
  FakeServer,
  FakeServerStatus,
  FakeUser,
} from "./fake-pterodactyl/state";

// A stand-in for a Pterodactyl panel's Application and Client APIs on 127.0.0.1: the calls Hostfront
// uses, validated and answered as pterodactyl/panel does (routes in fake-pterodactyl/routes.ts and
// client-routes.ts, each naming the controller it follows; Wings in wings.ts), with its data open to
// the test and failures on demand. docs/provisioning.md describes it.

/**
 * What can go wrong with a request, on purpose:
 * - "500": the panel fails (a database error) before doing anything;
 * - "429": the rate limit (240 a minute by default), with Retry-After, before doing anything;
 * - "slow": the request is handled only after a delay, past the client's timeout; it is handled even
 *   when the client has given up by then, as PHP goes on after the caller left;
 * - "lost": the request is handled (the change is made), then the connection is cut without an answer;
 * - "down": the connection is cut before anything is read or done.
 */
export type FakePanelFailure = "500" | "429" | "slow" | "lost" | "down";

export interface FakePanelFailureOptions {
  /**
   * Only requests of this route fail, e.g. "POST /servers", "GET /servers/external/{external_id}" or,
   * on the Client API, "GET /client/servers/{server}/resources".
   */
  route?: string;
  /** For "slow": how long before the request is handled (default: the panel's `slowMs`). */
  delayMs?: number;
  /**
   * For "slow", instead of a delay: the request is handled once this settles, so that a test decides
   * when, without a clock (the request is in `requests`, unanswered, until then).
   */
  until?: Promise<unknown>;
  /** For "429": the Retry-After header, in seconds (default 1). */
  retryAfterSeconds?: number;
}

export interface FakePanelOptions {
  /** The Application API key the panel accepts (default: a random `ptla_...`). */
  apiKey?: string;
  /**
   * The client key (an account key of the panel's first root admin) the panel accepts (default: a
   * random `ptlc_...`). It reaches the Application API too, as the panel lets a root admin's client key.
   */
  clientApiKey?: string;
  /**
   * How many reads of a server's resources show each step of a power change (start: starting, then
   * running) before the next (default 1; 0: the change is done at once).
   */
  powerReads?: number;
  /** The Client API's requests a minute (the panel's default for api.client: 720). */
  clientRateLimit?: number;
  /** The clock of the Client API's rate limit, in milliseconds (default Date.now). */
  now?: () => number;
  /**
   * How many single reads of a new (or reinstalled) server (GET /servers/{id} or by external id) say
   * "installing" before the install is done and the status is null (default 2; 0: done at once;
   * Infinity: until the test calls finishInstall).
   */
  installReads?: number;
  /** The delay of a "slow" answer (default 1,000 ms: give the client a shorter timeout). */
  slowMs?: number;
  /** Start with the default locations, nodes, allocations, eggs and servers (default true). */
  seed?: boolean;
  /** The port to listen on (default: a free one); scripts/fake-panel.ts takes one to try by hand. */
  port?: number;
  /**
   * How long the panel takes over each request it answers, as a real one does (PHP, its database, Wings:
   * tens of milliseconds): a fixed delay, or one drawn for each request between `min` and `max` (default
   * 0: at once). Requests wait side by side, never one behind another. A request is handled at the end of
   * its delay ("lost" too; "slow" waits this and its own delay); a "down" one is cut at once.
   */
  answerDelayMs?: number | { min: number; max: number };
}

/** One request the panel received. */
export interface FakePanelRequest {
  method: string;
  /** Path and query as received. */
  url: string;
  /** The route's key (`GET /servers/{server}`), or null when no route matched. */
  route: string | null;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body (undefined when none, or when the connection was cut before reading it). */
  body: unknown;
  failure: FakePanelFailure | null;
  /** The whole request has arrived (its body read); it may not be handled yet ("slow"). */
  received: boolean;
  /** The status answered; null when no answer was sent (down, lost, slow past close). */
  status: number | null;
}

export interface FakePanel {
  /** The panel's address, to give the client (no trailing slash). */
  url: string;
  apiKey: string;
  clientApiKey: string;
  /** The panel's tables, live: read them, or change them for a test. */
  locations: FakeLocation[];
  nodes: FakeNode[];
  allocations: FakeAllocation[];
  nests: FakeNest[];
  eggs: FakeEgg[];
  users: FakeUser[];
  servers: FakeServer[];
  addLocation(short: string, long?: string | null): FakeLocation;
  addNode(input: NewFakeNode): FakeNode;
  addAllocations(
    nodeId: number,
    ip: string,
    ports: number[],
    alias?: string | null,
  ): FakeAllocation[];
  addNest(name: string, description?: string | null): FakeNest;
  addEgg(input: NewFakeEgg): FakeEgg;
  addUser(input: NewFakeUser): FakeUser;
  /** A server put straight in (installed unless `status` says otherwise); its allocations are taken. */
  addServer(input: NewFakeServer): FakeServer;
  /** The server with this external id (compared without case, as the panel does), if any. */
  serverByExternalId(externalId: string): FakeServer | undefined;
  userByExternalId(externalId: string): FakeUser | undefined;
  /** The allocations assigned to a server. */
  allocationsOf(serverId: number): FakeAllocation[];
  /** Wings reports the install of a server done: "ok" (status null) or failed ("install_failed", or
   * "reinstall_failed" after a reinstall); a suspended server stays suspended. Throws if none runs. */
  finishInstall(serverId: number, result: "ok" | "install_failed"): void;
  /** A server's power state as Wings has it (offline until started). */
  powerState(serverId: number): FakePowerState;
  /** Sets a server's power state at once, any change under way dropped. */
  setPowerState(serverId: number, state: FakePowerState): void;
  /** What Wings reports the server uses while it runs (offline: CPU, memory and uptime read 0). */
  setResources(serverId: number, resources: Partial<FakeResources>): void;
  /**
   * The node's Wings stops answering (or answers again): the Client API's resources, power and
   * reinstall fail with the panel's DaemonConnectionException, a 504 when no connection is made, or
   * `proxyStatus` (a 5xx a proxy in Wings' place answers) where the panel passes the status on.
   */
  setNodeDown(nodeId: number, down: boolean, options?: { proxyStatus?: number }): void;
  /** A server being transferred to another node (the Client API answers it 409), or not. */
  setTransferring(serverId: number, transferring: boolean): void;
  /** From now on the Client API takes this many requests a minute, in a fresh window. */
  setClientRateLimit(perMinute: number): void;
  /** The last password set for the user through the API (null: none), in clear: the fake is a double. */
  userPassword(userId: number): string | null;
  /** The next `count` requests (of `options.route` only, when given) fail this way. */
  failNext(kind: FakePanelFailure, count?: number, options?: FakePanelFailureOptions): void;
  /**
   * Every `n`-th request (of `options.route` only, when given) fails, in turn with each of `kind` when
   * it is a list. Requests taken by failNext do not count.
   */
  failEvery(
    n: number,
    kind: FakePanelFailure | FakePanelFailure[],
    options?: FakePanelFailureOptions,
  ): void;
  clearFailures(): void;
  /** From now on each request takes this long, as the `answerDelayMs` option says. */
  setAnswerDelay(option: FakePanelOptions["answerDelayMs"]): void;
  /** Every request received, in order. */
  requests: FakePanelRequest[];
  /** How many requests a route received (all routes when none is given), failed ones included. */
  requestCount(route?: string): number;
  close(): Promise<void>;
}

const API_PREFIX = "/api/application";
const CLIENT_PREFIX = "/api/client";

/** The answer delay option as a function drawing each request's delay; throws on a range that is none. */
function answerDelayOf(option: FakePanelOptions["answerDelayMs"]): () => number {
  if (option === undefined) return () => 0;
  const { min, max } = typeof option === "number" ? { min: option, max: option } : option;
  if (!(Number.isFinite(min) && Number.isFinite(max) && min >= 0 && max >= min))
    throw new Error(`answerDelayMs needs 0 ≤ min ≤ max, not ${JSON.stringify(option)}`);
  return () => min + Math.random() * (max - min);
}

/** The top-level fields the panel's TrimStrings leaves as they came (app/Http/Middleware/TrimStrings). */
const UNTRIMMED = new Set(["password", "password_confirmation"]);

/** TrimStrings and ConvertEmptyStringsToNull, the panel's global middleware, on the whole input. */
function normalized(value: unknown, key = ""): unknown {
  if (typeof value === "string") {
    const trimmed = UNTRIMMED.has(key) ? value : value.trim();
    return trimmed === "" ? null : trimmed;
  }
  if (Array.isArray(value)) return value.map((v, index) => normalized(v, `${key}.${index}`));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(
      Object.entries(value).map(([name, v]) => [
        name,
        normalized(v, key ? `${key}.${name}` : name),
      ]),
    );
  }
  return value;
}

/** Which of the panel's APIs a path is under, and its route there. */
function routeOf(method: string, pathname: string) {
  if (pathname.startsWith(`${API_PREFIX}/`)) {
    return {
      api: "application" as const,
      match: matchRoute(method, pathname.slice(API_PREFIX.length)),
    };
  }
  if (pathname.startsWith(`${CLIENT_PREFIX}/`)) {
    // Client routes are keyed from /client on: "GET /client/servers/{server}".
    return {
      api: "client" as const,
      match: matchRoute(method, pathname.slice("/api".length), CLIENT_ROUTES),
    };
  }
  return null;
}

function panelError(status: number, code: string, detail: string): PanelHttpError {
  return new PanelHttpError(status, [{ code, status: String(status), detail }]);
}

interface PendingFailure {
  kind: FakePanelFailure;
  left: number;
  options: FakePanelFailureOptions;
}

interface RecurringFailure {
  n: number;
  kinds: FakePanelFailure[];
  options: FakePanelFailureOptions;
  seen: number;
  fired: number;
}

/** Starts a fake panel on 127.0.0.1 (a free port). */
export async function startFakePanel(options: FakePanelOptions = {}): Promise<FakePanel> {
  const apiKey = options.apiKey ?? `ptla_${randomBytes(21).toString("base64url")}`;
  const clientApiKey = options.clientApiKey ?? `ptlc_${randomBytes(21).toString("base64url")}`;
  if (clientApiKey === apiKey)
    throw new Error("The client key and the application key must differ");
  const installReads = options.installReads ?? 2;
  const wings = new FakeWings(options.powerReads ?? 1);
  const throttle = new FakeRateLimit(
    options.clientRateLimit ?? CLIENT_RATE_LIMIT,
    options.now ?? (() => Date.now()),
  );
  const slowMs = options.slowMs ?? 1_000;
  let answerDelay = answerDelayOf(options.answerDelayMs);
  const store = new FakePanelStore(() => new Date());
  if (options.seed ?? true) seedDefaultPanel(store);

  const requests: FakePanelRequest[] = [];
  let pending: PendingFailure[] = [];
  let recurring: RecurringFailure[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;
  let baseUrl = "";

  function serverOf(serverId: number) {
    const server = store.servers.find((candidate) => candidate.id === serverId);
    if (!server) throw new Error(`The fake panel has no server ${serverId}`);
    return server;
  }

  function takeFailure(
    route: string | null,
  ): { kind: FakePanelFailure; options: FakePanelFailureOptions } | null {
    const applies = (o: FakePanelFailureOptions) => o.route === undefined || o.route === route;
    const next = pending.find((failure) => failure.left > 0 && applies(failure.options));
    if (next) {
      next.left -= 1;
      pending = pending.filter((failure) => failure.left > 0);
      return { kind: next.kind, options: next.options };
    }
    for (const rule of recurring) {
      if (!applies(rule.options)) continue;
      rule.seen += 1;
      if (rule.seen % rule.n === 0) {
        const kind = rule.kinds[rule.fired % rule.kinds.length]!;
        rule.fired += 1;
        return { kind, options: rule.options };
      }
    }
    return null;
  }

  /**
   * The key's kind and user (auth:sanctum): the application key, or the client key of the panel's first
   * root admin; null for any other (a client key whose user is gone counts as none).
   */
  function keyOf(req: IncomingMessage): RouteContext["key"] | null {
    const header = req.headers.authorization;
    if (header === `Bearer ${apiKey}`) return { type: "application" };
    if (header !== `Bearer ${clientApiKey}`) return null;
    const user = store.users.find((candidate) => candidate.rootAdmin);
    return user ? { type: "client", user } : null;
  }

  /**
   * Router, then the 'api' middleware (auth:sanctum, IsValidJson), the Client API's rate limit, then the
   * route's handler (with the client group's own middleware in client-routes.ts).
   */
  function handle(
    req: IncomingMessage,
    url: URL,
    rawBody: string,
    record: FakePanelRequest,
  ): Reply & { headers?: Record<string, string> } {
    let headers: Record<string, string> = {};
    try {
      const found = routeOf(req.method ?? "GET", url.pathname);
      if (!found || found.match.kind === "notFound") {
        throw panelError(
          404,
          "NotFoundHttpException",
          `The route ${url.pathname.slice(1)} could not be found.`,
        );
      }
      const { match } = found;
      if (match.kind === "methodNotAllowed") {
        throw panelError(
          405,
          "MethodNotAllowedHttpException",
          `The ${req.method} method is not supported for route ${url.pathname.slice(1)}. Supported methods: ${match.allowed.join(", ")}.`,
        );
      }
      // A root admin's client key reaches the Application API too (ApplicationApiRequest::authorize lets
      // an account key through; AuthenticateApplicationUser asks only for a root admin).
      const key = keyOf(req);
      if (!key) throw panelError(401, "AuthenticationException", "Unauthenticated.");
      let body: unknown = {};
      if (/[/+]json/.test(req.headers["content-type"] ?? "") && rawBody.trim() !== "") {
        try {
          body = JSON.parse(rawBody);
        } catch (error) {
          throw panelError(
            400,
            "BadRequestHttpException",
            `The JSON data passed in the request appears to be malformed: ${(error as Error).message}`,
          );
        }
      }
      record.body = body;
      if (found.api === "client") {
        // throttle:api.client, before the route's bindings (Laravel's middleware priority).
        const throttled = throttle.take();
        headers = throttled.headers;
        if (!throttled.allowed) {
          throw new PanelHttpError(
            429,
            [{ code: "ThrottleRequestsException", status: "429", detail: "Too Many Attempts." }],
            headers,
          );
        }
      }
      const reply = match.route.handle({
        store,
        params: match.params,
        query: url.searchParams,
        body: normalized(body),
        pathUrl: `${baseUrl}${url.pathname}`,
        baseUrl,
        installReads,
        wings,
        key,
      });
      return { ...reply, headers };
    } catch (error) {
      if (!(error instanceof PanelHttpError)) throw error;
      return {
        status: error.status,
        body: { errors: error.errors },
        headers: { ...headers, ...error.headers },
      };
    }
  }

  /** What the panel sends: JSON, or, to a caller that does not ask for JSON, Laravel's web answers. */
  function send(
    req: IncomingMessage,
    res: ServerResponse,
    reply: Reply & { headers?: Record<string, string> },
  ) {
    const wantsJson = /[/+]json/.test((req.headers.accept ?? "").split(",")[0] ?? "");
    if (!wantsJson && reply.status >= 400) {
      // Handler::unauthenticated and a failed validation redirect; other errors are a web page.
      if (reply.status === 401 || reply.status === 422) {
        res.writeHead(302, { location: `${baseUrl}${reply.status === 401 ? "/auth/login" : "/"}` });
        res.end();
        return 302;
      }
      res.writeHead(reply.status, { "content-type": "text/html; charset=UTF-8" });
      res.end(`<!doctype html><title>Error ${reply.status}</title>`);
      return reply.status;
    }
    if (reply.body === undefined) {
      res.writeHead(reply.status, reply.headers);
      res.end();
    } else {
      res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
      res.end(JSON.stringify(reply.body));
    }
    return reply.status;
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://panel.invalid");
    const found = routeOf(req.method ?? "GET", url.pathname);
    const route =
      found?.match.kind === "found"
        ? `${found.match.route.method} ${found.match.route.pattern}`
        : null;
    const failure = takeFailure(route);
    const record: FakePanelRequest = {
      method: req.method ?? "GET",
      url: req.url ?? "/",
      route,
      headers: { ...req.headers },
      body: undefined,
      failure: failure?.kind ?? null,
      received: false,
      status: null,
    };
    requests.push(record);
    if (failure?.kind === "down") {
      req.socket.destroy();
      return;
    }
    let rawBody = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (rawBody += chunk));
    req.on("end", () => {
      record.received = true;
      const delay = answerDelay();
      if (delay <= 0) {
        respond();
        return;
      }
      const timer = setTimeout(() => {
        timers.delete(timer);
        respond();
      }, delay);
      timers.add(timer);
    });
    function respond() {
      if (failure?.kind === "500") {
        record.status = send(req, res, {
          status: 500,
          body: {
            errors: [
              {
                code: "QueryException",
                status: "500",
                detail:
                  "An unexpected error was encountered while processing this request, please try again.",
              },
            ],
          },
        });
        return;
      }
      if (failure?.kind === "429") {
        // ThrottleRequestsException from 'throttle:api.application' (or api.client).
        record.status = send(req, res, {
          status: 429,
          body: {
            errors: [
              { code: "ThrottleRequestsException", status: "429", detail: "Too Many Attempts." },
            ],
          },
          headers: {
            "retry-after": String(failure.options.retryAfterSeconds ?? 1),
            "x-ratelimit-limit": found?.api === "client" ? String(CLIENT_RATE_LIMIT) : "240",
            "x-ratelimit-remaining": "0",
          },
        });
        return;
      }
      const answer = () => {
        const reply = handle(req, url, rawBody, record);
        if (failure?.kind === "lost") {
          req.socket.destroy();
          return;
        }
        if (res.destroyed || req.socket.destroyed) return;
        record.status = send(req, res, reply);
      };
      if (failure?.kind === "slow" && failure.options.until) {
        void failure.options.until.then(
          () => !closed && answer(),
          () => !closed && answer(),
        );
        return;
      }
      if (failure?.kind === "slow") {
        const timer = setTimeout(() => {
          timers.delete(timer);
          answer();
        }, failure.options.delayMs ?? slowMs);
        timers.add(timer);
        return;
      }
      answer();
    }
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: baseUrl,
    apiKey,
    clientApiKey,
    locations: store.locations,
    nodes: store.nodes,
    allocations: store.allocations,
    nests: store.nests,
    eggs: store.eggs,
    users: store.users,
    servers: store.servers,
    addLocation: (short, long) => store.addLocation(short, long),
    addNode: (input) => store.addNode(input),
    addAllocations: (nodeId, ip, ports, alias) => store.addAllocations(nodeId, ip, ports, alias),
    addNest: (name, description) => store.addNest(name, description),
    addEgg: (input) => store.addEgg(input),
    addUser: (input) => store.addUser(input),
    addServer: (input) => store.addServer(input),
    serverByExternalId: (externalId) =>
      store.servers.find((s) => s.externalId?.toLowerCase() === externalId.toLowerCase()),
    userByExternalId: (externalId) =>
      store.users.find((u) => u.externalId?.toLowerCase() === externalId.toLowerCase()),
    allocationsOf: (serverId) => store.allocationsOf(serverId),
    finishInstall(serverId, result) {
      const found = store.servers.find((s) => s.id === serverId);
      if (!found?.install) throw new Error(`The fake panel's server ${serverId} is not installing`);
      store.completeInstall(found, result);
    },
    powerState: (serverId) => wings.state(serverOf(serverId).id),
    setPowerState: (serverId, state) => wings.setState(serverOf(serverId).id, state),
    setResources: (serverId, resources) => wings.setResources(serverOf(serverId).id, resources),
    setNodeDown(nodeId, down, outage = {}) {
      if (!store.nodes.some((node) => node.id === nodeId))
        throw new Error(`The fake panel has no node ${nodeId}`);
      wings.setNodeDown(nodeId, down, outage.proxyStatus ?? null);
    },
    setTransferring(serverId, transferring) {
      serverOf(serverId).transferring = transferring;
    },
    setClientRateLimit: (perMinute) => throttle.reset(perMinute),
    userPassword(userId) {
      const user = store.users.find((candidate) => candidate.id === userId);
      if (!user) throw new Error(`The fake panel has no user ${userId}`);
      return user.password;
    },
    failNext(kind, count = 1, failureOptions = {}) {
      pending.push({ kind, left: count, options: failureOptions });
    },
    failEvery(n, kind, failureOptions = {}) {
      if (!Number.isInteger(n) || n < 1) throw new Error(`failEvery needs a whole n ≥ 1, not ${n}`);
      recurring.push({
        n,
        kinds: Array.isArray(kind) ? kind : [kind],
        options: failureOptions,
        seen: 0,
        fired: 0,
      });
    },
    clearFailures() {
      pending = [];
      recurring = [];
    },
    setAnswerDelay(option) {
      answerDelay = answerDelayOf(option);
    },
    requests,
    requestCount: (route) =>
      route === undefined ? requests.length : requests.filter((r) => r.route === route).length,
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
