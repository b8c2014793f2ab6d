// The fake panel's routes: the part of pterodactyl/panel's routes/api-application.php that Hostfront uses,
// each handler following the controller, form request and service named in its comment. Errors are
// thrown as PanelHttpError and written by the server as app/Exceptions/Handler.php writes them.

import {
  allocationAttributes,
  eggAttributes,
  item,
  locationAttributes,
  nestAttributes,
  nodeAttributes,
  sameText,
  serverAttributes,
  userAttributes,
  type FakeEgg,
  type FakePanelStore,
  type FakeServer,
  type FakeUser,
} from "./state";
import {
  validate,
  valueAt,
  type CustomRule,
  type FieldRules,
  type RuleFailure,
} from "./laravel-rules";
import type { FakeWings } from "./wings";

export interface ErrorItem {
  code: string;
  status: string;
  detail: string;
  meta?: Record<string, unknown>;
}

/** An error answer in the panel's format: `{"errors": [...]}` with the HTTP status. */
export class PanelHttpError extends Error {
  constructor(
    readonly status: number,
    readonly errors: ErrorItem[],
    readonly headers: Record<string, string> = {},
  ) {
    super(errors[0]?.detail ?? `HTTP ${status}`);
  }
}

export interface RouteContext {
  store: FakePanelStore;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON body after TrimStrings and ConvertEmptyStringsToNull ({} when there is none). */
  body: unknown;
  /** The request's URL without its query (Laravel's paginator builds its links from it). */
  pathUrl: string;
  baseUrl: string;
  installReads: number;
  /** Wings, on every node (the Client API's power, resources and reinstall go through it). */
  wings: FakeWings;
  /**
   * The kind of key the request came with, and for a client key its user (a root admin of the panel);
   * the fake does not model the user of an application key.
   */
  key: { type: "application" } | { type: "client"; user: FakeUser };
}

export interface Reply {
  status: number;
  body?: unknown;
}

export interface Route {
  method: string;
  /**
   * The path after /api/application (`/servers/{server}`), or after /api for the Client API's
   * (`/client/servers/{server}`), `{name}` for a parameter. Also the route's key in counters.
   */
  pattern: string;
  handle(context: RouteContext): Reply;
}

// ---------------------------------------------------------------------------------------------------
// Errors (app/Exceptions/Handler.php::convertExceptionToArray and invalidJson)

const NOT_FOUND_DETAIL = "The requested resource could not be found on the server.";

/** Route model binding or firstOrFail() found nothing: ModelNotFoundException → NotFoundHttpException. */
export function notFound(): PanelHttpError {
  return new PanelHttpError(404, [
    { code: "NotFoundHttpException", status: "404", detail: NOT_FOUND_DETAIL },
  ]);
}

/** Pterodactyl\Exceptions\DisplayException: always 400. */
function displayException(detail: string): PanelHttpError {
  return new PanelHttpError(400, [{ code: "DisplayException", status: "400", detail }]);
}

/** Handler::invalidJson: one entry per failed rule, its field and rule in meta. */
function validationException(failures: RuleFailure[]): PanelHttpError {
  return new PanelHttpError(
    422,
    failures.map((failure) => ({
      code: "ValidationException",
      status: "422",
      detail: failure.detail,
      meta: { source_field: failure.field, rule: failure.rule },
    })),
  );
}

export function check(data: unknown, rules: FieldRules[]) {
  const failures = validate(data, rules);
  if (failures.length > 0) throw validationException(failures);
}

// ---------------------------------------------------------------------------------------------------
// Lists: spatie/laravel-query-builder filters and Laravel's paginator as Fractal shows it

/**
 * QueryBuilder::allowedFilters: `filter[name]=value`. A name given as a string is a partial filter (LIKE
 * %value%, without case under MySQL's collation; a comma gives several values, any may match); an unknown
 * filter is refused with InvalidFilterQuery (400).
 */
