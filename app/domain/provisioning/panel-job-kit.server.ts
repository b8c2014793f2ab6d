import type { Db } from "~/db/transaction";
import { withOwner } from "~/db/customer-rows";
import { PermanentJobError, RetryLater, type JobRow } from "~/domain/jobs/jobs.server";
import { recordPanelCalls } from "./panel-calls.server";
import { panelClientFor, PanelKeyNotForUrl, PanelKeyUnreadable } from "./panel-connection.server";
import type { PanelPorts } from "./panel-plan";
import {
  isRetryablePanelFailure,
  PanelAddressRefused,
  PanelError,
  type PanelCall,
  type PanelClient,
  type PanelServer,
} from "./pterodactyl-client.server";

// What the game panel's job handlers share (provisioning-jobs.server.ts lists them): the service as a job reads it, the client of the saved panel with its call log, and a
// failure noted on the service before the worker retries or buries the job.

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

export interface ServicePayload {
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

export type Service = NonNullable<Awaited<ReturnType<typeof loadService>>>;

export async function loadService(db: Db, serviceId: number) {
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

export async function setPanelState(
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
export async function withPanel<T>(
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
export function isLastAttempt(job: JobRow, error: unknown): boolean {
  return error instanceof PermanentJobError || job.attempts >= job.max_attempts;
}

/** A failure as the service's `panel_error` keeps it: its catalogue key, then the panel's words. */
export function failureText(error: unknown): string {
  if (error instanceof ProvisioningFailure)
    return error.detail ? `${error.reason}|${error.detail}` : error.reason;
  if (error instanceof Error) return `provisioning.failures.unexpected|${error.message}`;
  return "provisioning.failures.unexpected";
}

/** After a failed attempt: the last one marks the service failed; earlier ones keep the reason only. */
export async function noteFailure(
  db: Db,
  serviceId: number,
  job: JobRow,
  error: unknown,
  now: Date,
) {
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
export async function notingFailure(
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

/** The allocations of a service a job has claimed before (a retry starts afresh). */
export async function releaseClaims(db: Db, serviceId: number) {
  await db.deleteFrom("panel_port_claims").where("hosting_service_id", "=", serviceId).execute();
}

export async function getOrNull(client: PanelClient, id: number): Promise<PanelServer | null> {
  try {
    return await client.getServer(id);
  } catch (error) {
    if (error instanceof PanelError && error.status === 404) return null;
    throw error;
  }
}
