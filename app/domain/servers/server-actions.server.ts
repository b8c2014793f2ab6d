import { randomInt } from "node:crypto";
import { symmetricEncrypt } from "better-auth/crypto";
import { isPostgres } from "~/db/dialect";
import { inTransaction, Refusal, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import type { ServerActionEvent } from "~/domain/events/server-action-events.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { validateEggVariables } from "~/domain/provisioning/egg-variables";
import { queuePanelReinstall } from "~/domain/provisioning/provisioning.server";
import {
  insertServerAction,
  settleEndedActions,
  withinActionLimit,
} from "./server-action-rows.server";
import { drawPanelPassword, variableRuleError, type ServerActionRequest } from "./server-actions";
import {
  actionFamily,
  serverActionRefusal,
  SERVER_REFUSAL_LABELS,
  type ServerAction,
  type ServerRefusal,
  type ServerState,
  type ServerVariable,
} from "./server-control";
import { SERVER_PASSWORD_JOB, SERVER_POWER_JOB, SERVER_VARIABLE_JOB } from "./server-job-types";

export type { ServerActionRequest } from "./server-actions";

// What a customer or an admin asks of a server (docs/server-control.md): checked here (the service is
// theirs, not suspended, not installing, within its limits), recorded in `server_actions`, audited, and
// done by a job on the worker; the card shows it moving.

export interface ServerActionInput {
  serviceId: number;
  actorId: string;
  /** Staff act on any service; a customer only on their own. */
  asStaff: boolean;
  now?: Date;
}

export type ServerActionResult =
  | { ok: true; actionId: number }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  | {
      ok: false;
      kind: "conflict" | "limited";
      refusal: ServerRefusal;
      error: (typeof SERVER_REFUSAL_LABELS)[ServerRefusal];
    }
  | {
      ok: false;
      kind: "invalid";
      fieldErrors: Record<string, string>;
      /** The values a field's message names ("from {{min}} to {{max}}"), by field. */
      fieldErrorValues?: Record<string, Record<string, string | number>>;
      error: string;
    };

type Refused = Exclude<ServerActionResult, { ok: true }>;

function notFound(): never {
  throw new Refusal<Refused>({ ok: false, kind: "notFound", error: "services.errors.notFound" });
}

function refused(refusal: ServerRefusal, kind: "conflict" | "limited" = "conflict"): never {
  throw new Refusal<Refused>({ ok: false, kind, refusal, error: SERVER_REFUSAL_LABELS[refusal] });
}

/** The service an action is asked of, with its cached state, as the checks below read it. */
async function serviceOf(trx: Tx, input: ServerActionInput) {
  // On PostgreSQL the service's row is held to the end, so two requests at once count each other's
  // action against the limit (SQLite's transactions hold its single write lock already).
  if (isPostgres(trx))
    await trx
      .selectFrom("hosting_services")
      .select("id")
      .where("id", "=", input.serviceId)
      .forUpdate()
      .execute();
  let query = trx
    .selectFrom("hosting_services")
    .leftJoin("server_status", "server_status.hosting_service_id", "hosting_services.id")
    .select([
      "hosting_services.id",
      "hosting_services.user_id",
      "hosting_services.status",
      "hosting_services.panel_state",
      "server_status.state",
      "server_status.variables",
      "server_status.access",
    ])
    .where("hosting_services.id", "=", input.serviceId);
  if (!input.asStaff) query = query.where("hosting_services.user_id", "=", input.actorId);
  return (await query.executeTakeFirst()) ?? notFound();
}

type ActionService = Awaited<ReturnType<typeof serviceOf>>;

/**
 * The checks every action shares, in one transaction with what it writes: the service is the actor's
 * (any, for staff: another's answers as a missing one), it is on the panel and ready, neither suspended
 * nor being installed (by our status, the panel state, or the last state read), and the family of the
 * action is within its limit. Actions whose job ended without settling them are settled first, so
 * the limit and the card see them as they are.
 */
async function actionableService(
  trx: Tx,
  input: ServerActionInput,
  action: ServerAction,
  now: Date,
): Promise<ActionService> {
  const service = await serviceOf(trx, input);
  const refusal = serverActionRefusal({
    serviceStatus: service.status,
    panelState: service.panel_state,
    state: (service.state ?? "unknown") as ServerState,
  });
  if (refusal) refused(refusal);
  await settleEndedActions(trx, service.id, now);
  if (!(await withinActionLimit(trx, service.id, actionFamily(action), now)))
    refused("tooMany", "limited");
  return service;
}

/** The Client API's calls (power, variables) need the root admin's client key, saved or not. */
async function refuseWithoutClientKey(trx: Tx) {
  const connection = await trx
    .selectFrom("panel_connections")
    .select("client_key_encrypted")
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!connection?.client_key_encrypted) refused("noClientKey");
}

/** The variables the last details read found (`server_status.variables`), none when unread. */
function cachedVariables(json: string | null): ServerVariable[] {
  if (!json) return [];
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed)
      ? parsed.filter(
          (each): each is ServerVariable =>
            typeof each === "object" &&
            each !== null &&
            typeof (each as ServerVariable).env === "string" &&
            typeof (each as ServerVariable).rules === "string" &&
            (each as ServerVariable).editable === true,
        )
      : [];
  } catch {
    return [];
  }
}

/**
 * A variable's new value, checked as the panel checks it (StartupController: the variable's own rules,
 * after the panel trimmed it and read an empty value as null) before anything is queued. Only a
 * variable the panel lets its user edit, as the last details read found it; a rule only the panel checks
 * is left to the panel, and a refusal there fails the action.
 */
