import { randomInt } from "node:crypto";
import type { Updateable } from "kysely";
import { withOwner } from "~/db/customer-rows";
import type { HostingServicesTable } from "~/db/schema";
import { inTransaction, type Db, type Tx } from "~/db/transaction";
import {
  enqueueJob,
  PermanentJobError,
  RetryLater,
  type JobContext,
  type JobHandler,
  type JobRow,
} from "~/domain/jobs/jobs.server";
import type { ScheduleDefinition } from "~/domain/jobs/schedule-slots";
import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import { queueMail } from "~/domain/mail/mail.server";
import { notify } from "~/domain/notifications/notifications.server";
import { recordPanelCalls } from "./panel-calls.server";
import {
  PANEL_CHECK_JOB,
  panelClientFor,
  PanelKeyNotForUrl,
  PanelKeyUnreadable,
  runPanelCheck,
} from "./panel-connection.server";
import {
  panelServerLink,
  parsePanelPlan,
  parsePanelPorts,
  serviceExternalId,
  serviceIdOfExternal,
  userExternalId,
  type PanelPlan,
  type PanelPorts,
} from "./panel-plan";
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
  PanelAddressRefused,
  PanelError,
  type PanelAllocation,
  type PanelCall,
  type PanelClient,
  type PanelNode,
  type PanelServer,
  type PanelServerWithAllocations,
} from "./pterodactyl-client.server";

// The panel's side of a service (docs/provisioning.md "Jobs"). Every call to the panel runs
// here, on the worker, never in a request or a transaction. Each handler may run again after a crash or
// a lost answer, so each looks before it makes: the panel user by external id then email, the server by
// its external id. Our side's state changes in its own transactions; the panel catches up through these
// jobs, and `provisioning.sync` brings a server to what the service's status says, whatever came before.

export const PANEL_CREATE_JOB = "provisioning.create";
export const PANEL_INSTALL_JOB = "provisioning.await-install";
export const PANEL_SYNC_JOB = "provisioning.sync";
export const PANEL_REINSTALL_JOB = "provisioning.reinstall";
export const PANEL_RELINK_JOB = "provisioning.relink";
export const PANEL_RECONCILE_JOB = "provisioning.reconcile";
export const PANEL_USER_JOB = "provisioning.user-sync";

export interface ProvisioningConfig {
  /** The auth secret, which the panel's key is encrypted with. */
  secret: string;
  /** One call's limit. */
  timeoutMs: number;
  /** How long between two looks at a server being installed. */
  pollMs: number;
  /** How long an install may take before it is a failure. */
  installTimeoutMs: number;
  fetch?: typeof fetch;
}

interface ServicePayload {
  serviceId: number;
}

/** A failure an admin reads on the service: a catalogue key and the panel's own words. */
export class ProvisioningFailure extends PermanentJobError {
  constructor(
    readonly reason: string,
    readonly detail: string | null = null,
  ) {
    super(detail ? `${reason}: ${detail}` : reason);
    this.name = "ProvisioningFailure";
  }
}

type Service = NonNullable<Awaited<ReturnType<typeof loadService>>>;

async function loadService(db: Db, serviceId: number) {
  return withOwner(db, "hosting_services")
    .select([
      "hosting_services.id",
      "hosting_services.user_id",
      "hosting_services.status",
      "hosting_services.name",
      "hosting_services.server_name",
      "hosting_services.panel_state",
      "hosting_services.panel_plan",
      "hosting_services.panel_server_id",
      "hosting_services.panel_node_id",
      "hosting_services.panel_address",
      "hosting_services.panel_ports",
      "hosting_services.panel_identifier",
      "users.email",
      "users.name as user_name",
    ])
    .where("hosting_services.id", "=", serviceId)
    .executeTakeFirst();
}

