// The fake panel's Client API: the part of pterodactyl/panel's routes/api-client.php that Hostfront uses,
// behind the middleware of its `/servers/{server}` group (SubstituteClientBindings, RequireClientApiKey,
// AuthenticateServerAccess), each handler following the controller and form request named in its
// comment. Wings is the fake's own (wings.ts).

import {
  check,
  noContent,
  notFound,
  PanelHttpError,
  type Reply,
  type Route,
  type RouteContext,
} from "./routes";
import { item, sameText, type FakePanelStore, type FakeServer } from "./state";
import type { FakePowerSignal } from "./wings";

/** Wings' SFTP port (Node::$daemonSFTP, 2022 by default; the fake's nodes keep the default). */
const DAEMON_SFTP = 2022;

/** The routes of the group whose state the panel does not check (the server's own page). */
type Access = "view" | "use";

/**
 * ServerStateConflictException's message for a server the Client API does not serve now
 * (Server::validateCurrentState), or null when it does.
 */
export function stateConflict(store: FakePanelStore, server: FakeServer): string | null {
  const maintenance = store.nodes.find((node) => node.id === server.nodeId)?.maintenance ?? false;
  const installed = server.status !== "installing" && server.status !== "install_failed";
  if (server.status === "suspended")
    return "This server is currently suspended and the functionality requested is unavailable.";
  if (maintenance)
    return "The node of this server is currently under maintenance and the functionality requested is unavailable.";
  if (!installed)
    return "This server has not yet completed its installation process, please try again later.";
  if (server.status === "restoring_backup")
    return "This server is currently restoring from a backup, please try again later.";
  if (server.transferring)
    return "This server is currently being transferred to a new machine, please try again later.";
  return null;
}

/**
 * The group's middleware in the panel's order: the server bound by its short identifier (8 characters)
 * or its uuid (SubstituteClientBindings; none: 404), an application key refused
 * (RequireClientApiKey: 403), then AuthenticateServerAccess: the owner or a root admin (the fake has no
 * subusers), and a 409 for a server installing, suspended, being transferred... on every route but the
 * server's page.
 */
function accessibleServer(c: RouteContext, access: Access): FakeServer {
  const raw = c.params.server ?? "";
  const server = c.store.servers.find((s) =>
    sameText(raw.length === 8 ? s.identifier : s.uuid, raw),
  );
  if (!server) throw notFound();
  if (c.key.type !== "client") {
    throw new PanelHttpError(403, [
      {
        code: "AccessDeniedHttpException",
        status: "403",
        detail:
          "You are attempting to use an application API key on an endpoint that requires a client API key.",
      },
    ]);
  }
  if (c.key.user.id !== server.userId && !c.key.user.rootAdmin) {
    throw new PanelHttpError(404, [
      {
        code: "NotFoundHttpException",
        status: "404",
        detail: "The requested resource does not exist on this server.",
      },
    ]);
  }
  const conflict = stateConflict(c.store, server);
  if (conflict !== null && access !== "view") {
    throw new PanelHttpError(409, [
      { code: "ServerStateConflictException", status: "409", detail: conflict },
    ]);
  }
  return server;
}

/**
 * DaemonConnectionException when the server's node does not answer: no connection is a 504 ("Could not
 * establish a connection…"); a proxy's 5xx in Wings' place is that status where the panel passes it on
 * (`$useStatusCode`: power, reinstall) and 504 where it does not (the resources), with its code in the
 * message. A proxy's answer has no X-Request-Id, so the request id is empty.
 */
function wingsUnreachable(c: RouteContext, server: FakeServer, useStatusCode: boolean) {
  const outage = c.wings.outage(server.nodeId);
  if (!outage) return;
  const proxy = outage.proxyStatus;
  const status = useStatusCode && proxy !== null ? proxy : 504;
  const detail =
    proxy === null
      ? "Could not establish a connection to the machine running this server. Please try again."
      : `There was an error while communicating with the machine running this server. This error has been logged, please try again. (code: ${proxy}) (request_id: )`;
  throw new PanelHttpError(status, [
    { code: "DaemonConnectionException", status: String(status), detail },
  ]);
}