function checkVariable(service: ActionService, env: string, value: string): void {
  const variable = cachedVariables(service.variables).find((each) => each.env === env);
  if (!variable) refused("notEditable");
  const checked = validateEggVariables(
    [
      {
        name: variable.name,
        envVariable: variable.env,
        defaultValue: variable.defaultValue,
        rules: variable.rules,
        userEditable: true,
      },
    ],
    { [env]: value },
  );
  const [first] = checked.errors;
  if (first)
    throw new Refusal<Refused>({
      ok: false,
      kind: "invalid",
      fieldErrors: { value: variableRuleError(first.message) },
      fieldErrorValues: { value: first.values },
      error: "services.server.errors.variableRefused",
    });
}

/** The row of `server_actions` and the audit's event of an action just queued. */
async function recordAction(
  trx: Tx,
  input: ServerActionInput,
  action: { action: ServerAction; variable: string | null; jobId: number | null; now: Date },
): Promise<number> {
  const actionId = await insertServerAction(trx, {
    serviceId: input.serviceId,
    action: action.action,
    detail: action.variable,
    actorId: input.actorId,
    jobId: action.jobId,
    now: action.now,
  });
  const who = { actorId: input.actorId, asStaff: input.asStaff, serviceId: input.serviceId };
  const event: ServerActionEvent =
    action.action === "reinstall"
      ? { type: "server.reinstallRequested", ...who, actionId }
      : action.action === "password"
        ? { type: "server.passwordRequested", ...who, actionId }
        : action.action === "variable"
          ? { type: "server.variableRequested", ...who, actionId, variable: action.variable ?? "" }
          : { type: "server.powerRequested", ...who, actionId, signal: action.action };
  await record(trx, event, action.now);
  return actionId;
}

/** How many times a job that talks to the panel is tried (the worker's backoff between). */
const ACTION_ATTEMPTS = 4;

/** A power signal, a reinstall or a variable: queued as a job, or refused with its reason. */
export async function requestServerAction(
  db: Db,
  input: ServerActionInput & { request: ServerActionRequest },
): Promise<ServerActionResult> {
  const { request } = input;
  const action: ServerAction = request.kind === "power" ? request.signal : request.kind;
  return inTransaction(db, async (trx): Promise<ServerActionResult> => {
    const now = input.now ?? new Date();
    const service = await actionableService(trx, input, action, now);
    let jobId: number | null;
    if (request.kind === "power") {
      await refuseWithoutClientKey(trx);
      jobId = await enqueueJob(trx, {
        type: SERVER_POWER_JOB,
        payload: { serviceId: service.id, signal: request.signal },
        maxAttempts: ACTION_ATTEMPTS,
        now,
      });
    } else if (request.kind === "variable") {
      checkVariable(service, request.env, request.value);
      await refuseWithoutClientKey(trx);
      // The value rides in the job's payload, which is emptied when the job ends (a variable may be a
      // password of the game's own, RCON's); it is never in the action's row nor the audit.
      jobId = await enqueueJob(trx, {
        type: SERVER_VARIABLE_JOB,
        payload: { serviceId: service.id, env: request.env, value: request.value },
        maxAttempts: ACTION_ATTEMPTS,
        now,
      });
    } else {
      // The admin's path (docs/provisioning.md): the Application API's reinstall, then the install
      // watched until the server is ready again, with the service's panel state `installing` meanwhile
      // (so every action is refused until it is over) and the customer told when it is ready. The
      // Client API's reinstall would leave the panel state `ready` and nobody watching the install.
      // One reinstall waits or runs at a time, the admin's or the customer's.
      jobId = await queuePanelReinstall(trx, service.id, now);
      if (jobId === null) refused("installing");
    }
    const actionId = await recordAction(trx, input, {
      action,
      variable: request.kind === "variable" ? request.env : null,
      jobId,
      now,
    });
    return { ok: true, actionId };
  });
}

export type PanelPasswordResult =
  | { ok: true; actionId: number; password: string; username: string | null }
  | Exclude<ServerActionResult, { ok: true }>;

/** The SFTP username the last details read found (`<panel username>.<short identifier>`), if any. */
function sftpUsername(json: string | null): string | null {
  if (!json) return null;
  try {
    const access = JSON.parse(json) as { username?: unknown };
    return typeof access.username === "string" && access.username !== "" ? access.username : null;
  } catch {
    return null;
  }
}

/**
 * A new password for the customer's game panel and SFTP account: drawn here, shown once to the person
 * who asked, sent to the panel by a job (encrypted in its payload until then, erased after), never kept.
 */
export async function requestPanelPassword(
  db: Db,
  input: ServerActionInput & { secret: string },
): Promise<PanelPasswordResult> {
  const password = drawPanelPassword(randomInt);
  // Encrypted with the auth secret before the transaction (the panel key's cipher): the job's payload
  // is the only place it is written, and a copy of the database alone does not read it.
  const sealed = await symmetricEncrypt({ key: input.secret, data: password });
  return inTransaction(db, async (trx): Promise<PanelPasswordResult> => {
    const now = input.now ?? new Date();
    const service = await actionableService(trx, input, "password", now);
    const account = await trx
      .selectFrom("panel_accounts")
      .select("panel_user_id")
      .where("user_id", "=", service.user_id)
      .executeTakeFirst();
    if (!account) refused("notProvisioned");
    const jobId = await enqueueJob(trx, {
      type: SERVER_PASSWORD_JOB,
      payload: { serviceId: service.id, password: sealed },
      maxAttempts: ACTION_ATTEMPTS,
      now,
    });
    const actionId = await recordAction(trx, input, {
      action: "password",
      variable: null,
      jobId,
      now,
    });
    return { ok: true, actionId, password, username: sftpUsername(service.access) };
  });
}