async function setPanelState(
  db: Db,
  serviceId: number,
  values: {
    state: string;
    error?: string | null;
    serverId?: number | null;
    identifier?: string | null;
    nodeId?: number | null;
    address?: string | null;
    ports?: PanelPorts | null;
  },
  now: Date,
) {
  await db
    .updateTable("hosting_services")
    .set({
      panel_state: values.state,
      panel_updated_at: now.toISOString(),
      ...(values.error !== undefined ? { panel_error: values.error } : {}),
      ...(values.serverId !== undefined ? { panel_server_id: values.serverId } : {}),
      ...(values.identifier !== undefined ? { panel_identifier: values.identifier } : {}),
      ...(values.nodeId !== undefined ? { panel_node_id: values.nodeId } : {}),
      ...(values.address !== undefined ? { panel_address: values.address } : {}),
      ...(values.ports !== undefined
        ? { panel_ports: values.ports ? JSON.stringify(values.ports) : null }
        : {}),
    })
    .where("id", "=", serviceId)
    .execute();
}

/**
 * Runs `work` with a client of the saved panel, and records every call it made, whatever happens. A panel
 * failure comes out as what the worker should do: come back when a 429 says, retry with the backoff (a
 * timeout, a 5xx), or stop (any other refusal: another attempt cannot change it).
 */
async function withPanel<T>(
  db: Db,
  config: ProvisioningConfig,
  context: { serviceId: number | null; job: JobRow; now: Date },
  work: (client: PanelClient, panelUrl: string) => Promise<T>,
): Promise<T> {
  const calls: PanelCall[] = [];
  try {
    const found = await panelClientFor(db, {
      secret: config.secret,
      timeoutMs: config.timeoutMs,
      fetch: config.fetch,
      onCall: (call) => calls.push(call),
      // A job makes a dozen calls: against a panel that drops one in five, most attempts would end
      // on some read that a second try fixes at once. Writes and 429s are left to the worker.
      retryReads: true,
    });
    if (!found) throw new ProvisioningFailure("provisioning.failures.notConnected");
    return await work(found.client, found.connection.url);
  } catch (error) {
    throw asJobError(error, context.now);
  } finally {
    await recordPanelCalls(db, calls, {
      serviceId: context.serviceId,
      jobId: Number(context.job.id),
      now: context.now,
    });
  }
}

function asJobError(error: unknown, now: Date): unknown {
  if (error instanceof ProvisioningFailure || error instanceof RetryLater) return error;
  if (error instanceof PanelKeyUnreadable)
    return new ProvisioningFailure("provisioning.failures.keyUnreadable");
  if (error instanceof PanelKeyNotForUrl)
    return new ProvisioningFailure("provisioning.failures.keyNotForUrl");
  if (error instanceof PanelAddressRefused)
    return new ProvisioningFailure("provisioning.failures.addressRefused");
  if (error instanceof PanelError && error.status === 429)
    return new RetryLater(
      new Date(now.getTime() + (error.retryAfterSeconds ?? 60) * 1000),
      `The panel asked to wait (429)`,
    );
  if (isRetryablePanelFailure(error)) return error;
  if (error instanceof PanelError)
    return new ProvisioningFailure(
      "provisioning.failures.panelRefused",
      `${error.status} ${error.code}: ${error.detail}`,
    );
  return error;
}

/** The job will not run again: say so on the service (the worker alerts staff of the dead job). */
function isLastAttempt(job: JobRow, error: unknown): boolean {
  return error instanceof PermanentJobError || job.attempts >= job.max_attempts;
}

function failureText(error: unknown): string {
  if (error instanceof ProvisioningFailure)
    return error.detail ? `${error.reason}|${error.detail}` : error.reason;
  if (error instanceof Error) return `provisioning.failures.unexpected|${error.message}`;
  return "provisioning.failures.unexpected";
}

/** After a failed attempt: the last one marks the service failed; earlier ones keep the reason only. */
async function noteFailure(db: Db, serviceId: number, job: JobRow, error: unknown, now: Date) {
  if (error instanceof RetryLater) return;
  const last = isLastAttempt(job, error);
  await db
    .updateTable("hosting_services")
    .set({
      ...(last ? { panel_state: "failed" } : {}),
      panel_error: failureText(error).slice(0, 1000),
      panel_updated_at: now.toISOString(),
    })
    .where("id", "=", serviceId)
    .execute();
}

/** A handler's work on a service: a failure is noted on the service, then thrown on for the worker. */
async function notingFailure(
  db: Db,
  serviceId: number,
  job: JobRow,
  now: Date,
  work: () => Promise<Record<string, number>>,
): Promise<Record<string, number>> {
  try {
    return await work();
  } catch (error) {
    await noteFailure(db, serviceId, job, error, now);
    throw error;
  }
}

