import { inTransaction } from "~/db/transaction";
import type { JobHandler } from "~/domain/jobs/jobs.server";
import { addressOf } from "./panel-create-job.server";
import {
  getOrNull,
  loadService,
  noteFailure,
  notingFailure,
  ProvisioningFailure,
  releaseClaims,
  setPanelState,
  withPanel,
  type ProvisioningConfig,
  type ServicePayload,
} from "./panel-job-kit.server";
import { parsePanelPlan, serviceExternalId } from "./panel-plan";
import { isDeletedUser, queuePanelUserSync } from "./panel-user-job.server";
import type { PanelClient, PanelServer } from "./pterodactyl-client.server";

// A server following its service: suspended, unsuspended or deleted as the service's status says
// (sync), or a server that exists on the panel attached to the service by an admin (relink).

/**
 * Brings the panel's server to what the service's status says: active → running, suspended → suspended,
 * terminated or deleted → force-deleted. Idempotent and order-free, so a suspension, a reactivation and a
 * termination queued close together end where the last one says.
 */
export function syncHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job }): Promise<Record<string, number>> => {
    const { serviceId, panelServerId } = payload as ServicePayload & { panelServerId?: number };
    const service = await loadService(db, serviceId);
    const serverId = service ? service.panel_server_id : (panelServerId ?? null);
    if (service && ["pending", "creating", "installing"].includes(service.panel_state ?? ""))
      return { notYet: 1 }; // the create and install jobs end with a sync of their own
    const desired = !service || service.status === "terminated" ? "deleted" : service.status;
    try {
      const outcome = await withPanel(db, config, { serviceId, job, now }, async (client) => {
        const server =
          serverId !== null
            ? await getOrNull(client, Number(serverId))
            : await client.findServerByExternalId(serviceExternalId(serviceId));
        if (!server) return desired === "deleted" ? "deleted" : "missing";
        if (desired === "deleted") {
          await client.deleteServer(server.id);
          return "deleted";
        }
        if (desired === "suspended") {
          if (!server.suspended) await client.suspendServer(server.id);
          return "suspended";
        }
        if (server.suspended) await client.unsuspendServer(server.id);
        return "ready";
      });
      if (outcome === "deleted") {
        await releaseClaims(db, serviceId);
        // The customer's account was deleted: their panel user goes once their last server has.
        if (service && (await isDeletedUser(db, service.user_id)))
          await inTransaction(db, (trx) => queuePanelUserSync(trx, service.user_id, now));
      }
      if (service) {
        if (outcome === "missing")
          throw new ProvisioningFailure("provisioning.failures.missingOnPanel");
        await setPanelState(db, serviceId, { state: outcome, error: null }, now);
      }
      return { [outcome]: 1 };
    } catch (error) {
      if (service) await noteFailure(db, serviceId, job, error, now);
      throw error;
    }
  };
}

/** The panel's identifier of a server: the first 8 characters of its uuid (`uuidShort`). */
const IDENTIFIER_LENGTH = 8;

/**
 * The server an admin named by its id, identifier or uuid. One identifier in 43 is all digits, and
 * could be read as another server's id: eight characters are looked up as an identifier first, and as
 * an id only when no server has that identifier.
 */
async function namedServer(client: PanelClient, wanted: string): Promise<PanelServer | null> {
  const digits = /^\d+$/.test(wanted);
  if (digits && wanted.length !== IDENTIFIER_LENGTH) return getOrNull(client, Number(wanted));
  const listed = (await client.listServers()).find(
    (candidate) => candidate.identifier === wanted || candidate.uuid === wanted,
  );
  if (listed) return listed;
  return digits ? getOrNull(client, Number(wanted)) : null;
}

/** Re-link: attach an existing panel server (by its id, identifier or uuid) to the service. */
export function relinkHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job }): Promise<Record<string, number>> => {
    const { serviceId, server: wanted } = payload as ServicePayload & { server: string };
    const service = await loadService(db, serviceId);
    if (!service) return { skipped: 1 };
    return notingFailure(db, serviceId, job, now, async () => {
      const plan = parsePanelPlan(service.panel_plan);
      const found = await withPanel(db, config, { serviceId, job, now }, async (client) => {
        const named = await namedServer(client, wanted);
        if (!named) throw new ProvisioningFailure("provisioning.failures.relinkNotFound", wanted);
        const server = await client.getServerWithAllocations(named.id);
        return { server, where: addressOf(server, plan?.portLayout ?? "single") };
      });
      await setPanelState(
        db,
        serviceId,
        {
          state: found.server.suspended ? "suspended" : "ready",
          error: null,
          serverId: found.server.id,
          identifier: found.server.identifier,
          nodeId: found.server.nodeId,
          address: found.where?.address ?? null,
          ports: found.where?.ports ?? null,
        },
        now,
      );
      return { relinked: 1 };
    });
  };
}
