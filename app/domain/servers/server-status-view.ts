import { parsePanelPlan, parsePanelPorts } from "~/domain/provisioning/panel-plan";
import {
  ageSeconds,
  panelLinksFor,
  PLAYERS_ERRORS,
  SERVER_ACTION_STATES,
  SERVER_ACTIONS,
  SERVER_STATES,
  serverActionRefusal,
  STATUS_READ_ERRORS,
  type PlayersError,
  type ServerAccess,
  type ServerAction,
  type ServerActionState,
  type ServerPageView,
  type ServerState,
  type ServerStatusView,
  type ServerVariable,
  type StatusReadError,
} from "./server-control";

// A server's card and page built from the rows the reads load (docs/server-control.md): pure, so the
// rules (what a service not ready on the panel shows, the limits of its plan, what is stale JSON) are
// unit-tested apart from the database.

/** The service's columns a server's reads need. */
export interface ServerServiceRow {
  id: number;
  name: string;
  server_name: string;
  type: string | null;
  status: string;
  panel_state: string | null;
  panel_plan: string | null;
  panel_identifier: string | null;
  panel_address: string | null;
  panel_ports: string | null;
  offline_notice: number;
}

/** Its `server_status` row's columns, all null when the worker has not written one yet. */
export interface ServerStatusRow {
  state: string | null;
  cpu_tenths: number | null;
  memory_mib: number | null;
  disk_mib: number | null;
  uptime_seconds: number | null;
  read_at: string | null;
  read_error: string | null;
  game_name: string | null;
  players_online: number | null;
  players_max: number | null;
  players_error: string | null;
  access: string | null;
  variables: string | null;
}

/** The latest `server_actions` row of the service. */
export interface ServerActionRow {
  action: string;
  state: string;
  error: string | null;
  created_at: string;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null): T | null =>
  value !== null && (values as readonly string[]).includes(value) ? (value as T) : null;

/** Whether the service has a server on the panel at all (a page of it exists): made, being made or not. */
export function hasPanelServer(service: Pick<ServerServiceRow, "panel_state">): boolean {
  return service.panel_state !== null && service.panel_state !== "deleted";
}

/** Whether the worker reads the server's state from the panel: only once it is ready there. */
export function isReadable(
  service: Pick<ServerServiceRow, "panel_state" | "panel_identifier">,
): boolean {
  return service.panel_state === "ready" && service.panel_identifier !== null;
}

/**
 * The state of a server the panel is not asked about: one being made or installed shows installing,
 * one suspended on the panel suspended, anything else (failed, not made yet) is not known.
 */
export function stateOfPanel(panelState: string | null): ServerState {
  if (panelState === "pending" || panelState === "creating" || panelState === "installing")
    return "installing";
  if (panelState === "suspended") return "suspended";
  return "unknown";
}

/** SFTP access as the details job stored it, or null (none yet, or not readable). */
export function parseAccess(text: string | null): ServerAccess | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<ServerAccess> | null;
    if (
      !value ||
      typeof value.host !== "string" ||
      typeof value.port !== "number" ||
      typeof value.username !== "string"
    )
      return null;
    return { host: value.host, port: value.port, username: value.username };
  } catch {
    return null;
  }
}

/** The variables as the details job stored them; anything not one is left out. */
export function parseVariables(text: string | null): ServerVariable[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value.flatMap((item: Partial<ServerVariable> | null) =>
      item &&
      typeof item.env === "string" &&
      typeof item.name === "string" &&
      typeof item.value === "string"
        ? [
            {
              env: item.env,
              name: item.name,
              description: typeof item.description === "string" ? item.description : "",
              value: item.value,
              defaultValue: typeof item.defaultValue === "string" ? item.defaultValue : "",
              rules: typeof item.rules === "string" ? item.rules : "",
              editable: item.editable === true,
            },
          ]
        : [],
    );
  } catch {
    return [];
  }
}

/** The card: the last state read (or the panel's, for a server not read), its age, what may be asked. */
export function buildStatusView(input: {
  service: ServerServiceRow;
  status: ServerStatusRow | null;
  lastAction: ServerActionRow | null;
  refreshing: boolean;
  now: Date;
}): ServerStatusView {
  const { service, status, lastAction, now } = input;
  const read = isReadable(service);
  const state: ServerState = read
    ? (oneOf(SERVER_STATES, status?.state ?? null) ?? "unknown")
    : stateOfPanel(service.panel_state);
  // Figures only of a server read: one not ready has none worth showing, whatever an earlier read said.
  const figures = read ? status : null;
  const limits = parsePanelPlan(service.panel_plan)?.limits;
  const online = figures?.players_online ?? null;
  const max = figures?.players_max ?? null;
  const action = lastAction ? oneOf(SERVER_ACTIONS, lastAction.action) : null;
  const actionState = lastAction ? oneOf(SERVER_ACTION_STATES, lastAction.state) : null;
  const readAt = figures?.read_at ?? null;
  return {
    serviceId: service.id,
    state,
    readAt,
    ageSeconds: ageSeconds(readAt, now),
    refreshing: read && input.refreshing,
    readError: oneOf<StatusReadError>(STATUS_READ_ERRORS, figures?.read_error ?? null),
    cpuPercent: figures?.cpu_tenths == null ? null : figures.cpu_tenths / 10,
    cpuLimitPercent: limits?.cpu ?? 0,
    memoryMib: figures?.memory_mib ?? null,
    memoryLimitMib: limits?.memory ?? 0,
    diskMib: figures?.disk_mib ?? null,
    diskLimitMib: limits?.disk ?? 0,
    uptimeSeconds: figures?.uptime_seconds ?? null,
    players:
      online !== null && max !== null ? { online, max, name: figures?.game_name ?? "" } : null,
    playersError: oneOf<PlayersError>(PLAYERS_ERRORS, figures?.players_error ?? null),
    lastAction:
      lastAction && action && actionState
        ? {
            action: action satisfies ServerAction,
            state: actionState satisfies ServerActionState,
            at: lastAction.created_at,
            error: lastAction.error,
          }
        : null,
    refusal: serverActionRefusal({
      serviceStatus: service.status,
      panelState: service.panel_state,
      state,
    }),
  };
}

/** The page: the card, the service, its access and variables, the panel's pages, the notice switch. */
export function buildPageView(input: {
  service: ServerServiceRow;
  status: ServerStatusRow | null;
  lastAction: ServerActionRow | null;
  refreshing: boolean;
  panelUrl: string | null;
  now: Date;
}): ServerPageView {
  const { service, status, panelUrl } = input;
  return {
    service: {
      id: service.id,
      name: service.name,
      serverName: service.server_name,
      type: service.type,
      status: service.status,
      address: service.panel_address,
      ports: parsePanelPorts(service.panel_ports),
    },
    status: buildStatusView(input),
    access: parseAccess(status?.access ?? null),
    variables: parseVariables(status?.variables ?? null),
    panelLinks:
      panelUrl && service.panel_identifier
        ? panelLinksFor(panelUrl, service.panel_identifier)
        : null,
    offlineNotice: service.offline_notice === 1,
  };
}
