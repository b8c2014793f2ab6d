import { inTransaction, type Db, type Tx } from "~/db/transaction";
import {
  PermanentJobError,
  RetryLater,
  type JobContext,
  type JobHandler,
  type JobRow,
} from "~/domain/jobs/jobs.server";
import { recordPanelCalls } from "~/domain/provisioning/panel-calls.server";
import {
  isRetryablePanelFailure,
  PanelError,
  PanelUnreachable,
  type PanelCall,
} from "~/domain/provisioning/pterodactyl-client.server";
import {
  actionOfJob,
  eraseJobPayload,
  settleEndedActions,
  settleServerAction,
} from "./server-action-rows.server";
import { SERVER_ACTION_FAILURE_LABELS, type ServerActionError } from "./server-actions";
import { SERVER_REFUSAL_LABELS, serverActionRefusal } from "./server-control";

// The frame of the jobs that do what was asked of a server (server-action-jobs.server.ts): the action's
// row found by its job, checked again against the service as it is now, the panel's calls recorded, and
// the action settled by how the call ended: done, refused by the panel (the job is done: the panel said
// no, and the card says why), or failed for good (the job is dead and staff are told). A failure another
// attempt may mend (no answer, a 5xx, a 429) is left to the worker's retries until the last attempt.

/** What the action jobs are made with: the auth secret (the keys', the password's), a call's limit. */
export interface ServerActionConfig {
  secret: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

/** The service as an action's job reads it when it runs. */
export type ActionJobService = NonNullable<Awaited<ReturnType<typeof loadActionService>>>;

async function loadActionService(db: Db, serviceId: number) {
  return db
    .selectFrom("hosting_services")
    .select(["id", "user_id", "status", "panel_state", "panel_server_id", "panel_identifier"])
    .where("id", "=", serviceId)
    .executeTakeFirst();
}

/** How a panel call ended, when it did not work. */
export type CallEnd =
  /** The panel refused, as was its right: the action failed, the job is done. */
  | { refused: ServerActionError }
  /** Nothing will change by trying again: the action failed, the job is dead (staff alerted). */
  | { broken: ServerActionError };

/** What the call is about is missing on our side: the server's identifier, the customer's panel user. */
export class ActionTargetMissing extends Error {
  override readonly name = "ActionTargetMissing";
}

/**
 * What a failure that another attempt cannot mend comes to, common to every action (each job reads its
 * own refusals first): a 5xx of the Client API is its node's (the panel answers so when Wings does not).
 */
function commonEnd(error: unknown, api: "client" | "application"): { broken: ServerActionError } {
  if (error instanceof ActionTargetMissing)
    return { broken: SERVER_ACTION_FAILURE_LABELS.notFound };
  if (error instanceof PanelError) {
    if (error.status === 404) return { broken: SERVER_ACTION_FAILURE_LABELS.notFound };
    if (error.status === 429) return { broken: SERVER_ACTION_FAILURE_LABELS.unreachable };
    if (error.status >= 500 && api === "client")
      return { broken: SERVER_ACTION_FAILURE_LABELS.nodeDown };
    return { broken: SERVER_ACTION_FAILURE_LABELS.panelError };
  }
  if (error instanceof PanelUnreachable)
    return { broken: SERVER_ACTION_FAILURE_LABELS.unreachable };
  return { broken: SERVER_ACTION_FAILURE_LABELS.panelError };
}

export interface ActionJobSpec<Payload> {
  /** Which of the panel's APIs the call is made to (a 5xx of the Client API is its node's). */
  api: "client" | "application";
  /** Whether the payload carries a secret (a password, a variable's value): erased when the job ends. */
  secret: boolean;
  /** Whether the payload holds what the call needs: an erased one (a dead job queued again) does not. */
  complete: (payload: Partial<Payload>) => payload is Payload;
  /** The panel's call(s); `onCall` records each. */
  run: (work: {
    db: Db;
    service: ActionJobService;
    payload: Payload;
    onCall: (call: PanelCall) => void;
  }) => Promise<void>;
  /** How a failure of `run` that another attempt cannot mend ends the action (else `commonEnd`). */
  ends: (error: unknown) => CallEnd | null;
  /** In the transaction that settles the action, whatever its end: the reads that follow. */
  then?: (trx: Tx, service: ActionJobService, now: Date) => Promise<void>;
  /** Checked before the call: a reason the action is not to be sent any more (a newer signal). */
  stale?: (db: Db, action: { id: number; serviceId: number }) => Promise<ServerActionError | null>;
}

/** The end of an action that the job settles and completes in one transaction. */
async function settleAndComplete<Payload>(
  context: JobContext,
  spec: ActionJobSpec<Payload>,
  action: { id: number; service: ActionJobService | null },
  outcome: { state: "done" } | { state: "failed"; error: ServerActionError },
) {
  await inTransaction(context.db, async (trx) => {
    await settleServerAction(trx, action.id, outcome, context.now);
    if (spec.secret) await eraseJobPayload(trx, Number(context.job.id));
    if (spec.then && action.service) await spec.then(trx, action.service, context.now);
    await context.complete(trx);
  });
}

const isLastAttempt = (job: JobRow) => job.attempts >= job.max_attempts;

/** A job handler made from `spec` (see the file's opening). */
export function actionJob<Payload extends object>(spec: ActionJobSpec<Payload>): JobHandler {
  return async (context): Promise<Record<string, number>> => {
    const { db, now, job } = context;
    const payload = context.payload as Partial<Payload>;
    const jobId = Number(job.id);
    const row = await actionOfJob(db, jobId);
    const last = isLastAttempt(job);
    // On its last attempt the payload goes before the call: a worker that dies now leaves no secret.
    if (spec.secret && (last || !row)) await eraseJobPayload(db, jobId);
    // The service is gone (its actions with it), or the payload was erased when the job ended before
    // (an admin queued the dead job again): its action was settled then.
    if (!row || !spec.complete(payload)) return { skipped: 1 };
    await settleEndedActions(db, row.hosting_service_id, now);
    const action = { id: Number(row.id), serviceId: Number(row.hosting_service_id) };
    const service = (await loadActionService(db, action.serviceId)) ?? null;
    // Suspended or gone since it was asked: not sent.
    const refusal = service
      ? serverActionRefusal({
          serviceStatus: service.status,
          panelState: service.panel_state,
          state: "unknown",
        })
      : "notProvisioned";
    const notNow = refusal ? SERVER_REFUSAL_LABELS[refusal] : await spec.stale?.(db, action);
    if (notNow || !service) {
      const error = notNow ?? SERVER_ACTION_FAILURE_LABELS.notFound;
      await settleAndComplete(
        context,
        spec,
        { id: action.id, service },
        { state: "failed", error },
      );
      return { refused: 1 };
    }
    const calls: PanelCall[] = [];
    try {
      await spec.run({ db, service, payload, onCall: (call) => calls.push(call) });
    } catch (error) {
      await recordPanelCalls(db, calls, { serviceId: service.id, jobId, now });
      const end = spec.ends(error);
      if (end && "refused" in end) {
        await settleAndComplete(
          context,
          spec,
          { id: action.id, service },
          {
            state: "failed",
            error: end.refused,
          },
        );
        return { refused: 1 };
      }
      const retry = !end && !last && (isRetryablePanelFailure(error) || !isPanelFailure(error));
      if (retry) {
        if (error instanceof PanelError && error.status === 429)
          throw new RetryLater(
            new Date(now.getTime() + (error.retryAfterSeconds ?? 60) * 1000),
            "The panel asked to wait (429)",
          );
        throw error;
      }
      const failure = (end && "broken" in end ? end : commonEnd(error, spec.api)).broken;
      await inTransaction(db, async (trx) => {
        await settleServerAction(trx, action.id, { state: "failed", error: failure }, now);
        if (spec.secret) await eraseJobPayload(trx, jobId);
        if (spec.then) await spec.then(trx, service, now);
      });
      // Dead: staff are told (the worker's alert), with the panel's words and never the payload.
      throw new PermanentJobError(failureWords(error), { cause: error });
    }
    await recordPanelCalls(db, calls, { serviceId: service.id, jobId, now });
    await settleAndComplete(context, spec, { id: action.id, service }, { state: "done" });
    return { done: 1 };
  };
}

/** A failure of the panel's (an answer or none), as opposed to one of ours (a bug, the database). */
function isPanelFailure(error: unknown): boolean {
  return (
    error instanceof PanelError ||
    error instanceof PanelUnreachable ||
    error instanceof ActionTargetMissing
  );
}

/** What the dead job's error says: the panel's status, code and words, or the error's message. */
function failureWords(error: unknown): string {
  if (error instanceof PanelError) return `${error.status} ${error.code}: ${error.detail}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}
