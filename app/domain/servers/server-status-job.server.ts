import { inTransaction, type Db, type Tx } from "~/db/transaction";
import { withOwner } from "~/db/customer-rows";
import { record } from "~/domain/events/events.server";
import { enqueueJob, enqueueJobs, type JobHandler, type NewJob } from "~/domain/jobs/jobs.server";
import { recordPanelCalls } from "~/domain/provisioning/panel-calls.server";
import {
  panelClientApiFor,
  PanelClientKeyMissing,
  PanelKeyNotForUrl,
  PanelKeyUnreadable,
} from "~/domain/provisioning/panel-connection.server";
import { parsePanelPlan, parsePanelPorts } from "~/domain/provisioning/panel-plan";
import { isServerStateConflict } from "~/domain/provisioning/pterodactyl-client-api.server";
import {
  PanelAddressRefused,
  PanelError,
  PanelUnreachable,
  type PanelCall,
} from "~/domain/provisioning/pterodactyl-client.server";
import { GAME_QUERY_TIMEOUT_MS, OFFLINE_NOTICE_AFTER_MS, STATUS_CACHE_MS } from "./server-control";
import type { ServerState, StatusReadError } from "./server-control";
import { SERVER_STATUS_JOB, statusJobKey } from "./server-job-types";
import type { ServerControlConfig } from "./server-jobs.server";
import { queryGame } from "./game-query.server";
import {
  conflictState,
  gameQueryTarget,
  nextOfflineSpell,
  offlineNoticeDue,
  resourceColumns,
} from "./server-readings";
import { isReadable, stateOfPanel } from "./server-status-view";

// `servers.status` (docs/server-control.md): one Client API request for a server's resources, then,
// while it runs, the game's own query for its players, into `server_status`. A read is not worth
// retrying later (the next page view asks again): every failure the panel can cause is recorded on the
// row as a STATUS_READ_ERRORS key and the job ends; the last state and when it was read stay, so the
// card shows it with its true age. The offline spell and its notice are kept here too, and
// `servers.watch` reads the servers whose customer asked for that notice when no one looks.

/** A step: one status read of the service, unless one waits or runs already (its unique key). */
export async function queueStatusRead(trx: Tx, serviceId: number, now: Date) {
  return enqueueJob(trx, statusJob(serviceId, now));
}

function statusJob(serviceId: number, now: Date): NewJob {
  // One attempt: a read that failed is recorded, and a read retried later would be stale anyway.
  return {
    type: SERVER_STATUS_JOB,
    payload: { serviceId },
    uniqueKey: statusJobKey(serviceId),
    maxAttempts: 1,
    now,
  };
}

async function loadServerService(db: Db, serviceId: number) {
  return withOwner(db, "hosting_services")
    .select([
      "hosting_services.id",
      "hosting_services.user_id",
      "hosting_services.name",
      "hosting_services.server_name",
      "hosting_services.status",
      "hosting_services.panel_state",
      "hosting_services.panel_plan",
      "hosting_services.panel_identifier",
      "hosting_services.panel_address",
      "hosting_services.panel_ports",
      "hosting_services.offline_notice",
    ])
    .where("hosting_services.id", "=", serviceId)
    .executeTakeFirst();
}
type ServerService = NonNullable<Awaited<ReturnType<typeof loadServerService>>>;

/** What the panel said of the server: its resources, a 409's state, or why it could not be read. */
type PanelReading =
  | { kind: "read"; columns: ReturnType<typeof resourceColumns> }
  | { kind: "conflict"; state: "installing" | "suspended" }
  | { kind: "failed"; error: StatusReadError };

/** A panel failure as the card's words; anything else is a bug of ours and is thrown on. */
export function statusReadError(error: unknown): StatusReadError {
  if (
    error instanceof PanelClientKeyMissing ||
    error instanceof PanelKeyNotForUrl ||
    error instanceof PanelKeyUnreadable
  )
    return "noClientKey";
  if (error instanceof PanelUnreachable) return "unreachable";
  if (error instanceof PanelAddressRefused) return "panelError";
  if (error instanceof PanelError) {
    if (error.status === 404) return "notFound";
    // The panel's words for a node (Wings) that did not answer, or answered with a failure.
    if (error.status >= 500 && error.code === "DaemonConnectionException") return "nodeDown";
    return "panelError";
  }
  throw error;
}

async function readPanel(
  db: Db,
  config: ServerControlConfig,
  service: ServerService,
  calls: PanelCall[],
): Promise<PanelReading> {
  try {
    const api = await panelClientApiFor(db, config.secret, {
      timeoutMs: config.timeoutMs,
      fetch: config.fetch,
      onCall: (call) => calls.push(call),
    });
    const resources = await api.getResources(service.panel_identifier!);
    return { kind: "read", columns: resourceColumns(resources) };
  } catch (error) {
    if (isServerStateConflict(error))
      return {
        kind: "conflict",
        state: conflictState(error instanceof PanelError ? error.detail : null, service),
      };
    return { kind: "failed", error: statusReadError(error) };
  }
}

/** The game's answer while the server runs: its name and players, or why there is none. */
async function readPlayers(config: ServerControlConfig, service: ServerService, now: Date) {
  const target = gameQueryTarget(
    parsePanelPlan(service.panel_plan)?.portLayout ?? null,
    service.panel_address,
    parsePanelPorts(service.panel_ports),
  );
  const none = {
    game_name: null,
    players_online: null,
    players_max: null,
    players_read_at: now.toISOString(),
  };
  if (!target) return { ...none, players_error: "noAnswer" };
  const answer = await queryGame({
    ...target,
    timeoutMs: config.gameQueryTimeoutMs ?? GAME_QUERY_TIMEOUT_MS,
  });
  if (!answer.ok) return { ...none, players_error: answer.error };
  return {
    game_name: answer.name,
    players_online: answer.online,
    players_max: answer.max,
    players_read_at: now.toISOString(),
    players_error: null,
  };
}