function filtered<T>(
  query: URLSearchParams,
  rows: T[],
  allowed: Record<string, (row: T, value: string) => boolean>,
): T[] {
  const asked: [string, string[]][] = [];
  for (const [key, value] of query) {
    const name = /^filter\[(.+)\]$/.exec(key)?.[1];
    if (name === undefined) continue;
    asked.push([name, value.split(",").filter((part) => part !== "")]);
  }
  const unknown = asked.map(([name]) => name).filter((name) => !(name in allowed));
  if (unknown.length > 0) {
    throw new PanelHttpError(400, [
      {
        code: "InvalidFilterQuery",
        status: "400",
        detail: `Requested filter(s) \`${unknown.join(", ")}\` are not allowed. Allowed filter(s) are \`${Object.keys(allowed).join(", ")}\`.`,
      },
    ]);
  }
  return rows.filter((row) =>
    asked.every(
      ([name, values]) => values.length === 0 || values.some((value) => allowed[name]!(row, value)),
    ),
  );
}

const partial = (text: string | null, value: string) =>
  text !== null && text.toLowerCase().includes(value.toLowerCase());

/**
 * `->paginate($request->query('per_page') ?? 50)` through Fractal's IlluminatePaginatorAdapter: the page's
 * items and meta.pagination. The links carry only `page` (the paginator appends nothing else).
 */
function paginated<T>(
  context: RouteContext,
  rows: T[],
  object: string,
  transform: (row: T) => Record<string, unknown>,
): Reply {
  const asked = Number(context.query.get("per_page"));
  const perPage = Number.isInteger(asked) && asked > 0 ? asked : 50;
  const askedPage = Number(context.query.get("page"));
  const page = Number.isInteger(askedPage) && askedPage > 0 ? askedPage : 1;
  const totalPages = Math.max(1, Math.ceil(rows.length / perPage));
  const data = rows.slice((page - 1) * perPage, page * perPage);
  const links: Record<string, string> = {};
  if (page > 1) links.previous = `${context.pathUrl}?page=${page - 1}`;
  if (page < totalPages) links.next = `${context.pathUrl}?page=${page + 1}`;
  return {
    status: 200,
    body: {
      object: "list",
      data: data.map((row) => item(object, transform(row))),
      meta: {
        pagination: {
          total: rows.length,
          count: data.length,
          per_page: perPage,
          current_page: page,
          total_pages: totalPages,
          // PHP writes an empty array as [], not {}.
          links: Object.keys(links).length > 0 ? links : [],
        },
      },
    },
  };
}

/** `{model:id}` route binding: the row with that id, or 404 (a non-number never matches). */
function bound<T extends { id: number }>(rows: T[], raw: string | undefined): T {
  const row =
    raw !== undefined && /^\d+$/.test(raw) ? rows.find((r) => r.id === Number(raw)) : null;
  if (!row) throw notFound();
  return row;
}

const includes = (query: URLSearchParams) =>
  (query.get("include") ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);

// ---------------------------------------------------------------------------------------------------
// Rules shared by handlers

/** Laravel's `unique:table,column` (with ->ignore() on update), compared as MySQL compares. */
function unique<T extends { id: number }>(
  rows: T[],
  column: (row: T) => string | null,
  ignoreId?: number,
): CustomRule {
  return {
    rule: "unique",
    message: "The :attribute has already been taken.",
    passes: (value) =>
      !rows.some((row) => row.id !== ignoreId && sameText(column(row), String(value))),
  };
}

function exists(test: (value: unknown) => boolean): CustomRule {
  return { rule: "exists", message: "The selected :attribute is invalid.", passes: test };
}

const idOf = (value: unknown) =>
  typeof value === "number" || (typeof value === "string" && /^\d+$/.test(value))
    ? Number(value)
    : NaN;

/** Pterodactyl\Rules\Username. */
const usernameRule: CustomRule = {
  rule: "p_username",
  message:
    "The :attribute must start and end with alpha-numeric characters and\n                contain only letters, numbers, dashes, underscores, and periods.",
  passes: (value) => /^[a-z0-9]([\w.-]+)[a-z0-9]$/.test(String(value).toLowerCase()),
};

/** Server::$validationRules['image']. */
const IMAGE_RULES = String.raw`required|string|max:191|regex:/^~?[\w\.\/\-:@ ]*$/`;

