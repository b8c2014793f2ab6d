import type { Db } from "~/db/transaction";
import { RetryLater, type JobHandler } from "~/domain/jobs/jobs.server";
import {
  failureText,
  isLastAttempt,
  loadService,
  ProvisioningFailure,
  withPanel,
  type ProvisioningConfig,
} from "./panel-job-kit.server";
import { parsePanelPlan, type PanelPlan } from "./panel-plan";
import { nodeHasRoom } from "./placement";
import { PanelError, type PanelClient } from "./pterodactyl-client.server";

// A server taking its service's new plan after a change of plan (docs/self-service.md): the room on its
// node looked at first (as a placement does), then its build changed on the panel, its allocations kept
// as they are (an MTA server keeps its three ports). Idempotent: a build already at the plan's limits
// is left alone, so a retry or a second change queued behind it ends at the service's plan as it is.

/** How soon a resize looks again at a server still being made (its create takes the new plan itself). */
const NOT_MADE_YET_MS = 30_000;

export interface ResizePayload {
  serviceId: number;
  planChangeId?: number;
}

/** The states of a service whose server is still being made: its create or install job runs. */
const BEING_MADE = ["pending", "creating", "installing"];

/** Whether the server already has the plan's build (nothing to send). */
function sameBuild(
  server: { limits: PanelPlan["limits"]; featureLimits: PanelPlan["featureLimits"] },
  plan: Pick<PanelPlan, "limits" | "featureLimits">,
): boolean {
  const limits = Object.entries(plan.limits) as [keyof PanelPlan["limits"], number][];
  const features = Object.entries(plan.featureLimits) as [
    keyof PanelPlan["featureLimits"],
    number,
  ][];
  return (
    limits.every(([name, value]) => server.limits[name] === value) &&
    features.every(([name, value]) => server.featureLimits[name] === value)
  );
}

/**
 * The resize on the panel: the server as it is, the room its node has for what the plan adds (memory
 * and disk; a plan that takes less always fits), then `PATCH /servers/{id}/build` with the plan's
 * limits and the server's own default allocation, no allocation added or removed, and an allocation
 * limit never below what the server holds.
 */
async function resizeOnPanel(
  client: PanelClient,
  serverId: number,
  plan: PanelPlan,
): Promise<"resized" | "unchanged"> {
  let server;
  try {
    server = await client.getServerWithAllocations(serverId);
  } catch (error) {
    if (error instanceof PanelError && error.status === 404)
      throw new ProvisioningFailure("provisioning.failures.missingOnPanel");
    throw error;
  }
  const build = {
    limits: plan.limits,
    featureLimits: {
      ...plan.featureLimits,
      allocations: Math.max(plan.featureLimits.allocations, server.allocations.length),
    },
  };
  if (sameBuild(server, build)) return "unchanged";
  const needs = {
    memoryMb: Math.max(0, plan.limits.memory - server.limits.memory),
    diskMb: Math.max(0, plan.limits.disk - server.limits.disk),
  };
  if (needs.memoryMb > 0 || needs.diskMb > 0) {
    const node = (await client.listNodes()).find((candidate) => candidate.id === server.nodeId);
    if (!node || !nodeHasRoom(node, needs))
      throw new ProvisioningFailure(
        "provisioning.failures.resizeNoRoom",
        node ? `node ${node.id}: ${needs.memoryMb} MB memory, ${needs.diskMb} MB disk more` : null,
      );
  }
  await client.updateBuild(server.id, {
    allocationId: server.allocationId,
    limits: build.limits,
    featureLimits: build.featureLimits,
  });
  return "resized";
}

/** The changes of a service waiting for this resize (this one and any queued before it) end `state`. */
async function markChanges(
  db: Db,
  serviceId: number,
  planChangeId: number | undefined,
  state: "done" | "failed" | "none",
  now: Date,
) {
  let query = db
    .updateTable("plan_changes")
    .set({ resize_state: state, updated_at: now.toISOString() })
    .where("hosting_service_id", "=", serviceId)
    .where("resize_state", "=", "queued");
  if (planChangeId !== undefined) query = query.where("id", "<=", planChangeId);
  await query.execute();
}

/**
 * After a change of plan: the service's server takes the plan's build. A node without room for it
 * fails the job for good (staff see the dead job, and the reason on the service's panel page: they
 * make room, then retry it from /admin/automation); the customer keeps the plan they paid for.
 */
export function resizeHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job }): Promise<Record<string, number>> => {
    const { serviceId, planChangeId } = payload as ResizePayload;
    const service = await loadService(db, serviceId);
    if (
      !service ||
      service.status === "terminated" ||
      service.panel_server_id === null ||
      service.panel_state === "deleted" ||
      service.panel_state === null
    ) {
      // No server to resize (gone, or never made: a retried create makes it on the new plan).
      if (service) await markChanges(db, serviceId, planChangeId, "none", now);
      return { skipped: 1 };
    }
    if (BEING_MADE.includes(service.panel_state))
      throw new RetryLater(
        new Date(now.getTime() + NOT_MADE_YET_MS),
        "The server is still being made: its create or install job runs",
      );
    try {
      const plan = parsePanelPlan(service.panel_plan);
      if (!plan) throw new ProvisioningFailure("provisioning.failures.noPlan");
      const outcome = await withPanel(db, config, { serviceId, job, now }, (client) =>
        resizeOnPanel(client, Number(service.panel_server_id), plan),
      );
      await db
        .updateTable("hosting_services")
        .set({ panel_error: null, panel_updated_at: now.toISOString() })
        .where("id", "=", serviceId)
        .execute();
      await markChanges(db, serviceId, planChangeId, "done", now);
      return { [outcome]: 1 };
    } catch (error) {
      if (!(error instanceof RetryLater)) {
        // The reason on the service's panel page; its state stays (the server runs as it was).
        await db
          .updateTable("hosting_services")
          .set({
            panel_error: failureText(error).slice(0, 1000),
            panel_updated_at: now.toISOString(),
          })
          .where("id", "=", serviceId)
          .execute();
        if (isLastAttempt(job, error))
          await markChanges(db, serviceId, planChangeId, "failed", now);
      }
      throw error;
    }
  };
}
