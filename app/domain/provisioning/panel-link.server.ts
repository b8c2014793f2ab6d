import type { Tx } from "~/db/transaction";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { PANEL_SYNC_JOB } from "./panel-job-types";

// Where a service stands on the game panel, and the step that makes the panel follow its status: what
// the use-cases of other areas and the events' reactions call (no panel call here, a job queued).

/**
 * A step after any change of a service's status (suspension, reactivation, termination, deletion):
 * the panel follows through a sync job. A service no panel knows queues nothing.
 */
export async function queuePanelSync(trx: Tx, service: PanelLink, now = new Date()): Promise<void> {
  if (!service.panelState || service.panelState === "deleted") return;
  await enqueueJob(trx, {
    type: PANEL_SYNC_JOB,
    payload: { serviceId: service.id, panelServerId: service.panelServerId },
    maxAttempts: 8,
    now,
  });
}

/** Where a service stands on the game panel: what its sync job (`queuePanelSync`) needs. */
export interface PanelLink {
  id: number;
  panelState: string | null;
  panelServerId: number | null;
}

/** Reads what queuePanelSync needs, for the use-cases that do not hold it already. */
export async function panelLinkOf(trx: Tx, serviceId: number): Promise<PanelLink> {
  const row = await trx
    .selectFrom("hosting_services")
    .select(["panel_state", "panel_server_id"])
    .where("id", "=", serviceId)
    .executeTakeFirst();
  return {
    id: serviceId,
    panelState: row?.panel_state ?? null,
    panelServerId: row?.panel_server_id === null || !row ? null : Number(row.panel_server_id),
  };
}
