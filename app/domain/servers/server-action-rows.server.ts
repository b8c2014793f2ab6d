import type { Db, Tx } from "~/db/transaction";
import { SERVER_PASSWORD_JOB, SERVER_VARIABLE_JOB } from "./server-job-types";
import { SERVER_ACTION_FAILURE_LABELS, type ServerActionError } from "./server-actions";
import {
  POWER_SIGNALS,
  SERVER_ACTION_LIMITS,
  type ServerAction,
  type ServerActionFamily,
} from "./server-control";

// The rows of `server_actions` (docs/server-control.md, "Actions"): one per thing asked of a server,
// written when it is asked, settled (done or failed) by the job that does it. What the limits count and
// what the card shows as the last action. Never a password or a variable's value: the panel has those.

/** The actions of a family, as `server_actions.action` names them. */
export function actionsOf(family: ServerActionFamily): readonly ServerAction[] {
  return family === "power" ? POWER_SIGNALS : [family];
}

/**
 * Step: whether the service may ask one more action of `family` at `now`: fewer than its limit asked
 * within its window (SERVER_ACTION_LIMITS), whatever became of them (a refused or failed one cost the
 * panel a request all the same).
 */
export async function withinActionLimit(
  trx: Tx,
  serviceId: number,
  family: ServerActionFamily,
  now: Date,
): Promise<boolean> {
  const limit = SERVER_ACTION_LIMITS[family];
  const since = new Date(now.getTime() - limit.windowMs).toISOString();
  const row = await trx
    .selectFrom("server_actions")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("hosting_service_id", "=", serviceId)
    .where("action", "in", actionsOf(family))
    .where("created_at", ">", since)
    .executeTakeFirstOrThrow();
  return Number(row.count) < limit.count;
}

/** Step: the row of an action just asked, queued with the job that does it. */
export async function insertServerAction(
  trx: Tx,
  input: {
    serviceId: number;
    action: ServerAction;
    /** A variable's name (never its value). */
    detail: string | null;
    actorId: string;
    jobId: number | null;
    now: Date;
  },
): Promise<number> {
  const at = input.now.toISOString();
  const row = await trx
    .insertInto("server_actions")
    .values({
      hosting_service_id: input.serviceId,
      action: input.action,
      detail: input.detail,
      state: "queued",
      actor_id: input.actorId,
      job_id: input.jobId,
      created_at: at,
      updated_at: at,
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  return Number(row.id);
}

export type ActionOutcome = { state: "done" } | { state: "failed"; error: ServerActionError };

const settled = (outcome: ActionOutcome, now: Date) => ({
  state: outcome.state,
  error: outcome.state === "failed" ? outcome.error : null,
  updated_at: now.toISOString(),
});

/** The action a job does, found by the job (its row names it). */
export async function actionOfJob(db: Db | Tx, jobId: number) {
  return db
    .selectFrom("server_actions")
    .select(["id", "hosting_service_id", "action", "detail", "state"])
    .where("job_id", "=", jobId)
    .orderBy("id", "desc")
    .executeTakeFirst();
}

/**
 * How the action ended. Whatever it was before: a job that an admin queued again from /admin/automation
 * after it died has the last word on its own action.
 */
export async function settleServerAction(
  db: Db | Tx,
  actionId: number,
  outcome: ActionOutcome,
  now: Date,
): Promise<void> {
  await db
    .updateTable("server_actions")
    .set(settled(outcome, now))
    .where("id", "=", actionId)
    .execute();
}

/**
 * How the reinstalls a customer or an admin asked of a server ended: the provisioning jobs that do them
 * (the reinstall, then the watch of its install) call this when the install is over or they gave up.
 */
export async function settleQueuedReinstalls(
  db: Db | Tx,
  serviceId: number,
  outcome: ActionOutcome,
  now: Date,
): Promise<void> {
  await db
    .updateTable("server_actions")
    .set(settled(outcome, now))
    .where("hosting_service_id", "=", serviceId)
    .where("action", "=", "reinstall")
    .where("state", "=", "queued")
    .execute();
}

/** The job types whose payload carries what is erased when they end: a password, a variable's value. */
const SECRET_PAYLOAD_JOBS = [SERVER_PASSWORD_JOB, SERVER_VARIABLE_JOB];

/**
 * Step: the job's payload is emptied (what it carried, a password or a variable's value, is gone from
 * our database). Its type, state and error stay for /admin/automation.
 */
export async function eraseJobPayload(db: Db | Tx, jobId: number): Promise<void> {
  await db.updateTable("jobs").set({ payload: "{}" }).where("id", "=", jobId).execute();
}

/**
 * What the jobs could not settle themselves, settled: a job whose worker died during its last attempt
 * is buried by the worker (jobs.server.ts, buryExhaustedJobs) without running its handler again, and one
 * an admin discarded is deleted. Their actions would be queued for ever and their payloads kept; here
 * the actions of `serviceId` whose job is dead or gone are failed, and its ended jobs of the secret
 * kinds are emptied. Run when a service's action is asked and as each action's job starts.
 */
export async function settleEndedActions(db: Db | Tx, serviceId: number, now: Date) {
  await db
    .updateTable("jobs")
    .set({ payload: "{}" })
    .where("id", "in", (eb) =>
      eb
        .selectFrom("server_actions")
        .select("job_id")
        .where("hosting_service_id", "=", serviceId)
        .where("job_id", "is not", null),
    )
    .where("type", "in", SECRET_PAYLOAD_JOBS)
    .where("state", "in", ["succeeded", "dead"])
    .where("payload", "!=", "{}")
    .execute();
  await db
    .updateTable("server_actions")
    .set(settled({ state: "failed", error: SERVER_ACTION_FAILURE_LABELS.unreachable }, now))
    .where("hosting_service_id", "=", serviceId)
    .where("state", "=", "queued")
    .where((eb) =>
      eb.or([
        eb("job_id", "is", null),
        eb.not(
          eb.exists(
            eb
              .selectFrom("jobs")
              .select("jobs.id")
              .whereRef("jobs.id", "=", "server_actions.job_id")
              .where("jobs.state", "!=", "dead"),
          ),
        ),
      ]),
    )
    .execute();
}
