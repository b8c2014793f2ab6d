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
  it("an invoice's refund: the audit entry, the customer's notice and the credit note's mail", async () => {
    const userId = await customerWithCoins(app(), 0);
    const actorId = await adminId(app());
    const creditNote = {
      kind: "credit_note",
      number: "HFC-2026-900001",
      totalCents: -1200,
    } as const;
    await inTransaction(app().db, (trx) =>
      record(trx, {
        type: "invoice.refunded",
        actorId,
        invoice: { number: "HF-2026-900001", userId, totalCents: 1200 },
        creditNote,
        method: "coins",
        reason: "Guarantee",
      }),
    );
    const audit = await readRows(
      app().db,
      "audit_log",
      ["actor_id", "action", "target_type", "before", "after", "reason"],
      { target_id: "HF-2026-900001" },
    );
    expect(
      audit.map((row) => ({
        ...row,
        before: JSON.parse(row.before!),
        after: JSON.parse(row.after!),
      })),
    ).toEqual([
      {
        actor_id: actorId,
        action: "invoice.refund",
        target_type: "invoice",
        before: { state: "paid" },
        after: {
          state: "credited",
          creditNote: "HFC-2026-900001",
          method: "coins",
          refundedCents: 1200,
        },
        reason: "Guarantee",
      },
    ]);
    const notices = await readRows(app().db, "notifications", ["kind", "params", "link"], {
      user_id: userId,
      kind: "invoice_refunded",
    });
    expect(notices.map((row) => ({ ...row, params: JSON.parse(row.params) }))).toEqual([
      {
        kind: "invoice_refunded",
        params: { number: "HF-2026-900001", creditNote: "HFC-2026-900001", amountCents: 1200 },
        link: "/invoices/HFC-2026-900001",
      },
    ]);
    const mail = await readRows(app().db, "mail_outbox", ["kind", "unique_key", "params"], {
      user_id: userId,
      kind: "documentIssued",
    });
    expect(mail.map((row) => ({ ...row, params: JSON.parse(row.params) }))).toEqual([
      {
        kind: "documentIssued",
        unique_key: expect.stringContaining("document:HFC-2026-900001"),
        params: expect.objectContaining({ document: creditNote }),
      },
    ]);
  });
});