/** StoreUserRequest::rules() (User::getRules() with first_name/last_name), ignoring `self` on update. */
function userRules(store: FakePanelStore, self?: FakeUser): FieldRules[] {
  return [
    {
      field: "email",
      rules: ["required|email|between:1,191", unique(store.users, (u) => u.email, self?.id)],
    },
    {
      field: "external_id",
      rules: [
        "sometimes|nullable|string|max:191",
        unique(store.users, (u) => u.externalId, self?.id),
      ],
      attribute: "Third Party Identifier",
    },
    {
      field: "username",
      rules: [
        "required|between:1,191",
        unique(store.users, (u) => u.username, self?.id),
        usernameRule,
      ],
    },
    { field: "password", rules: "sometimes|nullable|string" },
    { field: "root_admin", rules: "boolean" },
    { field: "first_name", rules: "required|string|between:1,191" },
    { field: "last_name", rules: "required|string|between:1,191" },
  ];
}

/**
 * VariableValidatorService::handle at the admin level: every variable of the egg, its value or null, against
 * its own rules, named "<variable name> variable" in messages. Returns the values to store by env name
 * (null as '').
 */
function validatedEnvironment(egg: FakeEgg, given: unknown): Record<string, string> {
  const fields = (typeof given === "object" && given !== null ? given : {}) as Record<
    string,
    unknown
  >;
  const environment: Record<string, unknown> = {};
  for (const variable of egg.variables) {
    environment[variable.envVariable] = fields[variable.envVariable] ?? null;
  }
  check(
    { environment },
    egg.variables.map((variable) => ({
      field: `environment.${variable.envVariable}`,
      rules: variable.rules,
      attribute: `${variable.name} variable`,
    })),
  );
  const values: Record<string, string> = {};
  for (const variable of egg.variables) {
    const value = environment[variable.envVariable];
    values[variable.envVariable] = value === null ? "" : String(value);
  }
  return values;
}

/** A single read of a server moves its install on (see FakePanelOptions.installReads). */
function readServer(context: RouteContext, server: FakeServer): Reply {
  const body = item("server", serverAttributes(context.store, server, includes(context.query)));
  context.store.countInstallRead(server);
  return { status: 200, body };
}

export const noContent: Reply = { status: 204 };

// ---------------------------------------------------------------------------------------------------
// The routes