/** No players claimed: the server does not run, or its state is not known. */
const NO_PLAYERS = {
  game_name: null,
  players_online: null,
  players_max: null,
  players_error: null,
};

/** A step: `values` on the service's row, made when it has none yet. */
export async function upsertServerStatus(
  trx: Db | Tx,
  serviceId: number,
  values: Record<string, string | number | null>,
  now: Date,
) {
  const set = { ...values, updated_at: now.toISOString() };
  await trx
    .insertInto("server_status")
    .values({ hosting_service_id: serviceId, ...set })
    .onConflict((conflict) => conflict.column("hosting_service_id").doUpdateSet(set))
    .execute();
}

/**
 * The state read (or the panel's, for a server not read) with the offline spell it continues, and the
 * customer told once the spell is long enough, all in one transaction.
 */
async function writeState(
  db: Db,
  service: ServerService,
  state: ServerState,
  values: Record<string, string | number | null>,
  now: Date,
) {
  await inTransaction(db, async (trx) => {
    const before = await trx
      .selectFrom("server_status")
      .select(["offline_since", "offline_notified_at"])
      .where("hosting_service_id", "=", service.id)
      .executeTakeFirst();
    const spell = nextOfflineSpell(before ?? null, state, now);
    const due = offlineNoticeDue({
      spell,
      noticeOn: service.offline_notice === 1,
      serviceStatus: service.status,
      now,
    });
    await upsertServerStatus(
      trx,
      service.id,
      {
        ...values,
        state,
        ...spell,
        ...(due ? { offline_notified_at: now.toISOString() } : {}),
      },
      now,
    );
    if (due)
      await record(
        trx,
        {
          type: "server.offlineNoticed",
          service: {
            id: service.id,
            userId: service.user_id,
            name: service.name,
            serverName: service.server_name,
          },
          offlineSince: spell.offline_since!,
          minutes: OFFLINE_NOTICE_AFTER_MS / 60_000,
        },
        now,
      );
  });
}

/** The job's work on one service: what its counts say (read, conflict, failed, unread, gone). */
export async function runStatusRead(
  db: Db,
  config: ServerControlConfig,
  serviceId: number,
  now: Date,
  jobId: number | null = null,
): Promise<Record<string, number>> {
  const service = await loadServerService(db, serviceId);
  if (!service) return { gone: 1 };
  if (!isReadable(service)) {
    // Not ready on the panel: no request, its state is the panel state's.
    await writeState(db, service, stateOfPanel(service.panel_state), NO_PLAYERS, now);
    return { unread: 1 };
  }
  const calls: PanelCall[] = [];
  let reading: PanelReading;
  try {
    reading = await readPanel(db, config, service, calls);
  } finally {
    // Only what failed is kept in the service's call log: a read every 30 s of a watched server would
    // bury the calls of its actions (docs/server-control.md).
    await recordPanelCalls(
      db,
      calls.filter((call) => call.errorCode !== null),
      { serviceId, jobId, now },
    );
  }
  if (reading.kind === "failed") {
    // The last state and when it was read stay: the card shows them with their age and the reason.
    await upsertServerStatus(db, serviceId, { read_error: reading.error }, now);
    return { failed: 1 };
  }
  const read = { read_at: now.toISOString(), read_error: null };
  if (reading.kind === "conflict") {
    await writeState(
      db,
      service,
      reading.state,
      {
        ...read,
        ...NO_PLAYERS,
        cpu_tenths: null,
        memory_mib: null,
        disk_mib: null,
        uptime_seconds: null,
      },
      now,
    );
    return { conflict: 1 };
  }
  const { state, ...figures } = reading.columns;
  // The players only of a running server (the query is bounded in time and never retried).
  const players = state === "running" ? await readPlayers(config, service, now) : NO_PLAYERS;
  await writeState(db, service, state, { ...read, ...figures, ...players }, now);
  return { read: 1 };
}

export function statusHandler(config: ServerControlConfig): JobHandler {
  return async ({ db, now, payload, job }) =>
    runStatusRead(db, config, (payload as { serviceId: number }).serviceId, now, Number(job.id));
}

/**
 * `servers.watch`: a status read of each server whose customer asked for the offline notice and whose
 * state is stale, so a server no one looks at is still seen going offline.
 */
export const watchHandler: JobHandler = async ({ db, now }) => {
  const staleBefore = new Date(now.getTime() - STATUS_CACHE_MS).toISOString();
  const rows = await db
    .selectFrom("hosting_services")
    .leftJoin("server_status", "server_status.hosting_service_id", "hosting_services.id")
    .select("hosting_services.id")
    .where("hosting_services.offline_notice", "=", 1)
    .where("hosting_services.status", "=", "active")
    .where("hosting_services.panel_state", "=", "ready")
    .where("hosting_services.panel_identifier", "is not", null)
    .where((eb) =>
      eb.or([
        eb("server_status.read_at", "is", null),
        eb("server_status.read_at", "<=", staleBefore),
      ]),
    )
    .execute();
  const queued = await inTransaction(db, (trx) =>
    enqueueJobs(
      trx,
      rows.map((row) => statusJob(Number(row.id), now)),
    ),
  );
  return { watched: rows.length, queued };
};
