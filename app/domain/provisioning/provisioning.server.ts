import { isPostgres } from "~/db/dialect";
import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import type { ProvisioningEvent } from "~/domain/events/provisioning-events.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { listPanelCalls } from "./panel-calls.server";
import { parseFailure, parseLocationMap, parseSnapshot } from "./panel-connection";
import {
  parsePanelPlan,
  servicePanelOf,
  type PanelCallView,
  type PanelPlan,
  type ServicePanel,
} from "./panel-plan";
import {
  PANEL_CREATE_JOB,
  PANEL_REINSTALL_JOB,
  PANEL_RELINK_JOB,
  PANEL_SYNC_JOB,
} from "./panel-job-types";
import { nodeHasRoom, panelLocationsFor, serverBuildFor } from "./provisioning";
import { parseStoredProvisioning } from "./provisioning.schemas";

// Provisioning's steps inside the use-cases of other areas (an approval, a suspension, a deletion) and
// the admin's own actions (docs/provisioning.md). Nothing here calls the panel: each queues a
// job in the caller's transaction, so the job exists if and only if the change committed.

/**
 * A step of the approval: a product with a provisioning block gets its plan (the block and the build
 * from the order's options, fixed now) and a create job, unless no node of its location has room (the
 * approval is then refused). A product set up by hand: nothing.
 */
export async function planProvisioning(
  trx: Tx,
  input: {
    serviceId: number;
    productId: number;
    serverName: string;
    order: {
      location: string;
      playerSlots: number | null;
      backup: string;
      ddosProtection: boolean;
    };
    now: Date;
  },
): Promise<"manual" | "planned" | "noRoom"> {
  const product = await trx
    .selectFrom("products")
    .select("provisioning")
    .where("id", "=", input.productId)
    .executeTakeFirst();
  const { provisioning } = parseStoredProvisioning(product?.provisioning ?? null);
  if (provisioning.provisioner !== "pterodactyl") return "manual";
  await lockPanelRoom(trx);
  if (!(await panelHasRoom(trx, input.productId, input.order.location))) return "noRoom";
  const connection = await trx
    .selectFrom("panel_connections")
    .select("location_map")
    .where("id", "=", 1)
    .executeTakeFirst();
  const locationMap = parseLocationMap(connection?.location_map ?? "{}");
  const build = serverBuildFor(provisioning, input.order);
  const plan: PanelPlan = {
    eggId: provisioning.eggId,
    dockerImage: provisioning.dockerImage,
    startup: provisioning.startup,
    portLayout: provisioning.portLayout,
    httpPortVariable: provisioning.httpPortVariable ?? null,
    locationIds: panelLocationsFor(input.order.location, locationMap, provisioning.locationIds),
    nodeIds: provisioning.nodeIds,
    limits: build.limits,
    featureLimits: build.featureLimits,
    environment: build.environment,
    generatedVariables: provisioning.generatedVariables ?? [],
    name: input.serverName,
    notes: build.notes,
  };
  const at = input.now.toISOString();
  await trx
    .updateTable("hosting_services")
    .set({
      panel_state: "pending",
      panel_plan: JSON.stringify(plan),
      panel_error: null,
      panel_updated_at: at,
    })
    .where("id", "=", input.serviceId)
    .execute();
  await queueCreate(trx, input.serviceId, input.now);
  return "planned";
}

/**
 * A create makes several calls; with the worker's backoff (30 s doubled, six hours at most) twelve
 * attempts cover about a day and a half of a panel that is down before the job is dead and staff told.
 */
const CREATE_ATTEMPTS = 12;

async function queueCreate(trx: Tx, serviceId: number, now: Date) {
  await enqueueJob(trx, {
    type: PANEL_CREATE_JOB,
    payload: { serviceId },
    uniqueKey: `panel:create:${serviceId}`,
    maxAttempts: CREATE_ATTEMPTS,
    now,
  });
}

// ---------------------------------------------------------------------------------------------------
// The admin's actions

export type PanelActionResult =
  | { ok: true }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  | {
      ok: false;
      kind: "conflict";
      error:
        | "provisioning.errors.actionNotNow"
        | "provisioning.errors.reinstallQueued"
        | "provisioning.errors.installRunning";
    };

const RETRYABLE_STATES = ["failed"];
const REINSTALLABLE_STATES = ["ready", "failed", "suspended"];

async function panelServiceOrRefuse(trx: Tx, serviceId: number) {
  const row = await trx
    .selectFrom("hosting_services")
    .select(["id", "status", "panel_state", "panel_server_id", "panel_plan"])
    .where("id", "=", serviceId)
    .executeTakeFirst();
  if (!row) refuse<PanelActionResult>("notFound", "services.errors.notFound");
  return row;
}

type PanelServiceRow = Awaited<ReturnType<typeof panelServiceOrRefuse>>;

/**
 * The frame of the admin's actions on a service's panel server, in one transaction: the service, refused
 * unless its panel state allows the action now, the action's own writes, and its event.
 */
