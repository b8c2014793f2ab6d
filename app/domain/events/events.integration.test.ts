import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { record, type DomainEvent } from "./events.server";

describeEachDatabase("recording a domain event", (app) => {
  /** A credit of 5.00 coins to `userId`, as an admin's adjustment records it. */
  const credit = async (userId: string, key: string): Promise<DomainEvent> => ({
    type: "coins.adjusted",
    actorId: await adminId(app()),
    userId,
    key,
    requestedCents: 500,
    appliedCents: 500,
    balanceBeforeCents: 0,
    balanceCents: 500,
    reason: "goodwill",
  });

  /** What the event's reactions wrote for `userId`: audit actions, notice kinds, mail kinds. */
  const tail = async (userId: string) => ({
    audit: (await readRows(app().db, "audit_log", ["action"], { target_id: userId })).map(
      (row) => row.action,
    ),
    notices: (await readRows(app().db, "notifications", ["kind"], { user_id: userId })).map(
      (row) => row.kind,
    ),
    mail: (await readRows(app().db, "mail_outbox", ["kind"], { user_id: userId })).map(
      (row) => row.kind,
    ),
  });

  it("writes its reactions in the caller's transaction: all of them once committed", async () => {
    const user = await customerWithCoins(app(), 0);
    const before = await tail(user);
    const event = await credit(user, "event-commit");
    await inTransaction(app().db, (trx) => record(trx, event));
    const after = await tail(user);
    expect(after.audit.slice(before.audit.length)).toEqual(["coins.adjust"]);
    expect(after.notices.slice(before.notices.length)).toEqual(["coins_added"]);
    expect(after.mail.slice(before.mail.length)).toEqual(["coinsChanged"]);
  });

  it("writes none of them when the change rolls back", async () => {
    const user = await customerWithCoins(app(), 0);
    const before = await tail(user);
    const event = await credit(user, "event-rollback");
    await expect(
      inTransaction(app().db, async (trx) => {
        await record(trx, event);
        throw new Error("the change failed after its event");
      }),
    ).rejects.toThrow("the change failed after its event");
    expect(await tail(user)).toEqual(before);
  });
});