// ---------------------------------------------------------------------------------------------------
// The panel user

/** A panel username from an email: the panel allows letters, digits and `._-`, 1 to 191 characters. */
export function panelUsername(email: string, userId: string): string {
  const local =
    email
      .split("@")[0]!
      .replace(/[^A-Za-z0-9._-]/g, "")
      .slice(0, 20) || "player";
  const suffix = userId
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 8)
    .toLowerCase();
  return `${local}-${suffix}`;
}

function panelNames(name: string): { firstName: string; lastName: string } {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const firstName = (parts[0] ?? "Player").slice(0, 191);
  const lastName = (parts.slice(1).join(" ") || "-").slice(0, 191);
  return { firstName, lastName };
}

/** Finds the customer's panel user (ours, by external id, then by exact email) or creates one. */
async function ensurePanelUser(
  db: Db,
  client: PanelClient,
  customer: { id: string; email: string; name: string },
  now: Date,
): Promise<{ id: number }> {
  // Found or made by an earlier job: no call (the user-sync job keeps it up to date).
  const saved = await db
    .selectFrom("panel_accounts")
    .select("panel_user_id")
    .where("user_id", "=", customer.id)
    .executeTakeFirst();
  if (saved) return { id: Number(saved.panel_user_id) };
  const externalId = userExternalId(customer.id);
  let user =
    (await client.findUserByExternalId(externalId)) ??
    (await client.findUserByEmail(customer.email));
  // Created without a password: the panel mails the customer its own link to set one.
  try {
    user ??= await client.createUser({
      externalId,
      email: customer.email,
      username: panelUsername(customer.email, customer.id),
      ...panelNames(customer.name),
    });
  } catch (error) {
    // Another job of the same customer made it meanwhile (two orders approved together), or an
    // earlier answer was lost: the address or our id is taken by the user we want.
    if (!(error instanceof PanelError && error.status === 422)) throw error;
    user =
      (await client.findUserByExternalId(externalId)) ??
      (await client.findUserByEmail(customer.email));
    if (!user) throw error;
  }
  await db
    .insertInto("panel_accounts")
    .values({ user_id: customer.id, panel_user_id: user.id, created_at: now.toISOString() })
    .onConflict((conflict) => conflict.column("user_id").doUpdateSet({ panel_user_id: user.id }))
    .execute();
  return user;
}

// ---------------------------------------------------------------------------------------------------
// Ports

/** The name a player connects to: the allocation's alias where the panel gives one, else its IP. */
function hostOf(allocation: PanelAllocation): string {
  return allocation.alias ?? allocation.ip;
}

/**
 * Where a server answers, from the allocations it holds: the game port first, then MTA's two others.
 * Its own, read with the server: the node's listing marks every server's ports as assigned alike.
 */