async function panelAction(
  db: Db,
  input: { serviceId: number; actorId: string; now?: Date },
  action: {
    allowed: (row: PanelServiceRow) => boolean;
    /** Why not, when it is not allowed: "not in this state" unless the action says better. */
    notNow?: (row: PanelServiceRow) => Extract<PanelActionResult, { kind: "conflict" }>["error"];
    run: (trx: Tx, row: PanelServiceRow, now: Date) => Promise<void>;
    event: (row: PanelServiceRow) => ProvisioningEvent;
  },
): Promise<PanelActionResult> {
  return inTransaction(db, async (trx) => {
    const now = input.now ?? new Date();
    const row = await panelServiceOrRefuse(trx, input.serviceId);
    if (!action.allowed(row))
      refuse<PanelActionResult>(
        "conflict",
        action.notNow?.(row) ?? "provisioning.errors.actionNotNow",
      );
    await action.run(trx, row, now);
    await record(trx, action.event(row));
    return { ok: true };
  });
}

/** Retry: a failed service is made again (or, when its server exists, watched again). */
export async function retryProvisioning(
  db: Db,
  input: { serviceId: number; actorId: string; now?: Date },
): Promise<PanelActionResult> {
  return panelAction(db, input, {
    allowed: (row) => RETRYABLE_STATES.includes(row.panel_state ?? "") && !!row.panel_plan,
    run: async (trx, row, now) => {
      await trx
        .updateTable("hosting_services")
        .set({ panel_state: "pending", panel_updated_at: now.toISOString() })
        .where("id", "=", input.serviceId)
        .execute();
      if (row.panel_server_id === null) await queueCreate(trx, input.serviceId, now);
      else
        await enqueueJob(trx, {
          type: PANEL_SYNC_JOB,
          payload: { serviceId: input.serviceId },
          now,
        });
    },
    event: (row) => ({
      type: "provisioning.retried",
      actorId: input.actorId,
      serviceId: input.serviceId,
      panelState: row.panel_state,
    }),
  });
}

/** The unique key of a service's reinstall job: one waits or runs at a time. */
function reinstallKey(serviceId: number): string {
  return `panel:reinstall:${serviceId}`;
}

/**
 * Step: the panel's reinstall of the service's server is queued (the job sends it, then watches the
 * install until the server is ready again): the job's id, or null when one waits or runs already. The
 * admin's Reinstall and the customer's (docs/server-control.md) both go this way.
 */
export async function queuePanelReinstall(
  trx: Tx,
  serviceId: number,
  now: Date,
): Promise<number | null> {
  return enqueueJob(trx, {
    type: PANEL_REINSTALL_JOB,
    payload: { serviceId },
    uniqueKey: reinstallKey(serviceId),
    now,
  });
}

/**
 * Reinstall: the panel runs the egg's install script again (the server's files are rewritten). Pressed
 * again while the first waits or runs, it is refused as queued already (nothing more queued, nothing
 * audited); while the install it started runs, as installing.
 */
export async function reinstallPanelServer(
  db: Db,
  input: { serviceId: number; actorId: string; now?: Date },
): Promise<PanelActionResult> {
  return panelAction(db, input, {
    allowed: (row) =>
      REINSTALLABLE_STATES.includes(row.panel_state ?? "") && row.panel_server_id !== null,
    notNow: (row) =>
      row.panel_state === "installing"
        ? "provisioning.errors.installRunning"
        : "provisioning.errors.actionNotNow",
    run: async (trx, _row, now) => {
      const queued = await queuePanelReinstall(trx, input.serviceId, now);
      if (queued === null)
        refuse<PanelActionResult>("conflict", "provisioning.errors.reinstallQueued");
    },
    event: () => ({
      type: "provisioning.reinstallRequested",
      actorId: input.actorId,
      serviceId: input.serviceId,
    }),
  });
}

/** Re-link: the service is attached to a server that exists on the panel (its id or identifier). */
export async function relinkPanelServer(
  db: Db,
  input: { serviceId: number; server: string; actorId: string; now?: Date },
): Promise<PanelActionResult> {
  return panelAction(db, input, {
    allowed: (row) => !["creating", "installing"].includes(row.panel_state ?? ""),
    run: async (trx, _row, now) => {
      await trx
        .updateTable("hosting_services")
        .set({ panel_state: "pending", panel_error: null, panel_updated_at: now.toISOString() })
        .where("id", "=", input.serviceId)
        .execute();
      await enqueueJob(trx, {
        type: PANEL_RELINK_JOB,
        payload: { serviceId: input.serviceId, server: input.server },
        uniqueKey: `panel:relink:${input.serviceId}`,
        now,
      });
    },
    event: (row) => ({
      type: "provisioning.relinkRequested",
      actorId: input.actorId,
      serviceId: input.serviceId,
      panelServerId: row.panel_server_id,
      server: input.server,
    }),
  });
}

// ---------------------------------------------------------------------------------------------------
// What people read

export interface ServicePanelView extends ServicePanel {
  /** A catalogue key and the panel's words, for admins. */
  error: { key: string; detail: string | null } | null;
}

