import { labelKeys } from "~/lib/label-keys";

// A provisioned server in its customer's hands (docs/server-control.md): the words the worker, the pages
// and the tests share, safe in the browser. The worker reads a server's state from the game panel's
// Client API and its players from the game itself, and keeps the last answer (`server_status`); pages
// show that with its age and never wait on the panel or the game. What is asked of a server (a power
// signal, a reinstall, a variable, a new panel password) is a row of `server_actions` and a job.

/** The states a server's card shows: the panel's four power states, and what the panel refuses in. */
export const SERVER_STATES = [
  "running",
  "starting",
  "stopping",
  "offline",
  "installing",
  "suspended",
  "unknown",
] as const;
export type ServerState = (typeof SERVER_STATES)[number];

export const SERVER_STATE_LABELS = labelKeys("services", "server.state", SERVER_STATES);

/** A state's colour on the card (the kit's badge tones). */
export const SERVER_STATE_TONES: Record<ServerState, "success" | "warning" | "muted" | "danger"> = {
  running: "success",
  starting: "warning",
  stopping: "warning",
  offline: "muted",
  installing: "warning",
  suspended: "danger",
  unknown: "muted",
};

/** A state this old is read again when a page asks for it: many viewers of one server, one request. */
export const STATUS_CACHE_MS = 30_000;
/**
 * A server starting or stopping is read again sooner: the card shows it moving to where it goes (a
 * restart takes seconds). It costs the panel a few more requests only while a server changes state.
 */
export const MOVING_CACHE_MS = 3_000;
const MOVING_STATES: readonly string[] = ["starting", "stopping"];
/** While a page is open it asks for the state this often (the cache above bounds what the panel sees). */
export const STATUS_REFRESH_MS = 10_000;
/** A game query waits this long for the game's answer. */
export const GAME_QUERY_TIMEOUT_MS = 1_500;
/** Offline this long, a server whose customer asked for it is reported to them (once a spell). */
export const OFFLINE_NOTICE_AFTER_MS = 10 * 60_000;

export const POWER_SIGNALS = ["start", "restart", "stop", "kill"] as const;
export type PowerSignal = (typeof POWER_SIGNALS)[number];
/** Stop and kill cut the players off: the card asks first. */
export const CONFIRMED_SIGNALS: readonly PowerSignal[] = ["stop", "kill"];

export const SERVER_ACTIONS = [...POWER_SIGNALS, "reinstall", "variable", "password"] as const;
export type ServerAction = (typeof SERVER_ACTIONS)[number];
export const SERVER_ACTION_LABELS = labelKeys("services", "server.action", SERVER_ACTIONS);

export const SERVER_ACTION_STATES = ["queued", "done", "failed"] as const;
export type ServerActionState = (typeof SERVER_ACTION_STATES)[number];

/**
 * How many of each family a service may ask within `windowMs`: a power signal is cheap for us and for the
 * panel, a reinstall wipes the files, a password change mails nobody but is worth a bound too.
 */
export const SERVER_ACTION_LIMITS = {
  power: { count: 10, windowMs: 10 * 60_000 },
  reinstall: { count: 2, windowMs: 60 * 60_000 },
  variable: { count: 20, windowMs: 10 * 60_000 },
  password: { count: 5, windowMs: 60 * 60_000 },
} as const;
export type ServerActionFamily = keyof typeof SERVER_ACTION_LIMITS;

export function actionFamily(action: ServerAction): ServerActionFamily {
  if ((POWER_SIGNALS as readonly string[]).includes(action)) return "power";
  return action as Exclude<ServerAction, PowerSignal>;
}

/** Why a server refuses what is asked of it now (each a catalogue key under `services:server.refused`). */
export const SERVER_REFUSALS = [
  "notProvisioned",
  "suspended",
  "installing",
  "tooMany",
  "notEditable",
  "noClientKey",
] as const;
export type ServerRefusal = (typeof SERVER_REFUSALS)[number];
export const SERVER_REFUSAL_LABELS = labelKeys("services", "server.refused", SERVER_REFUSALS);

/**
 * Whether a power signal, a reinstall or a variable may be asked now: never while the service is
 * suspended (ours or the panel's) or the server is being installed, nor before it exists on the panel.
 */