/** StartupCommandService::handle: the startup with the panel's and the visible variables' values. */
function startupCommand(c: RouteContext, server: FakeServer): string {
  const allocation = c.store.allocations.find((a) => a.id === server.allocationId);
  const values: Record<string, string> = {
    SERVER_MEMORY: String(server.memory),
    SERVER_IP: allocation?.ip ?? "",
    SERVER_PORT: String(allocation?.port ?? ""),
  };
  for (const variable of c.store.egg(server.eggId)?.variables ?? []) {
    values[variable.envVariable] = variable.userViewable
      ? (server.environment[variable.envVariable] ?? variable.defaultValue)
      : "[hidden]";
  }
  return server.startup.replace(/\{\{([A-Z0-9_]+)\}\}/g, (whole, name: string) =>
    name in values ? values[name]! : whole,
  );
}

/** The egg's variables its user may see, with the server's values (Server::variables). */
function visibleVariables(c: RouteContext, server: FakeServer) {
  return (c.store.egg(server.eggId)?.variables ?? [])
    .filter((variable) => variable.userViewable)
    .map((variable) => ({ variable, value: server.environment[variable.envVariable] ?? null }));
}

/** EggVariableTransformer (the Client API's). */
function variableAttributes(
  variable: ReturnType<typeof visibleVariables>[number]["variable"],
  value: string | null,
) {
  return {
    name: variable.name,
    description: variable.description,
    env_variable: variable.envVariable,
    default_value: variable.defaultValue,
    server_value: value,
    is_editable: variable.userEditable,
    rules: variable.rules,
  };
}

/** The Client API's ServerTransformer, with its default includes (allocations, variables). */
function clientServerAttributes(c: RouteContext, server: FakeServer, userId: number) {
  const node = c.store.nodes.find((n) => n.id === server.nodeId)!;
  const installed = server.status !== "installing" && server.status !== "install_failed";
  return {
    server_owner: userId === server.userId,
    identifier: server.identifier,
    internal_id: server.id,
    uuid: server.uuid,
    name: server.name,
    node: node.name,
    is_node_under_maintenance: node.maintenance,
    sftp_details: { ip: node.fqdn, port: DAEMON_SFTP },
    description: server.description,
    limits: {
      memory: server.memory,
      swap: server.swap,
      disk: server.disk,
      io: server.io,
      cpu: server.cpu,
      threads: server.threads,
      oom_disabled: server.oomDisabled,
    },
    invocation: startupCommand(c, server),
    docker_image: server.image,
    egg_features: null,
    feature_limits: {
      databases: server.databaseLimit,
      allocations: server.allocationLimit,
      backups: server.backupLimit,
    },
    status: server.status,
    is_suspended: server.status === "suspended",
    is_installing: !installed,
    is_transferring: server.transferring,
    relationships: {
      allocations: {
        object: "list",
        data: c.store.allocationsOf(server.id).map((allocation) =>
          item("allocation", {
            id: allocation.id,
            ip: allocation.ip,
            ip_alias: allocation.alias,
            port: allocation.port,
            notes: allocation.notes,
            is_default: allocation.id === server.allocationId,
          }),
        ),
      },
      variables: {
        object: "list",
        data: visibleVariables(c, server).map(({ variable, value }) =>
          item("egg_variable", variableAttributes(variable, value)),
        ),
      },
    },
  };
}

const clientUser = (c: RouteContext) => (c.key.type === "client" ? c.key.user : null);

