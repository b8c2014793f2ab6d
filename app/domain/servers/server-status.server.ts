import { inTransaction, type Db } from "~/db/transaction";
import { PENDING_STATES } from "~/domain/jobs/jobs";
import type { ServerPageView, ServerStatusView } from "./server-control";
import { cachePeriodFor, statusIsStale } from "./server-control";
import { queueServerDetails } from "./server-details-job.server";
import { statusJobKey } from "./server-job-types";
import { queueStatusRead } from "./server-status-job.server";
import {
  buildPageView,
  buildStatusView,
  hasPanelServer,
  isReadable,
  type ServerServiceRow,
  type ServerStatusRow,
} from "./server-status-view";

// The cached state of a customer's server and its page (docs/server-control.md): read from
// `server_status`, never from the panel; a state older than its cache period (30 s;
// 3 s while the server starts or stops) queues one refresh job.
// However many read it, one of them asks (`requested_at`, set in one short transaction with the job),
// the others find the question asked and write nothing: a period costs one job and one panel request.

export interface ServerReadInput {
  serviceId: number;
  /** The customer asking (only their own service), or null for staff (any service). */
  userId: string | null;
  /** The connected panel's address (for its pages' links), null when none is connected. */
  panelUrl: string | null;
  now?: Date;
  /**
   * Read the cached state as it is, never asking for a fresh one (a member of the staff viewing the site
   * as the customer: the view writes nothing).
   */
  readOnly?: boolean;
}

/** The service and its cached state, with whether a read is queued or running; null: not theirs. */
async function loadServer(db: Db, serviceId: number, userId: string | null) {
  let query = db
    .selectFrom("hosting_services")
    .leftJoin("server_status", "server_status.hosting_service_id", "hosting_services.id")
    .select((eb) => [
      "hosting_services.id",
      "hosting_services.name",
      "hosting_services.server_name",
      "hosting_services.type",
      "hosting_services.status",
      "hosting_services.panel_state",
      "hosting_services.panel_plan",
      "hosting_services.panel_identifier",
      "hosting_services.panel_address",
      "hosting_services.panel_ports",
      "hosting_services.offline_notice",
      "server_status.state",
      "server_status.cpu_tenths",
      "server_status.memory_mib",
      "server_status.disk_mib",
      "server_status.uptime_seconds",
      "server_status.read_at",
      "server_status.read_error",
      "server_status.requested_at",
      "server_status.game_name",
      "server_status.players_online",
      "server_status.players_max",
      "server_status.players_error",
      "server_status.access",
      "server_status.variables",
      eb
        .exists(
          eb
            .selectFrom("jobs")
            .select("jobs.id")
            .where("jobs.unique_key", "=", statusJobKey(serviceId))
            .where("jobs.state", "in", PENDING_STATES),
        )
        .as("refreshing"),
    ])
    .where("hosting_services.id", "=", serviceId);
  // Another customer's service reads as a missing one: whether it exists is never told.
  if (userId !== null) query = query.where("hosting_services.user_id", "=", userId);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const service: ServerServiceRow = {
    id: Number(row.id),
    name: row.name,
    server_name: row.server_name,
    type: row.type,
    status: row.status,
    panel_state: row.panel_state,
    panel_plan: row.panel_plan,
    panel_identifier: row.panel_identifier,
    panel_address: row.panel_address,
    panel_ports: row.panel_ports,
    offline_notice: Number(row.offline_notice),
  };
  if (!hasPanelServer(service)) return null;
  const status: ServerStatusRow | null =
    row.state === null
      ? null
      : {
          state: row.state,
          cpu_tenths: numberOrNull(row.cpu_tenths),
          memory_mib: numberOrNull(row.memory_mib),
          disk_mib: numberOrNull(row.disk_mib),
          uptime_seconds: numberOrNull(row.uptime_seconds),
          read_at: row.read_at,
          read_error: row.read_error,
          game_name: row.game_name,
          players_online: numberOrNull(row.players_online),
          players_max: numberOrNull(row.players_max),
          players_error: row.players_error,
          access: row.access,
          variables: row.variables,
        };
  return {
    service,
    status,
    requestedAt: row.requested_at,
    refreshing: Boolean(row.refreshing),
  };
}

const numberOrNull = (value: number | string | null) => (value === null ? null : Number(value));