function addressOf(
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

/** The allocations of a service a job has claimed before (a retry starts afresh). */
async function releaseClaims(db: Db, serviceId: number) {
  await db.deleteFrom("panel_port_claims").where("hosting_service_id", "=", serviceId).execute();
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

// ---------------------------------------------------------------------------------------------------
// Handlers

function createHandler(config: ProvisioningConfig): JobHandler {
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

/**
 * The next look at an install. Every look carries when the install began (`startedAt`, the install's
 * identity: its ready mail is once per install) and the deadline fixed then.
 */
async function queueInstallWatch(
  trx: Parameters<typeof enqueueJob>[0],
  serviceId: number,
  now: Date,
  config: ProvisioningConfig,
  install = {
    startedAt: now.toISOString(),
    deadline: new Date(now.getTime() + config.installTimeoutMs).toISOString(),
  },
) {
  await enqueueJob(trx, {
    type: PANEL_INSTALL_JOB,
    payload: { serviceId, ...install },
    runAt: new Date(now.getTime() + config.pollMs),
    uniqueKey: `panel:install:${serviceId}`,
    now,
  });
}

/**
 * Step: the service's server is installing (just made, with where it is, or reinstalled): the job that
 * got it there is done, and a job watches the install.
 */
async function installStarted(
  trx: Tx,
  job: {
    serviceId: number;
    now: Date;
    config: ProvisioningConfig;
    complete: JobContext["complete"];
  },
  server: Updateable<HostingServicesTable> = {},
): Promise<void> {
  await trx
    .updateTable("hosting_services")
    .set({
      panel_state: "installing",
      panel_error: null,
      ...server,
      panel_updated_at: job.now.toISOString(),
    })
    .where("id", "=", job.serviceId)
    .execute();
  await job.complete(trx);
  await queueInstallWatch(trx, job.serviceId, job.now, job.config);
}

function installHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job, complete }): Promise<Record<string, number>> => {
    const { serviceId, deadline, startedAt } = payload as ServicePayload & {
      deadline: string;
      startedAt?: string;
    };
    // A look queued before looks carried `startedAt`: its deadline, fixed with it, stands for it.
    const install = { startedAt: startedAt ?? deadline, deadline };
    const service = await loadService(db, serviceId);
    if (!service || service.panel_state !== "installing" || service.panel_server_id === null)
      return { skipped: 1 };
    return notingFailure(db, serviceId, job, now, async (): Promise<Record<string, number>> => {
      const { server, panelUrl } = await withPanel(
        db,
        config,
        { serviceId, job, now },
        async (client, url) => ({
          server: await client.getServer(Number(service.panel_server_id)),
          panelUrl: url,
        }),
      );
      if (server.status === "installing") {
        if (now.toISOString() > deadline)
          throw new ProvisioningFailure("provisioning.failures.installTimedOut");
        // Not yet: this look is done, the next is a new job (a long install spends no attempts).
        await inTransaction(db, async (trx) => {
          await complete(trx);
          await queueInstallWatch(trx, serviceId, now, config, install);
        });
        return { waiting: 1 };
      }
      if (server.status === "install_failed" || server.status === "reinstall_failed")
        throw new ProvisioningFailure("provisioning.failures.installFailed", server.status);
      await inTransaction(db, async (trx) => {
        await trx
          .updateTable("hosting_services")
          .set({ panel_state: "ready", panel_error: null, panel_updated_at: now.toISOString() })
          .where("id", "=", serviceId)
          .execute();
        const label = serviceLabel({ name: service.name, serverName: service.server_name });
        await notify(trx, {
          userId: service.user_id,
          kind: "service_ready",
          params: { service: label },
          link: "/dashboard?tab=services",
          // Once per install, as its mail: a reinstall wipes the server, so its end is news again.
          dedupeKey: `service-ready:${serviceId}:${service.panel_server_id}:${install.startedAt}`,
          now,
        });
        // Where it answers and how to manage it; not to a service suspended or ended meanwhile.
        if (service.status === "active")
          await queueMail(
            trx,
            {
              kind: "serviceReady",
              userId: service.user_id,
              serviceId,
              service: label,
              install: install.startedAt,
              address: service.panel_address,
              ports: parsePanelPorts(service.panel_ports),
              panelLink: panelServerLink(panelUrl, service.panel_identifier),
              secretsDrawn:
                (parsePanelPlan(service.panel_plan)?.generatedVariables.length ?? 0) > 0,
            },
            now,
          );
        // Suspended or ended while it was being made: the panel follows now.
        if (service.status !== "active")
          await enqueueJob(trx, { type: PANEL_SYNC_JOB, payload: { serviceId }, now });
        await complete(trx);
      });
      return { ready: 1 };
    });
  };
}

/**
 * Brings the panel's server to what the service's status says: active → running, suspended → suspended,
 * terminated or deleted → force-deleted. Idempotent and order-free, so a suspension, a reactivation and a
 * termination queued close together end where the last one says.
 */
