import type { PanelPorts } from "~/domain/provisioning/panel-plan";
import { OFFLINE_NOTICE_AFTER_MS, type ServerState } from "./server-control";

// What the status job makes of its answers (docs/server-control.md): the panel's resources as the
// columns of `server_status`, a 409 as a state, where the game answers its query, and the offline spell
// that the notice counts from. Pure: the job (server-status-job.server.ts) asks, these say what it means.

/** The panel's resources as the job reads them (PanelResources of the Client API's client). */
export interface ResourcesReading {
  state: "offline" | "starting" | "running" | "stopping";
  suspended: boolean;
  cpuAbsolute: number;
  memoryBytes: number;
  diskBytes: number;
  uptimeMs: number;
}

const MIB = 1024 * 1024;
const whole = (value: number) => (Number.isFinite(value) ? Math.max(0, Math.round(value)) : 0);

/**
 * The columns of a good read: the power state (a suspended server says so whatever its power state),
 * CPU in tenths of a percent of one core, memory and disk in MiB, uptime in seconds.
 */
export function resourceColumns(resources: ResourcesReading) {
  return {
    state: (resources.suspended ? "suspended" : resources.state) as ServerState,
    cpu_tenths: whole(resources.cpuAbsolute * 10),
    memory_mib: whole(resources.memoryBytes / MIB),
    disk_mib: whole(resources.diskBytes / MIB),
    uptime_seconds: Math.floor(whole(resources.uptimeMs) / 1000),
  };
}

/**
 * What a 409 of the panel means: the server is suspended, or not installed yet. Its words say which
 * (ServerStateConflictException: "…currently suspended…", "…not yet completed its installation…");
 * otherwise (a node in maintenance, a transfer, a backup being restored: words that may change) our
 * side decides: suspended when the service is, else the server is being worked on, which the card
 * shows as installing (nothing may be asked of it until it is done).
 */
export function conflictState(
  detail: string | null,
  service: { status: string; panel_state: string | null },
): "installing" | "suspended" {
  const words = (detail ?? "").toLowerCase();
  if (words.includes("suspended")) return "suspended";
  if (words.includes("installation")) return "installing";
  return service.status === "suspended" || service.panel_state === "suspended"
    ? "suspended"
    : "installing";
}

/** Where the game answers its query: SA-MP's on the game port, MTA's ASE on the game port + 123. */
export interface GameQueryTarget {
  kind: "samp" | "mta";
  host: string;
  port: number;
}

/**
 * The query of a server by its plan's port layout (`single`: SA-MP, `mta`: MTA) at its recorded address
 * ("ip:port") and game port; null when either is missing. The host is the address's (the alias the
 * panel gives, or its IP; an IPv6 one may be in brackets).
 */
export function gameQueryTarget(
  portLayout: "single" | "mta" | null,
  address: string | null,
  ports: PanelPorts | null,
): GameQueryTarget | null {
  if (!portLayout || !address) return null;
  const at = address.lastIndexOf(":");
  if (at <= 0) return null;
  const host = address.slice(0, at).replace(/^\[(.*)\]$/, "$1");
  const port = ports?.game ?? Number(address.slice(at + 1));
  if (!host || !Number.isInteger(port) || port <= 0 || port > 65535) return null;
  return { kind: portLayout === "mta" ? "mta" : "samp", host, port };
}

/** Since when a server has been seen offline, and whether its customer was told in this spell. */
export interface OfflineSpell {
  offline_since: string | null;
  offline_notified_at: string | null;
}

/**
 * The spell after a good read: it starts at the first read that finds the server offline and ends at
 * the first that does not (a new spell may then be told again). A failed read changes nothing: the job
 * does not call this then.
 */
export function nextOfflineSpell(before: OfflineSpell | null, state: ServerState, now: Date) {
  if (state !== "offline") return { offline_since: null, offline_notified_at: null };
  return {
    offline_since: before?.offline_since ?? now.toISOString(),
    offline_notified_at: before?.offline_since ? before.offline_notified_at : null,
  };
}

/**
 * Whether the customer is told now: they asked for it, the service is active, and the server has been
 * offline for OFFLINE_NOTICE_AFTER_MS without being told in this spell.
 */
export function offlineNoticeDue(input: {
  spell: OfflineSpell;
  noticeOn: boolean;
  serviceStatus: string;
  now: Date;
}): boolean {
  const since = input.spell.offline_since;
  return (
    input.noticeOn &&
    input.serviceStatus === "active" &&
    since !== null &&
    input.spell.offline_notified_at === null &&
    input.now.getTime() - Date.parse(since) >= OFFLINE_NOTICE_AFTER_MS
  );
}
