import { inTransaction } from "~/db/transaction";
import type { JobHandler } from "~/domain/jobs/jobs.server";
import { recordPanelCalls } from "./panel-calls.server";
import { panelClientFor, runPanelCheck } from "./panel-connection.server";
import { withPanel, type ProvisioningConfig } from "./panel-job-kit.server";
import { serviceIdOfExternal } from "./panel-plan";
import type { PanelCall, PanelServer } from "./pterodactyl-client.server";

// What the panel has, looked at on a schedule: the nightly comparison with our services (drift), and the
// connection's check with the refresh of its nodes' use and its eggs.

/**
 * The nightly comparison of our services with the panel's servers (by external id). It reports drift
 * (a server missing, one the panel has and we do not, a suspension on one side only) and changes nothing.
 */
export function reconcileHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, job }): Promise<Record<string, number>> => {
    const found = await panelClientFor(db, { secret: config.secret }).catch(() => null);
    if (!found) return { skipped: 1 };
    const servers = await withPanel(db, config, { serviceId: null, job, now }, (client) =>
      client.listServers(),
    );
    const ours = await db
      .selectFrom("hosting_services")
      .select(["id", "status", "panel_state", "panel_server_id"])
      .where("panel_state", "in", ["ready", "suspended", "installing"])
      .execute();
    const byExternal = new Map<number, PanelServer>();
    for (const server of servers) {
      const id = serviceIdOfExternal(server.externalId);
      if (id !== null) byExternal.set(id, server);
    }
    const known = new Set(ours.map((service) => Number(service.id)));
    const drift: { kind: string; serviceId: number | null; serverId: number | null }[] = [];
    for (const service of ours) {
      const server = byExternal.get(Number(service.id));
      if (!server) {
        drift.push({ kind: "missing", serviceId: Number(service.id), serverId: null });
        continue;
      }
      if (service.status === "suspended" && !server.suspended)
        drift.push({ kind: "suspended_here", serviceId: Number(service.id), serverId: server.id });
      if (service.status === "active" && server.suspended)
        drift.push({ kind: "suspended_there", serviceId: Number(service.id), serverId: server.id });
    }
    for (const [serviceId, server] of byExternal)
      if (!known.has(serviceId)) drift.push({ kind: "extra", serviceId, serverId: server.id });
    const at = now.toISOString();
    await inTransaction(db, async (trx) => {
      await trx.deleteFrom("panel_drift").execute();
      if (drift.length > 0)
        await trx
          .insertInto("panel_drift")
          .values(
            drift.map((item) => ({
              kind: item.kind,
              hosting_service_id: item.serviceId,
              panel_server_id: item.serverId,
              detail: "",
              found_at: at,
            })),
          )
          .execute();
      const cutoff = new Date(now.getTime() - 90 * 86_400_000).toISOString();
      await trx.deleteFrom("panel_calls").where("created_at", "<", cutoff).execute();
    });
    return { servers: servers.length, services: ours.length, drift: drift.length };
  };
}

/** "Check connection", and the hourly refresh of what the panel has (its nodes' use, its eggs). */
export function checkHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, job }): Promise<Record<string, number>> => {
    const calls: PanelCall[] = [];
    try {
      const { ok, connected } = await runPanelCheck(
        db,
        {
          secret: config.secret,
          timeoutMs: config.timeoutMs,
          fetch: config.fetch,
          onCall: (call) => calls.push(call),
          // As the other jobs: one failed page of eggs is no reason to tell the admin the check failed.
          retryReads: true,
        },
        now,
      );
      if (!connected) return { skipped: 1 };
      return ok ? { checked: 1 } : { failed: 1 };
    } finally {
      await recordPanelCalls(db, calls, { serviceId: null, jobId: Number(job.id), now });
    }
  };
}
