import { randomInt } from "node:crypto";
import { inTransaction, type Db } from "~/db/transaction";
import { RetryLater, type JobHandler } from "~/domain/jobs/jobs.server";
import { installStarted } from "./panel-install-job.server";
import {
  loadService,
  notingFailure,
  ProvisioningFailure,
  releaseClaims,
  setPanelState,
  withPanel,
  type ProvisioningConfig,
  type Service,
  type ServicePayload,
} from "./panel-job-kit.server";
import { parsePanelPlan, serviceExternalId, type PanelPlan, type PanelPorts } from "./panel-plan";
import { ensurePanelUser } from "./panel-user-job.server";
import {
  generatedEnvironment,
  mtaEnvironment,
  nodeHasRoom,
  pickAcrossNodes,
  type Placement,
  type PlacementFailure,
} from "./provisioning";
import {
  isRetryablePanelFailure,
  PanelError,
  type PanelAllocation,
  type PanelClient,
  type PanelNode,
  type PanelServer,
  type PanelServerWithAllocations,
} from "./pterodactyl-client.server";

// Making a service's server on the panel: its user, a node with room and free ports (claimed against
// the other jobs running side by side), and the create call, looked for again before it is made twice.

/** The name a player connects to: the allocation's alias where the panel gives one, else its IP. */
function hostOf(allocation: PanelAllocation): string {
  return allocation.alias ?? allocation.ip;
}

/**
 * Where a server answers, from the allocations it holds: the game port first, then MTA's two others.
 * Its own, read with the server: the node's listing marks every server's ports as assigned alike.
 */
export function addressOf(
  server: PanelServerWithAllocations,
  layout: PanelPlan["portLayout"],
): { address: string; ports: PanelPorts } | null {
  const main = server.allocations.find((allocation) => allocation.id === server.allocationId);
  if (!main) return null;
  const ports: PanelPorts = { game: main.port };
  if (layout === "mta") {
    const others = server.allocations.filter(
      (allocation) => allocation.ip === main.ip && allocation.id !== main.id,
    );
    const announce = others.find((allocation) => allocation.port === main.port + 123);
    const http = others.find((allocation) => allocation !== announce);
    if (announce) ports.announce = announce.port;
    if (http) ports.http = http.port;
  }
  return { address: `${hostOf(main)}:${main.port}`, ports };
}

