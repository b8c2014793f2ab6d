import type { Db, Tx } from "~/db/transaction";
import { enqueueJob, type JobHandler } from "~/domain/jobs/jobs.server";
import { recordPanelCalls } from "~/domain/provisioning/panel-calls.server";
import { panelClientApiFor, panelClientFor } from "~/domain/provisioning/panel-connection.server";
import type { PanelStartupVariable } from "~/domain/provisioning/pterodactyl-client-api.server";
import type { PanelCall } from "~/domain/provisioning/pterodactyl-client.server";
import type { ServerAccess, ServerVariable } from "./server-control";
import { SERVER_DETAILS_JOB } from "./server-job-types";
import type { ServerControlConfig } from "./server-jobs.server";
import { statusReadError, upsertServerStatus } from "./server-status-job.server";

// `servers.details` (docs/server-control.md): what changes rarely, read apart from the state. SFTP: the
// node's address and port (the Client API's server) and the username the panel gives it,
// `<panel username>.<short identifier>` (the owner's username from the Application API); the egg
// variables the panel lets its user see, with this server's values (the Client API's startup). Queued
// when a page finds them missing (at most once per cache period) and after a change that moves them (a
// variable set, a reinstall). Like a status read, a failure is not retried: the next page asks again.

/** A step: the details of the service read again, unless a read waits or runs already. */
export async function queueServerDetails(trx: Tx, serviceId: number, now: Date) {
  return enqueueJob(trx, {
    type: SERVER_DETAILS_JOB,
    payload: { serviceId },
    uniqueKey: `server-details:${serviceId}`,
    maxAttempts: 1,
    now,
  });
}

/** A variable as the card shows it: only what the panel lets its user view comes in the answer. */
export function serverVariableOf(variable: PanelStartupVariable): ServerVariable {
  return {
    env: variable.envVariable,
    name: variable.name,
    description: variable.description,
    value: variable.serverValue,
    defaultValue: variable.defaultValue,
    rules: variable.rules,
    editable: variable.editable,
  };
}

/** The panel user who owns the server: the customer's account as saved, else the server's owner. */
async function ownerId(db: Db, service: { user_id: string; panel_server_id: number | null }) {
  const account = await db
    .selectFrom("panel_accounts")
    .select("panel_user_id")
    .where("user_id", "=", service.user_id)
    .executeTakeFirst();
  return account ? Number(account.panel_user_id) : null;
}

export async function runDetailsRead(
  db: Db,
  config: ServerControlConfig,
  serviceId: number,
  now: Date,
  jobId: number | null = null,
): Promise<Record<string, number>> {
  const service = await db
    .selectFrom("hosting_services")
    .select(["id", "user_id", "panel_state", "panel_identifier", "panel_server_id"])
    .where("id", "=", serviceId)
    .executeTakeFirst();
  if (!service || service.panel_state !== "ready" || !service.panel_identifier)
    return { unread: 1 };
  const identifier = service.panel_identifier;
  const calls: PanelCall[] = [];
  const onCall = (call: PanelCall) => calls.push(call);
  try {
    const api = await panelClientApiFor(db, config.secret, {
      timeoutMs: config.timeoutMs,
      fetch: config.fetch,
      onCall,
    });
    const server = await api.getServer(identifier);
    const variables = await api.listStartupVariables(identifier);
    const found = await panelClientFor(db, {
      secret: config.secret,
      timeoutMs: config.timeoutMs,
      fetch: config.fetch,
      onCall,
    });
    let userId = await ownerId(db, service);
    if (userId === null && found && service.panel_server_id !== null)
      userId = (await found.client.getServer(Number(service.panel_server_id))).userId;
    const user = found && userId !== null ? await found.client.getUser(userId) : null;
    const access: ServerAccess | null = user
      ? {
          host: server.sftp.host,
          port: server.sftp.port,
          username: `${user.username}.${server.identifier}`,
        }
      : null;
    await upsertServerStatus(
      db,
      serviceId,
      {
        ...(access ? { access: JSON.stringify(access) } : {}),
        variables: JSON.stringify(variables.map(serverVariableOf)),
      },
      now,
    );
    return { read: 1 };
  } catch (error) {
    // A failure the panel caused is only counted: the card's reason is the status read's to say, and
    // the next page that finds the details missing asks again. Anything else is a bug: thrown on.
    statusReadError(error);
    return { failed: 1 };
  } finally {
    await recordPanelCalls(db, calls, { serviceId, jobId, now });
  }
}

export function detailsHandler(config: ServerControlConfig): JobHandler {
  return async ({ db, now, payload, job }) =>
    runDetailsRead(db, config, (payload as { serviceId: number }).serviceId, now, Number(job.id));
}