export interface AdminServicePanel extends Omit<ServicePanelView, "state"> {
  /** Null for a service set up by hand: no panel server is linked (Re-link can link one). */
  state: string | null;
  /**
   * A reinstall the admin asked for: waiting for the worker (or for its next attempt), or being sent to
   * the panel now; null when none is. Once the panel took it, the state is "installing".
   */
  reinstall: "queued" | "running" | null;
  serverId: number | null;
  identifier: string | null;
  calls: PanelCallView[];
}

/** The panel's side of one service, for /admin/services/:id: state, address, link and the call log. */
export async function adminServicePanel(
  db: Db,
  serviceId: number,
): Promise<AdminServicePanel | null> {
  const row = await db
    .selectFrom("hosting_services")
    .leftJoin("panel_connections", (join) => join.on("panel_connections.id", "=", 1))
    .select([
      "hosting_services.panel_state",
      "hosting_services.panel_address",
      "hosting_services.panel_ports",
      "hosting_services.panel_identifier",
      "hosting_services.panel_error",
      "hosting_services.panel_server_id",
      "panel_connections.url",
    ])
    .where("hosting_services.id", "=", serviceId)
    .executeTakeFirst();
  if (!row) return null;
  // By the jobs' unique key, whose index holds only the jobs that wait or run.
  const reinstall = await db
    .selectFrom("jobs")
    .select("state")
    .where("unique_key", "=", reinstallKey(serviceId))
    .where("state", "in", ["queued", "running", "failed"])
    .executeTakeFirst();
  const view = servicePanelOf(row, row.url ?? null) ?? {
    state: null,
    address: null,
    ports: null,
    link: null,
  };
  return {
    ...view,
    error: parseFailure(row.panel_error),
    reinstall: !reinstall ? null : reinstall.state === "running" ? "running" : "queued",
    serverId: row.panel_server_id === null ? null : Number(row.panel_server_id),
    identifier: row.panel_identifier,
    calls: await listPanelCalls(db, serviceId),
  };
}

// ---------------------------------------------------------------------------------------------------
// Room on the panel

/**
 * Step: takes the room on the panel for the rest of the transaction, before panelHasRoom is asked for an
 * approval. On PostgreSQL two approvals (an admin's, or the system's as an order is placed) would each
 * read the other's server as not there yet and both take the last room; the panel connection's row,
 * locked here, makes the second wait for the first to commit and then count its server. SQLite's
 * transactions hold the database's single write lock already. No connection: nothing to count.
 */
export async function lockPanelRoom(trx: Tx): Promise<void> {
  if (!isPostgres(trx)) return;
  await trx.selectFrom("panel_connections").select("id").where("id", "=", 1).forUpdate().execute();
}

/**
 * Whether a node of the order's location has room for the product's server: the last check's nodes
 * (their use then) less what approved services not yet on the panel will take. A step of the order and
 * of the approval, so a customer does not pay for a server that cannot exist. Without a connection or a
 * check there is nothing to judge by: the order goes through and a failure would be the job's, visible.
 */
export async function panelHasRoom(trx: Tx, productId: number, location: string): Promise<boolean> {
  const [product, connection] = await Promise.all([
    trx
      .selectFrom("products")
      .select("provisioning")
      .where("id", "=", productId)
      .executeTakeFirst(),
    trx
      .selectFrom("panel_connections")
      .select(["location_map", "snapshot"])
      .where("id", "=", 1)
      .executeTakeFirst(),
  ]);
  const { provisioning } = parseStoredProvisioning(product?.provisioning ?? null);
  if (provisioning.provisioner !== "pterodactyl") return true;
  const snapshot = parseSnapshot(connection?.snapshot ?? null);
  if (!connection || !snapshot) return true;
  const locationIds = panelLocationsFor(
    location,
    parseLocationMap(connection.location_map),
    provisioning.locationIds,
  );
  const nodes = snapshot.nodes.filter(
    (node) =>
      locationIds.includes(node.locationId) &&
      (provisioning.nodeIds.length === 0 || provisioning.nodeIds.includes(node.id)),
  );
  if (nodes.length === 0) return false;
  // Approved but not on the panel yet: their memory and disk are spoken for, on no node in particular.
  const waiting = await trx
    .selectFrom("hosting_services")
    .select("panel_plan")
    .where("panel_state", "in", ["pending", "creating"])
    .execute();
  let memory = 0;
  let disk = 0;
  for (const row of waiting) {
    const plan = parsePanelPlan(row.panel_plan);
    if (!plan || !plan.locationIds.some((id) => locationIds.includes(id))) continue;
    memory += plan.limits.memory;
    disk += plan.limits.disk;
  }
  return nodes.some((node) =>
    nodeHasRoom(
      {
        ...node,
        allocatedMemoryMb: node.allocatedMemoryMb + memory,
        allocatedDiskMb: node.allocatedDiskMb + disk,
      },
      { memoryMb: provisioning.memoryMb, diskMb: provisioning.diskMb },
    ),
  );
}