export const CLIENT_ROUTES: Route[] = [
  // Servers\ServerController::index: read even while installing or suspended (the page's route is
  // exempt from the state check). As the Application API's single read, it moves an install on.
  {
    method: "GET",
    pattern: "/client/servers/{server}",
    handle: (c) => {
      const server = accessibleServer(c, "view");
      const user = clientUser(c)!;
      const permissions = user.rootAdmin
        ? ["*", "admin.websocket.errors", "admin.websocket.install", "admin.websocket.transfer"]
        : ["*"];
      const body = {
        ...item("server", clientServerAttributes(c, server, user.id)),
        meta: { is_server_owner: user.id === server.userId, user_permissions: permissions },
      };
      c.store.countInstallRead(server);
      return { status: 200, body };
    },
  },
  // Servers\ResourceUtilizationController: Wings' details through StatsTransformer (DaemonServerRepository::
  // getDetails, its DaemonConnectionException without the status code: always 504). The real panel keeps
  // Wings' answer 20 s (`resources:<uuid>` in its cache); the fake asks Wings every time.
  {
    method: "GET",
    pattern: "/client/servers/{server}/resources",
    handle: (c) => {
      const server = accessibleServer(c, "use");
      wingsUnreachable(c, server, false);
      return {
        status: 200,
        body: item("stats", c.wings.details(server.id, server.status === "suspended")),
      };
    },
  },
  // Servers\PowerController::index with SendPowerRequest, then DaemonPowerRepository::send: Wings takes
  // the signal and the state moves afterwards (wings.ts); 204.
  {
    method: "POST",
    pattern: "/client/servers/{server}/power",
    handle: (c) => {
      const server = accessibleServer(c, "use");
      check(c.body, [{ field: "signal", rules: "required|string|in:start,stop,restart,kill" }]);
      wingsUnreachable(c, server, true);
      c.wings.signal(server.id, (c.body as { signal: FakePowerSignal }).signal);
      return noContent;
    },
  },
  // Servers\StartupController::index: the visible variables, the startup in meta.
  {
    method: "GET",
    pattern: "/client/servers/{server}/startup",
    handle: (c) => {
      const server = accessibleServer(c, "use");
      return {
        status: 200,
        body: {
          object: "list",
          data: visibleVariables(c, server).map(({ variable, value }) =>
            item("egg_variable", variableAttributes(variable, value)),
          ),
          meta: {
            startup_command: startupCommand(c, server),
            docker_images: c.store.egg(server.eggId)?.dockerImages ?? {},
            raw_startup_command: server.startup,
          },
        },
      };
    },
  },
  // Servers\StartupController::update with UpdateStartupVariableRequest (key required, value present),
  // then the variable's own rules on `value`. The controller reads `$variable->server_value` before it
  // looks whether a variable was found: a key the egg lacks is PHP's warning on null, which Laravel
  // turns into an ErrorException, a 500 with the panel's generic detail. A hidden variable "does not
  // exist", one its user may not edit is "read-only" (400 BadRequestHttpException).
  {
    method: "PUT",
    pattern: "/client/servers/{server}/startup/variable",
    handle: (c) => {
      const server = accessibleServer(c, "use");
      check(c.body, [
        { field: "key", rules: "required|string" },
        { field: "value", rules: "present" },
      ]);
      const body = c.body as { key: string; value: unknown };
      const variable = c.store
        .egg(server.eggId)
        ?.variables.find((candidate) => candidate.envVariable === body.key);
      if (!variable) {
        throw new PanelHttpError(500, [
          {
            code: "ErrorException",
            status: "500",
            detail:
              "An unexpected error was encountered while processing this request, please try again.",
          },
        ]);
      }
      const refuse = (detail: string) =>
        new PanelHttpError(400, [{ code: "BadRequestHttpException", status: "400", detail }]);
      if (!variable.userViewable)
        throw refuse("The environment variable you are trying to edit does not exist.");
      if (!variable.userEditable)
        throw refuse("The environment variable you are trying to edit is read-only.");
      check(body, [{ field: "value", rules: variable.rules }]);
      const value = body.value === null ? null : String(body.value);
      server.environment[variable.envVariable] = value ?? "";
      server.updatedAt = new Date();
      return {
        status: 200,
        body: {
          ...item("egg_variable", variableAttributes(variable, value)),
          meta: {
            startup_command: startupCommand(c, server),
            raw_startup_command: server.startup,
          },
        },
      };
    },
  },
  // Servers\SettingsController::reinstall, ReinstallServerService: "installing" and Wings told, in one
  // transaction (a node that does not answer leaves the status as it was); Wings stops the server; 202
  // with an empty array.
  {
    method: "POST",
    pattern: "/client/servers/{server}/settings/reinstall",
    handle: (c): Reply => {
      const server = accessibleServer(c, "use");
      wingsUnreachable(c, server, true);
      server.status = "installing";
      server.install = { readsLeft: c.installReads, reinstall: true };
      server.updatedAt = new Date();
      c.wings.setState(server.id, "offline");
      if (c.installReads <= 0) c.store.completeInstall(server, "ok");
      return { status: 202, body: [] };
    },
  },
];
