import { symmetricDecrypt } from "better-auth/crypto";
import type { Db } from "~/db/transaction";
import type { JobHandler } from "~/domain/jobs/jobs.server";
import {
  panelClientApiFor,
  panelClientFor,
  PanelClientKeyMissing,
  PanelKeyNotForUrl,
  PanelKeyUnreadable,
} from "~/domain/provisioning/panel-connection.server";
import { isServerStateConflict } from "~/domain/provisioning/pterodactyl-client-api.server";
import {
  PanelAddressRefused,
  PanelError,
  type PanelCall,
} from "~/domain/provisioning/pterodactyl-client.server";
import {
  actionJob,
  ActionTargetMissing,
  type ActionJobService,
  type CallEnd,
  type ServerActionConfig,
} from "./server-action-job-kit.server";
import { SERVER_ACTION_FAILURE_LABELS } from "./server-actions";
import { POWER_SIGNALS, SERVER_REFUSAL_LABELS, type PowerSignal } from "./server-control";
import { queueServerDetails } from "./server-details-job.server";
import { SERVER_PASSWORD_JOB, SERVER_POWER_JOB, SERVER_VARIABLE_JOB } from "./server-job-types";
import { queueStatusRead } from "./server-status-job.server";

// What a customer or an admin asked of a server, done on the worker (docs/server-control.md,
// "Actions"): a power signal and a variable through the panel's Client API (the root admin's client
// key, only ever for the service's own identifier), a new password through its Application API. Each
// job settles its action (server-action-job-kit.server.ts); the reinstall is the provisioning jobs'.

/** The Client API with the root admin's saved client key; every call is recorded. */
function clientApiOf(db: Db, config: ServerActionConfig, onCall: (call: PanelCall) => void) {
  return panelClientApiFor(db, config.secret, {
    timeoutMs: config.timeoutMs,
    fetch: config.fetch,
    onCall,
  });
}

// ─── The Client API's failures ───

/** The client key is not there, not readable, or saved for another address: staff must act. */
function keyEnd(error: unknown): CallEnd | null {
  return error instanceof PanelClientKeyMissing ||
    error instanceof PanelKeyUnreadable ||
    error instanceof PanelKeyNotForUrl ||
    error instanceof PanelAddressRefused
    ? { broken: SERVER_REFUSAL_LABELS.noClientKey }
    : null;
}

/**
 * A 409 says why the panel will not act on the server now (ServerStateConflictException): suspended,
 * not installed yet, or busy with what we do not show (a transfer, a backup being restored, its node
 * under maintenance).
 */
function conflictEnd(error: unknown): CallEnd | null {
  if (!isServerStateConflict(error)) return null;
  const detail = error instanceof PanelError ? error.detail : "";
  if (/suspended/i.test(detail)) return { refused: SERVER_REFUSAL_LABELS.suspended };
  if (/installation/i.test(detail)) return { refused: SERVER_REFUSAL_LABELS.installing };
  return { refused: SERVER_ACTION_FAILURE_LABELS.busy };
}

/** The server's short identifier, which every Client API call names; a service without one is lost. */
function identifierOf(service: ActionJobService): string {
  if (!service.panel_identifier)
    throw new ActionTargetMissing("The service has no server identifier on the panel");
  return service.panel_identifier;
}

// ─── The jobs ───

interface PowerPayload {
  serviceId: number;
  signal: PowerSignal;
}

/**
 * A power signal (`servers.power`), then a status read at once. A newer signal asked meanwhile has the
 * last word: this one is not sent (its action fails as replaced), so a "stop" then "start" asked
 * quickly never reaches the panel the other way round.
 */
function powerHandler(config: ServerActionConfig): JobHandler {
  return actionJob<PowerPayload>({
    api: "client",
    secret: false,
    complete: (payload): payload is PowerPayload =>
      typeof payload.serviceId === "number" &&
      (POWER_SIGNALS as readonly unknown[]).includes(payload.signal),
    stale: async (db, action) => {
      const newer = await db
        .selectFrom("server_actions")
        .select("id")
        .where("hosting_service_id", "=", action.serviceId)
        .where("action", "in", POWER_SIGNALS)
        .where("id", ">", action.id)
        .executeTakeFirst();
      return newer ? SERVER_ACTION_FAILURE_LABELS.superseded : null;
    },
    run: async ({ db, service, payload, onCall }) => {
      const api = await clientApiOf(db, config, onCall);
      await api.sendPower(identifierOf(service), payload.signal);
    },
    ends: (error) => keyEnd(error) ?? conflictEnd(error),
    // At once, whatever the cache's age: the card shows the state moving.
    then: async (trx, service, now) => void (await queueStatusRead(trx, service.id, now)),
  });
}