function syncHandler(config: ProvisioningConfig): JobHandler {
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

async function getOrNull(client: PanelClient, id: number): Promise<PanelServer | null> {
  try {
    return await client.getServer(id);
  } catch (error) {
    if (error instanceof PanelError && error.status === 404) return null;
    throw error;
  }
}

function reinstallHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job, complete }): Promise<Record<string, number>> => {
    const { serviceId } = payload as ServicePayload;
    const service = await loadService(db, serviceId);
    if (!service || service.panel_server_id === null) return { skipped: 1 };
    return notingFailure(db, serviceId, job, now, async () => {
      await withPanel(db, config, { serviceId, job, now }, (client) =>
        client.reinstallServer(Number(service.panel_server_id)),
      );
      await inTransaction(db, (trx) => installStarted(trx, { serviceId, now, config, complete }));
      return { reinstalled: 1 };
    });
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
function relinkHandler(config: ProvisioningConfig): JobHandler {
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

/**
 * The nightly comparison of our services with the panel's servers (by external id). It reports drift
 * (a server missing, one the panel has and we do not, a suspension on one side only) and changes nothing.
 */
function reconcileHandler(config: ProvisioningConfig): JobHandler {
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

async function isDeletedUser(db: Db, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("status")
    .where("id", "=", userId)
    .executeTakeFirst();
  return !row || row.status === "deleted";
}

/**
 * A step: the customer's panel user follows their account (a new email address, or the account deleted).
 * Nothing for a customer the panel does not know.
 */
export async function queuePanelUserSync(trx: Tx, userId: string, now = new Date()) {
  const known = await trx
    .selectFrom("panel_accounts")
    .select("panel_user_id")
    .where("user_id", "=", userId)
    .executeTakeFirst();
  if (!known) return;
  await enqueueJob(trx, { type: PANEL_USER_JOB, payload: { userId }, maxAttempts: 8, now });
}

/**
 * The panel user of a customer: its email and name follow the account's; a deleted account's panel user
 * is removed once no server of theirs is left on the panel (the panel refuses to delete a user who has
 * servers), which the deletion of their last server asks for again.
 */
function userSyncHandler(config: ProvisioningConfig): JobHandler {
  return async ({ db, now, payload, job }): Promise<Record<string, number>> => {
    const { userId } = payload as { userId: string };
    const account = await withOwner(db, "panel_accounts")
      .select(["panel_accounts.panel_user_id", "users.email", "users.name", "users.status"])
      .where("panel_accounts.user_id", "=", userId)
      .executeTakeFirst();
    if (!account) return { skipped: 1 };
    const panelUserId = Number(account.panel_user_id);
    if (account.status === "deleted") {
      const left = await db
        .selectFrom("hosting_services")
        .select("id")
        .where("user_id", "=", userId)
        .where("panel_state", "in", [
          "pending",
          "creating",
          "installing",
          "ready",
          "suspended",
          "failed",
        ])
        .limit(1)
        .execute();
      if (left.length > 0) return { waiting: 1 };
      await withPanel(db, config, { serviceId: null, job, now }, async (client) => {
        try {
          await client.deleteUser(panelUserId);
        } catch (error) {
          if (!(error instanceof PanelError && error.status === 404)) throw error;
        }
      });
      await db.deleteFrom("panel_accounts").where("user_id", "=", userId).execute();
      return { deleted: 1 };
    }
    await withPanel(db, config, { serviceId: null, job, now }, (client) =>
      client.updateUser(panelUserId, {
        externalId: userExternalId(userId),
        email: account.email,
        username: panelUsername(account.email, userId),
        ...panelNames(account.name),
      }),
    );
    return { updated: 1 };
  };
}

/** "Check connection", and the hourly refresh of what the panel has (its nodes' use, its eggs). */
function checkHandler(config: ProvisioningConfig): JobHandler {
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

export function provisioningHandlers(config: ProvisioningConfig): Record<string, JobHandler> {
  return {
    [PANEL_CHECK_JOB]: checkHandler(config),
    [PANEL_CREATE_JOB]: createHandler(config),
    [PANEL_INSTALL_JOB]: installHandler(config),
    [PANEL_SYNC_JOB]: syncHandler(config),
    [PANEL_REINSTALL_JOB]: reinstallHandler(config),
    [PANEL_RELINK_JOB]: relinkHandler(config),
    [PANEL_RECONCILE_JOB]: reconcileHandler(config),
    [PANEL_USER_JOB]: userSyncHandler(config),
  };
}

export const provisioningSchedules: ScheduleDefinition[] = [
  { name: "provisioning.reconcile", cron: "40 3 * * *", jobType: PANEL_RECONCILE_JOB },
  { name: "provisioning.refresh", cron: "7 * * * *", jobType: PANEL_CHECK_JOB },
];
