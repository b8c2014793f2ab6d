import type { Db } from "~/db/transaction";
import type { PanelCallView } from "./panel-plan";
import type { PanelCall } from "./pterodactyl-client.server";

// Every call made to the panel, kept for admins: method, path, status, duration and the
// panel's error code. Never the key nor a body: what a call carried stays on the panel.

/** How many calls a service's log shows. */
export const PANEL_CALLS_SHOWN = 50;
/** Calls older than this are deleted by the reconciliation (the log is for recent trouble). */
export const PANEL_CALLS_KEPT_DAYS = 90;

export async function recordPanelCalls(
  db: Db,
  calls: readonly PanelCall[],
  context: { serviceId: number | null; jobId: number | null; now?: Date },
): Promise<void> {
  if (calls.length === 0) return;
  const at = (context.now ?? new Date()).toISOString();
  await db
    .insertInto("panel_calls")
    .values(
      calls.map((call) => ({
        hosting_service_id: context.serviceId,
        job_id: context.jobId,
        method: call.method,
        path: call.path.slice(0, 500),
        status: call.status,
        duration_ms: Math.max(0, Math.round(call.durationMs)),
        error_code: call.errorCode?.slice(0, 200) ?? null,
        created_at: at,
      })),
    )
    .execute();
}

export async function listPanelCalls(db: Db, serviceId: number): Promise<PanelCallView[]> {
  const rows = await db
    .selectFrom("panel_calls")
    .select(["id", "method", "path", "status", "duration_ms", "error_code", "created_at"])
    .where("hosting_service_id", "=", serviceId)
    .orderBy("id", "desc")
    .limit(PANEL_CALLS_SHOWN)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    method: row.method,
    path: row.path,
    status: row.status === null ? null : Number(row.status),
    durationMs: Number(row.duration_ms),
    errorCode: row.error_code,
    at: row.created_at,
  }));
}