interface VariablePayload {
  serviceId: number;
  env: string;
  value: string;
}

/**
 * One egg variable (`servers.variable`), then the details read again (the panel's own value, and the
 * list of what may be edited, which may have changed). The panel checks the value with the variable's
 * rules once more: a value refused there (422), or a variable it no longer lets its user edit (400),
 * fails the action; the job is done.
 */
function variableHandler(config: ServerActionConfig): JobHandler {
  return actionJob<VariablePayload>({
    api: "client",
    secret: true,
    complete: (payload): payload is VariablePayload =>
      typeof payload.serviceId === "number" &&
      typeof payload.env === "string" &&
      typeof payload.value === "string",
    run: async ({ db, service, payload, onCall }) => {
      const api = await clientApiOf(db, config, onCall);
      await api.updateStartupVariable(identifierOf(service), payload.env, payload.value);
    },
    ends: (error) => {
      const known = keyEnd(error) ?? conflictEnd(error);
      if (known || !(error instanceof PanelError)) return known;
      if (error.status === 422) return { refused: SERVER_ACTION_FAILURE_LABELS.valueRefused };
      if (error.status === 400) return { refused: SERVER_REFUSAL_LABELS.notEditable };
      return null;
    },
    then: async (trx, service, now) => void (await queueServerDetails(trx, service.id, now)),
  });
}

interface PasswordPayload {
  serviceId: number;
  /** The password, encrypted with the auth secret. */
  password: string;
}

/** The password could not be read back (the auth secret changed since it was asked). */
class SealedPasswordUnreadable extends Error {}

/**
 * A new password on the customer's panel account (`servers.password`), through the Application API:
 * read back from the payload, sent, and the payload erased with the action's end (done, failed, or the
 * job dead), as on the last attempt before the call.
 */
function passwordHandler(config: ServerActionConfig): JobHandler {
  return actionJob<PasswordPayload>({
    api: "application",
    secret: true,
    complete: (payload): payload is PasswordPayload =>
      typeof payload.serviceId === "number" && typeof payload.password === "string",
    run: async ({ db, service, payload, onCall }) => {
      const account = await db
        .selectFrom("panel_accounts")
        .select("panel_user_id")
        .where("user_id", "=", service.user_id)
        .executeTakeFirst();
      if (!account) throw new ActionTargetMissing("The customer has no user on the panel");
      let password: string;
      try {
        password = await symmetricDecrypt({ key: config.secret, data: payload.password });
      } catch (error) {
        throw new SealedPasswordUnreadable("The password could not be decrypted", { cause: error });
      }
      const found = await panelClientFor(db, {
        secret: config.secret,
        timeoutMs: config.timeoutMs,
        fetch: config.fetch,
        onCall,
        retryReads: true,
      });
      if (!found) throw new PanelKeyUnreadable();
      await found.client.setUserPassword(Number(account.panel_user_id), password);
    },
    ends: (error) => {
      if (
        error instanceof SealedPasswordUnreadable ||
        error instanceof PanelKeyUnreadable ||
        error instanceof PanelKeyNotForUrl ||
        error instanceof PanelAddressRefused
      )
        return { broken: SERVER_ACTION_FAILURE_LABELS.panelError };
      return null;
    },
  });
}

/** The action jobs' handlers, by job type (the worker's map of server control includes them). */
export function serverActionHandlers(config: ServerActionConfig): Record<string, JobHandler> {
  return {
    [SERVER_POWER_JOB]: powerHandler(config),
    [SERVER_VARIABLE_JOB]: variableHandler(config),
    [SERVER_PASSWORD_JOB]: passwordHandler(config),
  };
}
