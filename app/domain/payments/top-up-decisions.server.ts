import type { Updateable } from "kysely";
import { record } from "~/domain/events/events.server";
import type { Database } from "~/db/schema";
import { inTransaction, refuse, type Db, type Tx } from "~/db/transaction";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import { creditTopUp } from "./top-up-credit.server";
import { auditView, findRequest, topUpRef, type TopUpResult } from "./top-up-rows.server";
import { OPEN_TOP_UP_STATES, type TopUpState } from "./top-ups";

// The staff's decision on a top-up request (docs/payments.md#the-rules): approve (the credit is
// top-up-credit.server.ts's step) or reject, by a member of the staff whose role decides top-ups, while
// the request is open.

/**
 * A decision's actor must be a member of the staff holding `topups.decide`, whatever route called: the
 * domain checks it as well (anyone who is no member of the staff at all: `adminOnly`).
 */
async function requireDecider(trx: Tx, adminId: string) {
  await requireStaffPermission(trx, adminId, "topups.decide", {
    notStaff: { ok: false, kind: "forbidden", error: "payments.errors.adminOnly" },
  });
}

/**
 * Closes an open request as `state` in one conditional statement: of two admins deciding at once (or a
 * post replayed), one moves it and the other finds it decided. On PostgreSQL the second waits for the
 * first's row lock and reads the row again; on SQLite writers take turns.
 */
async function decide(
  trx: Tx,
  requestId: number,
  change: Updateable<Database["top_up_requests"]> & { state: TopUpState; decided_by: string },
) {
  const before = await findRequest(trx, requestId);
  if (!before) refuse<TopUpResult>("notFound", "payments.errors.topUpNotFound");
  const now = new Date().toISOString();
  const moved = await trx
    .updateTable("top_up_requests")
    .set({ ...change, decided_at: now, updated_at: now } as never)
    .where("id", "=", requestId)
    .where("state", "in", OPEN_TOP_UP_STATES)
    .returning("id")
    .executeTakeFirst();
  if (!moved) refuse<TopUpResult>("conflict", "payments.errors.topUpNotOpen");
  return { before, after: (await findRequest(trx, requestId))! };
}

/**
 * An admin approves a request (the money arrived), optionally for another number of coins (another
 * amount was received): the coins are credited through the ledger exactly once. Three guards make it
 * once: the conditional move out of an open state (`decide`), in the same transaction as the ledger
 * entry (`creditTopUp`), whose idempotency key `top-up:<id>` is unique in the ledger. Audited; the
 * customer is told (a notification and the coins mail).
 */
export async function approveTopUp(
  db: Db,
  input: { adminId: string; requestId: number; coins?: number },
): Promise<TopUpResult | StaffForbidden> {
  return inTransaction(db, async (trx) => {
    await requireDecider(trx, input.adminId);
    const { before, after } = await decide(trx, input.requestId, {
      state: "approved",
      decided_by: input.adminId,
      credited_coins: input.coins ?? null,
    });
    await creditTopUp(trx, {
      actorId: input.adminId,
      before,
      after,
      coins: input.coins ?? before.coins,
    });
    return { ok: true as const, request: after };
  });
}

/**
 * An admin rejects a request, with the reason the customer reads. Audited; the customer is told (a
 * notification and the `topUpRejected` mail, which always goes out: docs/mail.md#documents-and-top-ups).
 */
export async function rejectTopUp(
  db: Db,
  input: { adminId: string; requestId: number; reason: string },
): Promise<TopUpResult | StaffForbidden> {
  return inTransaction(db, async (trx) => {
    await requireDecider(trx, input.adminId);
    const { before, after } = await decide(trx, input.requestId, {
      state: "rejected",
      decided_by: input.adminId,
      reject_reason: input.reason,
    });
    await record(trx, {
      type: "topUp.rejected",
      actorId: input.adminId,
      request: topUpRef(before),
      change: { before: auditView(before), after: auditView(after) },
      reason: input.reason,
    });
    return { ok: true as const, request: after };
  });
}