/** The latest thing asked of the server, as the card shows it. */
async function lastActionOf(db: Db, serviceId: number) {
  const row = await db
    .selectFrom("server_actions")
    .select(["action", "state", "error", "created_at"])
    .where("hosting_service_id", "=", serviceId)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  return row ?? null;
}

/**
 * When the state is stale (or, for the page, the access or the variables are missing) and no one asked
 * within the cache period, this read asks: `requested_at` set (only if still unasked: of many readers
 * at once, one wins) and the status job queued, with the details job when they are missing, in one
 * short transaction. Otherwise nothing is written. Says whether a read is now under way.
 */
async function refreshIfStale(
  db: Db,
  loaded: NonNullable<Awaited<ReturnType<typeof loadServer>>>,
  now: Date,
  forPage: boolean,
): Promise<boolean> {
  const { service, status } = loaded;
  if (!isReadable(service)) return loaded.refreshing;
  const detailsMissing = forPage && (!status?.access || !status.variables);
  if (!statusIsStale(status?.read_at ?? null, now, status?.state) && !detailsMissing)
    return loaded.refreshing;
  const askedBefore = new Date(now.getTime() - cachePeriodFor(status?.state)).toISOString();
  if (loaded.requestedAt !== null && loaded.requestedAt > askedBefore) return loaded.refreshing;
  const at = now.toISOString();
  return inTransaction(db, async (trx) => {
    const inserted = await trx
      .insertInto("server_status")
      .values({ hosting_service_id: service.id, requested_at: at, updated_at: at })
      .onConflict((conflict) => conflict.column("hosting_service_id").doNothing())
      .returning("hosting_service_id")
      .executeTakeFirst();
    const claimed =
      inserted !== undefined ||
      Number(
        (
          await trx
            .updateTable("server_status")
            .set({ requested_at: at })
            .where("hosting_service_id", "=", service.id)
            .where((eb) =>
              eb.or([eb("requested_at", "is", null), eb("requested_at", "<=", askedBefore)]),
            )
            .executeTakeFirst()
        ).numUpdatedRows,
      ) === 1;
    // Another reader asked meanwhile: its job is queued (or about to be).
    if (!claimed) return true;
    // The state too, even when fresh: one claim a period bounds what the panel sees either way.
    await queueStatusRead(trx, service.id, now);
    if (detailsMissing) await queueServerDetails(trx, service.id, now);
    return true;
  });
}

/** The server's page, or null when the service is not this customer's or has no server on the panel. */
export async function readServerPage(
  db: Db,
  input: ServerReadInput,
): Promise<ServerPageView | null> {
  const now = input.now ?? new Date();
  const loaded = await loadServer(db, input.serviceId, input.userId);
  if (!loaded) return null;
  const refreshing = input.readOnly
    ? loaded.refreshing
    : await refreshIfStale(db, loaded, now, true);
  return buildPageView({
    service: loaded.service,
    status: loaded.status,
    lastAction: await lastActionOf(db, input.serviceId),
    refreshing,
    panelUrl: input.panelUrl,
    now,
  });
}

/** The card's state alone (the page's refresh while open), or null as above. */
export async function readServerStatus(
  db: Db,
  input: Omit<ServerReadInput, "panelUrl">,
): Promise<ServerStatusView | null> {
  const now = input.now ?? new Date();
  const loaded = await loadServer(db, input.serviceId, input.userId);
  if (!loaded) return null;
  const refreshing = input.readOnly
    ? loaded.refreshing
    : await refreshIfStale(db, loaded, now, false);
  return buildStatusView({
    service: loaded.service,
    status: loaded.status,
    lastAction: await lastActionOf(db, input.serviceId),
    refreshing,
    now,
  });
}

export type OfflineNoticeResult =
  { ok: true } | { ok: false; kind: "notFound"; error: "services.errors.notFound" };

/** The customer's "tell me when my server has been offline for 10 minutes" switch. */
export async function setOfflineNotice(
  db: Db,
  // `now` is kept for the callers' sake (the switch records no moment).
  input: { serviceId: number; userId: string; on: boolean; now?: Date },
): Promise<OfflineNoticeResult> {
  const updated = await db
    .updateTable("hosting_services")
    .set({ offline_notice: input.on ? 1 : 0 })
    .where("id", "=", input.serviceId)
    .where("user_id", "=", input.userId)
    // Only a server on the panel has a state to watch.
    .where("panel_state", "is not", null)
    .where("panel_state", "!=", "deleted")
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0)
    return { ok: false, kind: "notFound", error: "services.errors.notFound" };
  return { ok: true };
}