/** Claims the picked allocations; false when another job took one of them first. */
async function claimAllocations(
  db: Db,
  serviceId: number,
  nodeId: number,
  ids: readonly number[],
  now: Date,
): Promise<boolean> {
  try {
    await inTransaction(db, async (trx) => {
      await trx
        .insertInto("panel_port_claims")
        .values(
          ids.map((id) => ({
            allocation_id: id,
            node_id: nodeId,
            hosting_service_id: serviceId,
            created_at: now.toISOString(),
          })),
        )
        .execute();
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  const text =
    error instanceof Error ? `${error.message} ${(error as { code?: string }).code}` : "";
  return /UNIQUE constraint failed|SQLITE_CONSTRAINT|23505|duplicate key/.test(text);
}

/** Why no node could take the server, as the service's failure says it. */
const PLACEMENT_FAILURE_KEYS = {
  noNodeInLocation: "provisioning.failures.noNodeInLocation",
  noRoom: "provisioning.failures.noRoom",
  noPorts: "provisioning.failures.noPorts",
} as const satisfies Record<PlacementFailure, string>;

/** Fresh listings from the panel when it refuses a picked port as taken (someone used it by hand). */
const PICK_ROUNDS = 4;
/**
 * Picks from one listing when another job claimed a picked port first. Every job picks the lowest free
 * set, so jobs running side by side meet on the same ports; a new pick costs a read of the claims and
 * an insert, no panel call, and a job that still loses this often tries again later (RetryLater), since
 * the ports are there: only a pick that finds none left says "no ports".
 */
const CLAIM_ROUNDS = 25;
/** How soon a job that kept losing its picks to other jobs tries again, at random within it. */
const CLAIM_RETRY_MS = { min: 1_000, max: 5_000 };

async function createServerOnPanel(
  db: Db,
  client: PanelClient,
  service: Service,
  plan: PanelPlan,
  panelUser: { id: number },
  now: Date,
): Promise<{ server: PanelServer; address: string; ports: PanelPorts }> {
  await releaseClaims(db, Number(service.id));
  const nodes = (await client.listNodes()).filter(
    (node) =>
      (plan.locationIds.length === 0 || plan.locationIds.includes(node.locationId)) &&
      (plan.nodeIds.length === 0 || plan.nodeIds.includes(node.id)),
  );
  // The nodes' allocations as listed by the panel, kept while only our own claims change.
  const listed = new Map<number, readonly PanelAllocation[]>();
  let refused = 0;
  for (let round = 0; round < CLAIM_ROUNDS; round++) {
    const claims = await db
      .selectFrom("panel_port_claims")
      .select("allocation_id")
      .where(
        "node_id",
        "in",
        nodes.map((node) => node.id),
      )
      .execute();
    const taken = new Set(claims.map((claim) => Number(claim.allocation_id)));
    const placement = await placeServer(client, nodes, plan, taken, listed);
    if (!placement.ok) throw new ProvisioningFailure(PLACEMENT_FAILURE_KEYS[placement.reason]);
    const { nodeId, pick: set } = placement;
    const ids = [set.defaultId, ...set.additionalIds];
    // Another job claimed one of these first: pick again, its claims now excluded.
    if (!(await claimAllocations(db, Number(service.id), nodeId, ids, now))) continue;
    const { announce, http } = set.ports;
    // Drawn at each attempt and kept nowhere of ours: a retry that finds the server made by an
    // earlier attempt keeps that one's values, and the customer reads them in the game panel.
    const environment = {
      ...plan.environment,
      ...generatedEnvironment(plan.generatedVariables, randomInt),
      ...(plan.portLayout === "mta" && announce !== undefined && http !== undefined
        ? mtaEnvironment({ game: set.ports.game, announce, http }, { http: plan.httpPortVariable })
        : {}),
    };
    const create = () =>
      client.createServer({
        externalId: serviceExternalId(Number(service.id)),
        name: plan.name || service.server_name || service.name,
        userId: panelUser.id,
        eggId: plan.eggId,
        dockerImage: plan.dockerImage,
        startup: plan.startup,
        environment,
        limits: plan.limits,
        featureLimits: {
          ...plan.featureLimits,
          allocations: Math.max(plan.featureLimits.allocations, ids.length),
        },
        allocation: { default: set.defaultId, additional: set.additionalIds },
        startOnCompletion: true,
      });
    try {
      const server = await createOnce(client, create, Number(service.id));
      const ports: PanelPorts = { game: set.ports.game };
      if (set.ports.announce !== undefined) ports.announce = set.ports.announce;
      if (set.ports.http !== undefined) ports.http = set.ports.http;
      const main = listed.get(nodeId)?.find((allocation) => allocation.id === set.defaultId);
      return { server, address: `${main ? hostOf(main) : set.ip}:${set.ports.game}`, ports };
    } catch (error) {
      // The panel says a picked allocation is not free (someone used the panel by hand): pick again
      // from a fresh listing (our claim on the refused ports stays, so they are not picked again).
      if (
        error instanceof PanelError &&
        error.status === 422 &&
        /allocation/i.test(fieldOf(error))
      ) {
        if (++refused >= PICK_ROUNDS)
          throw new ProvisioningFailure("provisioning.failures.noPorts");
        listed.clear();
        continue;
      }
      throw error;
    }
  }
  await releaseClaims(db, Number(service.id));
  const waitMs = CLAIM_RETRY_MS.min + randomInt(CLAIM_RETRY_MS.max - CLAIM_RETRY_MS.min);
  throw new RetryLater(
    new Date(now.getTime() + waitMs),
    `Other jobs took the picked ports ${CLAIM_ROUNDS} times in a row`,
  );
}

/**
 * Where the server goes: the nodes are tried in the order pickAcrossNodes prefers them (least loaded
 * first), listing the allocations of one node at a time, so an attempt usually lists one node's.
 */
async function placeServer(
  client: PanelClient,
  nodes: readonly PanelNode[],
  plan: PanelPlan,
  taken: ReadonlySet<number>,
  /** The nodes' allocations listed so far (by node id), filled as nodes are listed. */
  listed: Map<number, readonly PanelAllocation[]>,
): Promise<Placement> {
  const needs = { memoryMb: plan.limits.memory, diskMb: plan.limits.disk };
  const choose = () =>
    pickAcrossNodes({
      nodes: nodes.map((node) => ({ node, allocations: listed.get(node.id) ?? [] })),
      layout: plan.portLayout,
      taken,
      needs,
      locationIds: plan.locationIds,
      nodeIds: plan.nodeIds,
    });
  // With what is listed already (nothing on a first pick, the reason is then the nodes' own: none
  // there, none with room, or "noPorts"), then listing the nodes not listed yet.
  let placement = choose();
  if (placement.ok || placement.reason !== "noPorts") return placement;
  const order = nodes
    .filter((node) => nodeHasRoom(node, needs))
    .sort(
      (a, b) =>
        a.allocatedMemoryMb * Math.max(b.memoryMb, 1) -
          b.allocatedMemoryMb * Math.max(a.memoryMb, 1) || a.id - b.id,
    );
  for (const node of order) {
    if (listed.has(node.id)) continue;
    listed.set(node.id, await client.listAllocations(node.id));
    placement = choose();
    if (placement.ok) return placement;
  }
  return placement;
}

/**
 * The create call, and when it failed in a way that may or may not have made the server (a 5xx, a
 * connection lost): a look by our external id, then one more create if the panel has none. What the
 * next attempt would do, done now, so a panel that drops a call now and then costs no attempt.
 */
async function createOnce(
  client: PanelClient,
  create: () => Promise<PanelServer>,
  serviceId: number,
): Promise<PanelServer> {
  try {
    return await create();
  } catch (error) {
    if (!isRetryablePanelFailure(error) || (error instanceof PanelError && error.status === 429))
      throw error;
    const made = await client.findServerByExternalId(serviceExternalId(serviceId));
    return made ?? (await create());
  }
}

function fieldOf(error: PanelError): string {
  const field = error.meta?.source_field;
  return `${typeof field === "string" ? field : ""} ${error.detail}`;
}

export function createHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job, complete }): Promise<Record<string, number>> => {
    const { serviceId } = payload as ServicePayload;
    const service = await loadService(db, serviceId);
    if (!service) {
      // Deleted while it was waiting: a server an earlier attempt made must not outlive it.
      await withPanel(db, config, { serviceId, job, now }, async (client) => {
        const made = await client.findServerByExternalId(serviceExternalId(serviceId));
        if (made) await client.deleteServer(made.id);
      });
      return { gone: 1 };
    }
    if (!["pending", "creating", "failed"].includes(service.panel_state ?? ""))
      return { skipped: 1 };
    if (service.status === "terminated") {
      await setPanelState(db, serviceId, { state: "deleted", error: null }, now);
      return { skipped: 1 };
    }
    return notingFailure(db, serviceId, job, now, async () => {
      const plan = parsePanelPlan(service.panel_plan);
      if (!plan) throw new ProvisioningFailure("provisioning.failures.noPlan");
      await setPanelState(db, serviceId, { state: "creating" }, now);
      const made = await withPanel(db, config, { serviceId, job, now }, async (client) => {
        const panelUser = await ensurePanelUser(
          db,
          client,
          { id: service.user_id, email: service.email, name: service.user_name },
          now,
        );
        // Only an attempt that claimed ports may have reached the create call: look first then.
        const claimed = await db
          .selectFrom("panel_port_claims")
          .select("allocation_id")
          .where("hosting_service_id", "=", serviceId)
          .limit(1)
          .execute();
        const existing =
          claimed.length > 0
            ? await client.findServerByExternalId(serviceExternalId(serviceId))
            : null;
        if (!existing) return createServerOnPanel(db, client, service, plan, panelUser, now);
        // An earlier attempt made it and lost the answer: take it as it is.
        const where = addressOf(existing, plan.portLayout);
        return {
          server: existing,
          address: where?.address ?? "",
          ports: where?.ports ?? { game: 0 },
        };
      });
      await inTransaction(db, (trx) =>
        installStarted(
          trx,
          { serviceId, now, config, complete },
          {
            panel_server_id: made.server.id,
            panel_identifier: made.server.identifier,
            panel_node_id: made.server.nodeId,
            panel_address: made.address || null,
            panel_ports: JSON.stringify(made.ports),
          },
        ),
      );
      return { created: 1 };
    });
  };
}