export const ROUTES: Route[] = [
  // Locations\LocationController::index (allowedFilters short, long).
  {
    method: "GET",
    pattern: "/locations",
    handle: (c) =>
      paginated(
        c,
        filtered(c.query, c.store.locations, {
          short: (l, v) => partial(l.short, v),
          long: (l, v) => partial(l.long, v),
        }),
        "location",
        locationAttributes,
      ),
  },
  // Locations\LocationController::view.
  {
    method: "GET",
    pattern: "/locations/{location}",
    handle: (c) => ({
      status: 200,
      body: item("location", locationAttributes(bound(c.store.locations, c.params.location))),
    }),
  },
  // Nodes\NodeController::index (allowedFilters uuid, name, fqdn, daemon_token_id).
  {
    method: "GET",
    pattern: "/nodes",
    handle: (c) =>
      paginated(
        c,
        filtered(c.query, c.store.nodes, {
          uuid: (n, v) => partial(n.uuid, v),
          name: (n, v) => partial(n.name, v),
          fqdn: (n, v) => partial(n.fqdn, v),
          daemon_token_id: () => false,
        }),
        "node",
        (node) => nodeAttributes(c.store, node),
      ),
  },
  // Nodes\NodeController::view.
  {
    method: "GET",
    pattern: "/nodes/{node}",
    handle: (c) => ({
      status: 200,
      body: item("node", nodeAttributes(c.store, bound(c.store.nodes, c.params.node))),
    }),
  },
  // Nodes\AllocationController::index: filters ip and port exact, ip_alias partial, server_id (a number:
  // that server's; anything else: the free ones).
  {
    method: "GET",
    pattern: "/nodes/{node}/allocations",
    handle: (c) => {
      const node = bound(c.store.nodes, c.params.node);
      const rows = c.store.allocations.filter((allocation) => allocation.nodeId === node.id);
      return paginated(
        c,
        filtered(c.query, rows, {
          ip: (a, v) => a.ip === v,
          port: (a, v) => String(a.port) === v,
          ip_alias: (a, v) => partial(a.alias, v),
          // PHP's empty() holds for "0": server_id=0 asks for the free ones.
          server_id: (a, v) =>
            v !== "0" && /^\d+$/.test(v) ? a.serverId === Number(v) : a.serverId === null,
        }),
        "allocation",
        allocationAttributes,
      );
    },
  },
  // Nests\NestController::index (NestRepository::paginated).
  {
    method: "GET",
    pattern: "/nests",
    handle: (c) => paginated(c, c.store.nests, "nest", nestAttributes),
  },
  // Nests\NestController::view.
  {
    method: "GET",
    pattern: "/nests/{nest}",
    handle: (c) => ({
      status: 200,
      body: item("nest", nestAttributes(bound(c.store.nests, c.params.nest))),
    }),
  },
  // Nests\EggController::index: `$nest->eggs`, a plain collection (no pagination, no meta).
  {
    method: "GET",
    pattern: "/nests/{nest}/eggs",
    handle: (c) => {
      const nest = bound(c.store.nests, c.params.nest);
      return {
        status: 200,
        body: {
          object: "list",
          data: c.store.eggs
            .filter((egg) => egg.nestId === nest.id)
            .map((egg) => item("egg", eggAttributes(egg, includes(c.query)))),
        },
      };
    },
  },
  // Nests\EggController::view; scopeBindings(): an egg of another nest is not found.
  {
    method: "GET",
    pattern: "/nests/{nest}/eggs/{egg}",
    handle: (c) => {
      const nest = bound(c.store.nests, c.params.nest);
      const egg = bound(
        c.store.eggs.filter((candidate) => candidate.nestId === nest.id),
        c.params.egg,
      );
      return { status: 200, body: item("egg", eggAttributes(egg, includes(c.query))) };
    },
  },
  // Users\UserController::index (allowedFilters email, uuid, username, external_id: all partial).
  {
    method: "GET",
    pattern: "/users",
    handle: (c) =>
      paginated(
        c,
        filtered(c.query, c.store.users, {
          email: (u, v) => partial(u.email, v),
          uuid: (u, v) => partial(u.uuid, v),
          username: (u, v) => partial(u.username, v),
          external_id: (u, v) => partial(u.externalId, v),
        }),
        "user",
        userAttributes,
      ),
  },
  // Users\UserController::view.
  {
    method: "GET",
    pattern: "/users/{user}",
    handle: (c) => ({
      status: 200,
      body: item("user", userAttributes(bound(c.store.users, c.params.user))),
    }),
  },
  // Users\ExternalUserController::index: where('external_id', ...)->firstOrFail().
  {
    method: "GET",
    pattern: "/users/external/{external_id}",
    handle: (c) => {
      const user = c.store.users.find((u) => sameText(u.externalId, c.params.external_id!));
      if (!user) throw notFound();
      return { status: 200, body: item("user", userAttributes(user)) };
    },
  },
  // Users\UserController::store with StoreUserRequest, UserCreationService (no password: the panel mails
  // a link to set one): 201 and meta.resource.
  {
    method: "POST",
    pattern: "/users",
    handle: (c) => {
      check(c.body, userRules(c.store));
      const body = c.body as Record<string, unknown>;
      const user = c.store.addUser({
        email: String(body.email),
        username: String(body.username),
        firstName: String(body.first_name),
        lastName: String(body.last_name),
        externalId: typeof body.external_id === "string" ? body.external_id : null,
      });
      if (typeof body.password === "string") user.password = body.password;
      return {
        status: 201,
        body: {
          ...item("user", userAttributes(user)),
          meta: { resource: `${c.baseUrl}/api/application/users/${user.id}` },
        },
      };
    },
  },
  // Users\UserController::update with UpdateUserRequest (the same rules, unique ones ignoring this user)
  // and UserUpdateService: a password that is empty (null after ConvertEmptyStringsToNull) or absent
  // leaves the old one; TrimStrings never trims it.
  {
    method: "PATCH",
    pattern: "/users/{user}",
    handle: (c) => {
      const user = bound(c.store.users, c.params.user);
      check(c.body, userRules(c.store, user));
      const body = c.body as Record<string, unknown>;
      user.email = String(body.email);
      user.username = String(body.username).toLowerCase();
      user.firstName = String(body.first_name);
      user.lastName = String(body.last_name);
      if (valueAt(body, "external_id").present) {
        user.externalId = typeof body.external_id === "string" ? body.external_id : null;
      }
      if (typeof body.password === "string") user.password = body.password;
      user.updatedAt = new Date();
      return { status: 200, body: item("user", userAttributes(user)) };
    },
  },
  // Users\UserController::delete, UserDeletionService: refused while the user owns servers.
  {
    method: "DELETE",
    pattern: "/users/{user}",
    handle: (c) => {
      const user = bound(c.store.users, c.params.user);
      if (c.store.servers.some((server) => server.userId === user.id)) {
        throw displayException(
          "Cannot delete a user with active servers attached to their account. Please delete their servers before continuing.",
        );
      }
      c.store.users.splice(c.store.users.indexOf(user), 1);
      return noContent;
    },
  },
  // Servers\ServerController::index (allowedFilters uuid, uuidShort, name, description, image,
  // external_id: all partial).
  {
    method: "GET",
    pattern: "/servers",
    handle: (c) =>
      paginated(
        c,
        filtered(c.query, c.store.servers, {
          uuid: (s, v) => partial(s.uuid, v),
          uuidShort: (s, v) => partial(s.identifier, v),
          name: (s, v) => partial(s.name, v),
          description: (s, v) => partial(s.description, v),
          image: (s, v) => partial(s.image, v),
          external_id: (s, v) => partial(s.externalId, v),
        }),
        "server",
        (server) => serverAttributes(c.store, server, includes(c.query)),
      ),
  },
  // Servers\ServerController::view.
  {
    method: "GET",
    pattern: "/servers/{server}",
    handle: (c) => readServer(c, bound(c.store.servers, c.params.server)),
  },
  // Servers\ExternalServerController::index: where('external_id', ...)->firstOrFail().
  {
    method: "GET",
    pattern: "/servers/external/{external_id}",
    handle: (c) => {
      const server = c.store.servers.find((s) => sameText(s.externalId, c.params.external_id!));
      if (!server) throw notFound();
      return readServer(c, server);
    },
  },
  // Servers\ServerController::store with StoreServerRequest (rules from Server::$validationRules; the
  // allocations must exist and be free, `withValidator`), then ServerCreationService: node from the
  // default allocation, nest from the egg, VariableValidatorService, the server "installing".
  {
    method: "POST",
    pattern: "/servers",
    handle: (c) => {
      const body = c.body as Record<string, unknown>;
      if (body.deploy !== undefined && body.deploy !== null) {
        // Hostfront picks allocations itself (MTA's P+123 rule), so the fake has no deployment.
        throw displayException("The fake panel does not implement automatic deployment (deploy).");
      }
      const free = (value: unknown) =>
        c.store.allocations.some((a) => a.id === idOf(value) && a.serverId === null);
      // The node of a usable default allocation (when it is not, its own error says so).
      const defaultNode = c.store.allocations.find(
        (a) => a.id === idOf(valueAt(body, "allocation.default").value) && a.serverId === null,
      )?.nodeId;
      check(body, [
        {
          field: "external_id",
          rules: [
            "sometimes|nullable|string|between:1,191",
            unique(c.store.servers, (s) => s.externalId),
          ],
        },
        { field: "name", rules: "required|string|min:1|max:191" },
        { field: "description", rules: "nullable|string" },
        {
          field: "user",
          rules: ["required|integer", exists((v) => c.store.users.some((u) => u.id === idOf(v)))],
        },
        { field: "egg", rules: ["required", exists((v) => c.store.egg(idOf(v)) !== undefined)] },
        { field: "docker_image", rules: IMAGE_RULES },
        { field: "startup", rules: "required|string" },
        { field: "environment", rules: "present|array" },
        { field: "skip_scripts", rules: "sometimes|boolean" },
        { field: "oom_disabled", rules: "sometimes|boolean" },
        { field: "limits", rules: "required|array" },
        { field: "limits.memory", rules: "required|numeric|min:0" },
        { field: "limits.swap", rules: "required|numeric|min:-1" },
        { field: "limits.disk", rules: "required|numeric|min:0" },
        { field: "limits.io", rules: "required|numeric|between:10,1000" },
        { field: "limits.threads", rules: "nullable|regex:/^[0-9-,]+$/" },
        { field: "limits.cpu", rules: "required|numeric|min:0" },
        { field: "feature_limits", rules: "required|array" },
        { field: "feature_limits.databases", rules: "present|nullable|integer|min:0" },
        { field: "feature_limits.allocations", rules: "sometimes|nullable|integer|min:0" },
        { field: "feature_limits.backups", rules: "present|nullable|integer|min:0" },
        { field: "allocation.default", rules: ["required|integer|bail", exists(free)] },
        {
          field: "allocation.additional.*",
          rules: [
            "integer",
            exists(free),
            // Stricter than the panel, which assigns an additional allocation of another node without a
            // word (ServerCreationService::storeAssignedAllocations does not look at the node): a server
            // whose ports are on another machine is a bug of ours the fake should show.
            {
              rule: "fake_same_node",
              message: "The :attribute is not on the node of allocation.default.",
              passes: (v) =>
                defaultNode === undefined ||
                c.store.allocations.find((a) => a.id === idOf(v))?.nodeId === defaultNode,
            },
          ],
        },
        { field: "start_on_completion", rules: "sometimes|boolean" },
      ]);
      const egg = c.store.egg(idOf(body.egg))!;
      const environment = validatedEnvironment(egg, body.environment);
      const limits = body.limits as Record<string, unknown>;
      const features = body.feature_limits as Record<string, unknown>;
      const additional = valueAt(body, "allocation.additional").value;
      const server = c.store.insertServer({
        externalId: typeof body.external_id === "string" ? body.external_id : null,
        name: String(body.name),
        description: typeof body.description === "string" ? body.description : "",
        userId: idOf(body.user),
        egg,
        allocationIds: [
          idOf(valueAt(body, "allocation.default").value),
          ...(Array.isArray(additional) ? additional.map(idOf) : []),
        ],
        image: String(body.docker_image),
        startup: String(body.startup),
        memory: Number(limits.memory),
        swap: Number(limits.swap),
        disk: Number(limits.disk),
        io: Number(limits.io),
        cpu: Number(limits.cpu),
        threads: typeof limits.threads === "string" ? limits.threads : null,
        databaseLimit: features.databases === null ? 0 : Number(features.databases),
        allocationLimit:
          features.allocations === null || features.allocations === undefined
            ? 0
            : Number(features.allocations),
        backupLimit: features.backups === null ? 0 : Number(features.backups),
        environment,
        skipScripts: body.skip_scripts === true || body.skip_scripts === 1,
        startOnCompletion: body.start_on_completion === true || body.start_on_completion === 1,
        oomDisabled: body.oom_disabled === undefined ? true : Boolean(body.oom_disabled),
        status: "installing",
        install: { readsLeft: c.installReads, reinstall: false },
      });
      const reply = { status: 201, body: item("server", serverAttributes(c.store, server)) };
      if (c.installReads <= 0) c.store.completeInstall(server, "ok");
      return reply;
    },
  },
  // Servers\ServerManagementController::suspend, SuspensionService::toggle (nothing to do when already
  // suspended); Wings, told of it, stops the server (Server::SyncWithEnvironment).
  {
    method: "POST",
    pattern: "/servers/{server}/suspend",
    handle: (c) => {
      const server = bound(c.store.servers, c.params.server);
      if (server.status !== "suspended") {
        server.status = "suspended";
        server.updatedAt = new Date();
      }
      c.wings.setState(server.id, "offline");
      return noContent;
    },
  },
  // Servers\ServerManagementController::unsuspend: status back to null, whatever it was before.
  {
    method: "POST",
    pattern: "/servers/{server}/unsuspend",
    handle: (c) => {
      const server = bound(c.store.servers, c.params.server);
      if (server.status === "suspended") {
        server.status = null;
        server.updatedAt = new Date();
      }
      return noContent;
    },
  },
  // Servers\ServerManagementController::reinstall, ReinstallServerService: "installing" again (even a
  // suspended server: the panel overwrites the status); Wings stops the server to install it.
  {
    method: "POST",
    pattern: "/servers/{server}/reinstall",
    handle: (c) => {
      const server = bound(c.store.servers, c.params.server);
      c.wings.setState(server.id, "offline");
      server.status = "installing";
      server.install = { readsLeft: c.installReads, reinstall: true };
      server.updatedAt = new Date();
      if (c.installReads <= 0) c.store.completeInstall(server, "ok");
      return noContent;
    },
  },
  // Servers\ServerController::delete, ServerDeletionService (Wings always answers in the fake, so force
  // or not makes no difference): the allocations are free again.
  {
    method: "DELETE",
    pattern: "/servers/{server}",
    handle: (c) => {
      c.store.removeServer(bound(c.store.servers, c.params.server));
      return noContent;
    },
  },
  // The same with /{force?}: "force" forces, any other word does not.
  {
    method: "DELETE",
    pattern: "/servers/{server}/{force}",
    handle: (c) => {
      c.store.removeServer(bound(c.store.servers, c.params.server));
      return noContent;
    },
  },
  // Servers\ServerDetailsController::build with UpdateServerBuildConfigurationRequest (the rules of
  // Server::getRulesForUpdate: the default allocation unique to this server, each limit required with
  // `limits` or, the legacy way, at the top level without it), then BuildModificationService
  // (processAllocations, then the default must be one of the server's). Route model binding runs first:
  // an unknown server is the 404 before any rule is read.
  {
    method: "PATCH",
    pattern: "/servers/{server}/build",
    handle: (c) => {
      const server = bound(c.store.servers, c.params.server);
      const body = c.body as Record<string, unknown>;
      const limit = (field: string, rules: string) => ({
        field: `limits.${field}`,
        rules: `required_with:limits|${rules}`,
      });
      const legacy = (field: string, rules: string) => ({
        field,
        rules: `required_without:limits|${rules}`,
      });
      check(body, [
        {
          field: "allocation",
          rules: [
            "required|bail",
            {
              rule: "unique",
              message: "The :attribute has already been taken.",
              passes: (v) =>
                !c.store.servers.some((s) => s.id !== server.id && s.allocationId === idOf(v)),
            },
            exists((v) => c.store.allocations.some((a) => a.id === idOf(v))),
          ],
        },
        { field: "oom_disabled", rules: "sometimes|boolean" },
        { field: "limits", rules: "sometimes|array" },
        limit("memory", "numeric|min:0"),
        limit("swap", "numeric|min:-1"),
        limit("io", "numeric|between:10,1000"),
        limit("cpu", "numeric|min:0"),
        { field: "limits.threads", rules: "nullable|regex:/^[0-9-,]+$/" },
        limit("disk", "numeric|min:0"),
        legacy("memory", "numeric|min:0"),
        legacy("swap", "numeric|min:-1"),
        legacy("io", "numeric|between:10,1000"),
        legacy("cpu", "numeric|min:0"),
        legacy("disk", "numeric|min:0"),
        // requiredToOptional leaves a rule without "required" as it is: threads at the top level too.
        { field: "threads", rules: "nullable|regex:/^[0-9-,]+$/" },
        { field: "add_allocations", rules: "bail|array" },
        { field: "add_allocations.*", rules: "integer" },
        { field: "remove_allocations", rules: "bail|array" },
        { field: "remove_allocations.*", rules: "integer" },
        { field: "feature_limits", rules: "required|array" },
        {
          field: "feature_limits.databases",
          rules: "present|nullable|integer|min:0",
          attribute: "Database Limit",
        },
        {
          field: "feature_limits.allocations",
          rules: "sometimes|nullable|integer|min:0",
          attribute: "Allocation Limit",
        },
        {
          field: "feature_limits.backups",
          rules: "present|nullable|integer|min:0",
          attribute: "Backup Limit",
        },
      ]);
      const add = Array.isArray(body.add_allocations) ? body.add_allocations.map(idOf) : [];
      const remove = Array.isArray(body.remove_allocations)
        ? body.remove_allocations.map(idOf)
        : [];
      let defaultId = idOf(body.allocation);
      // processAllocations: only free allocations of the server's node are taken, the others ignored.
      const fresh = c.store.allocations.filter(
        (a) => add.includes(a.id) && a.nodeId === server.nodeId && a.serverId === null,
      );
      for (const allocation of fresh) {
        allocation.serverId = server.id;
        allocation.notes = null;
      }
      if (remove.includes(defaultId)) {
        if (fresh.length === 0) {
          throw displayException(
            "You are attempting to delete the default allocation for this server but there is no fallback allocation to use.",
          );
        }
        defaultId = fresh[0]!.id;
      }
      for (const allocation of c.store.allocations) {
        if (
          remove.includes(allocation.id) &&
          !add.includes(allocation.id) &&
          allocation.nodeId === server.nodeId &&
          allocation.serverId === server.id
        ) {
          allocation.serverId = null;
          allocation.notes = null;
        }
      }
      if (
        defaultId !== server.allocationId &&
        !c.store.allocations.some((a) => a.id === defaultId && a.serverId === server.id)
      ) {
        throw displayException(
          "The requested default allocation is not currently assigned to this server.",
        );
      }
      // validated() lays `limits`' entries over the legacy top-level ones (each validated alike).
      const limits: Record<string, unknown> = {
        ...body,
        ...((body.limits as Record<string, unknown> | null | undefined) ?? {}),
      };
      const features = body.feature_limits as Record<string, unknown>;
      server.allocationId = defaultId;
      for (const key of ["memory", "swap", "io", "cpu", "disk"] as const) {
        if (limits[key] !== undefined && limits[key] !== null) server[key] = Number(limits[key]);
      }
      if (limits.threads !== undefined) {
        server.threads = typeof limits.threads === "string" ? limits.threads : null;
      }
      if (typeof body.oom_disabled === "boolean") server.oomDisabled = body.oom_disabled;
      // validated() sets each limit to the feature's value or null when it is absent, and the service
      // keeps that null (`Arr::get($data, 'allocation_limit', 0) ?? null`): an allocation limit left out
      // is none. Backups read null as 0 (`?? 0`).
      const feature = (value: unknown) =>
        value === null || value === undefined ? null : Number(value);
      server.databaseLimit = feature(features.databases);
      server.allocationLimit = feature(features.allocations);
      server.backupLimit = feature(features.backups) ?? 0;
      server.updatedAt = new Date();
      return { status: 200, body: item("server", serverAttributes(c.store, server)) };
    },
  },
  // Servers\StartupController::index with UpdateServerStartupRequest, then StartupModificationService at
  // the admin level: the environment (when not empty) checked against the new egg's variables.
  {
    method: "PATCH",
    pattern: "/servers/{server}/startup",
    handle: (c) => {
      const server = bound(c.store.servers, c.params.server);
      const body = c.body as Record<string, unknown>;
      check(body, [
        { field: "startup", rules: "required|string" },
        { field: "environment", rules: "present|array" },
        { field: "egg", rules: ["required", exists((v) => c.store.egg(idOf(v)) !== undefined)] },
        { field: "image", rules: IMAGE_RULES },
        { field: "skip_scripts", rules: "present|boolean" },
      ]);
      const egg = c.store.egg(idOf(body.egg))!;
      const environment = body.environment as Record<string, unknown>;
      if (Object.keys(environment).length > 0) {
        Object.assign(server.environment, validatedEnvironment(egg, environment));
      }
      server.eggId = egg.id;
      server.nestId = egg.nestId;
      server.startup = String(body.startup);
      server.image = String(body.image);
      server.skipScripts = body.skip_scripts === true || body.skip_scripts === 1;
      server.updatedAt = new Date();
      return { status: 200, body: item("server", serverAttributes(c.store, server)) };
    },
  },
];

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The route of `routes` for a method and a path after their prefix, as Laravel's router picks it. */
export function matchRoute(
  method: string,
  path: string,
  routes: Route[] = ROUTES,
):
  | { kind: "found"; route: Route; params: Record<string, string> }
  | { kind: "notFound" }
  | { kind: "methodNotAllowed"; allowed: string[] } {
  const segments = path.split("/").filter(Boolean);
  const allowed: string[] = [];
  // Literal segments win over parameters (/servers/external/x before /servers/{server}/{force}).
  const candidates = [...routes].sort(
    (a, b) => (a.pattern.match(/\{/g)?.length ?? 0) - (b.pattern.match(/\{/g)?.length ?? 0),
  );
  for (const route of candidates) {
    const parts = route.pattern.split("/").filter(Boolean);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = parts.every((part, index) => {
      const segment = segments[index]!;
      if (part.startsWith("{")) {
        params[part.slice(1, -1)] = decoded(segment);
        return true;
      }
      return part === segment;
    });
    if (!matches) continue;
    if (route.method === method) return { kind: "found", route, params };
    allowed.push(route.method);
  }
  return allowed.length > 0 ? { kind: "methodNotAllowed", allowed } : { kind: "notFound" };
}