export function serverActionRefusal(input: {
  serviceStatus: string;
  panelState: string | null;
  state: ServerState;
}): ServerRefusal | null {
  if (
    input.serviceStatus === "suspended" ||
    input.panelState === "suspended" ||
    input.state === "suspended"
  )
    return "suspended";
  if (input.panelState !== "ready")
    return input.panelState === "installing" ? "installing" : "notProvisioned";
  if (input.state === "installing") return "installing";
  return null;
}

/** Why the last read failed, for the card (each a catalogue key under `services:server.readError`). */
export const STATUS_READ_ERRORS = [
  "unreachable",
  "panelError",
  "noClientKey",
  "notFound",
  "nodeDown",
] as const;
export type StatusReadError = (typeof STATUS_READ_ERRORS)[number];
export const STATUS_READ_ERROR_LABELS = labelKeys(
  "services",
  "server.readError",
  STATUS_READ_ERRORS,
);

/** Why the game did not answer its query. */
export const PLAYERS_ERRORS = ["noAnswer", "malformed"] as const;
export type PlayersError = (typeof PLAYERS_ERRORS)[number];

/** SFTP as the panel gives it: its node's address and port, and `<panel username>.<short identifier>`. */
export interface ServerAccess {
  host: string;
  port: number;
  username: string;
}

/** An egg variable the panel lets its user see, with this server's value (the Client API's startup). */
export interface ServerVariable {
  env: string;
  name: string;
  description: string;
  value: string;
  defaultValue: string;
  rules: string;
  editable: boolean;
}

/** What a server's card shows: the last state read, with its age, and what may be asked of it now. */
export interface ServerStatusView {
  serviceId: number;
  state: ServerState;
  /** When the panel last answered (ISO), null before the first read. */
  readAt: string | null;
  /** Seconds since `readAt`, from the clock the page was read with. */
  ageSeconds: number | null;
  /** A read is queued or under way. */
  refreshing: boolean;
  readError: StatusReadError | null;
  /** Percent of one core (the panel's cpu_absolute), its limit (0: none). */
  cpuPercent: number | null;
  cpuLimitPercent: number;
  memoryMib: number | null;
  memoryLimitMib: number;
  diskMib: number | null;
  diskLimitMib: number;
  uptimeSeconds: number | null;
  players: { online: number; max: number; name: string } | null;
  playersError: PlayersError | null;
  /** The last thing asked of the server, and how it stands. */
  lastAction: {
    action: ServerAction;
    state: ServerActionState;
    at: string;
    error: string | null;
  } | null;
  /** Null when power, reinstall and variables may be asked now. */
  refusal: ServerRefusal | null;
}

/** The server's page: its card, its access, its variables, the panel's pages and the notice switch. */
export interface ServerPageView {
  service: {
    id: number;
    name: string;
    serverName: string;
    type: string | null;
    status: string;
    address: string | null;
    ports: { game: number; announce?: number; http?: number } | null;
  };
  status: ServerStatusView;
  access: ServerAccess | null;
  variables: ServerVariable[];
  /** The panel's pages for this server (opened in a new tab), null with no panel address. */
  panelLinks: { console: string; files: string; startup: string } | null;
  offlineNotice: boolean;
}

/** The panel's own pages of a server: its console, files and startup. */
export function panelLinksFor(panelUrl: string, identifier: string) {
  const base = `${panelUrl.replace(/\/+$/, "")}/server/${identifier}`;
  return { console: base, files: `${base}/files`, startup: `${base}/startup` };
}

/** A state's age, whole seconds, never negative (a clock a little behind the worker's). */
export function ageSeconds(readAt: string | null, now: Date): number | null {
  if (!readAt) return null;
  return Math.max(0, Math.floor((now.getTime() - Date.parse(readAt)) / 1000));
}

/** How long a state read as `state` holds before a page's read asks for a fresher one. */
export function cachePeriodFor(state: string | null | undefined): number {
  return state && MOVING_STATES.includes(state) ? MOVING_CACHE_MS : STATUS_CACHE_MS;
}

/** Whether a state read at `readAt` (as `state`) is old enough to be read again. */
export function statusIsStale(readAt: string | null, now: Date, state?: string | null): boolean {
  return !readAt || now.getTime() - Date.parse(readAt) >= cachePeriodFor(state);
}
