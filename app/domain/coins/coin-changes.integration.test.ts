import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { DocumentRef } from "~/domain/mail/mail-events";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntact,
} from "../../../tests/support/money-fixtures";
import { heldTransaction, untilWaitingOnALock } from "../../../tests/support/held-transaction";
import { latestRow, readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { MAX_BALANCE_CENTS } from "./coins";
import { adjustCoins, postLedgerEntry, writeLedgerEntry } from "./coins.server";
import { ledgerReason } from "./ledger-reason";

/** What a change of coins leaves beside the ledger row: its audit, its notification, its mail. */
describeEachDatabase("a change of coins and what it leaves behind", (app, dialect) => {
  const json = (text: string | null) => (text === null ? null : (JSON.parse(text) as unknown));

  /** The audit row, the notification and the mail a change keyed `key` left, their JSON read. */
  async function recordsOf(user: string, key: string) {
    const db = app().db;
    const audit = await latestRow(db, "audit_log", ["before", "after", "reason", "actor_id"], {
      action: "coins.adjust",
      target_id: user,
    });
    const note = await latestRow(db, "notifications", ["kind", "params", "link"], {
      user_id: user,
    });
    const mail = await readRow(db, "mail_outbox", ["params"], {
      unique_key: `coinsChanged:coins:${key}:${user}`,
    });
    return {
      audit: { ...audit, before: json(audit.before), after: json(audit.after) },
      note: { ...note, params: json(note.params) },
      mail: json(mail.params),
    };
  }

  it("records a credit with its receipt whole: the audit, the notification and the mail", async () => {
    const user = await customerWithCoins(app(), 1_000);
    const admin = await adminId(app());
    const issued: { entryId: number; amountCents: number }[] = [];
    const receipt = (_trx: unknown, credit: { entryId: number; amountCents: number }) => {
      issued.push(credit);
      return Promise.resolve<DocumentRef>({
        kind: "receipt",
        number: "R-TEST-1",
        totalCents: credit.amountCents,
      });
    };
    const reason = ledgerReason("ticketPurchase", { id: 7, subject: "Buy coins" });
    const key = randomUUID();
    const result = await adjustCoins(app().db, {
      userId: user,
      amountCents: 2_500,
      reason,
      actorId: admin,
      idempotencyKey: key,
      kind: "coin_purchase",
      receipt,
    });
    expect(result).toEqual({
      ok: true,
      balanceCents: 3_500,
      appliedCents: 2_500,
      clamped: false,
      receipt: { kind: "receipt", number: "R-TEST-1", totalCents: 2_500 },
    });
    const entry = await readRow(app().db, "coin_ledger", ["id", "kind", "reason", "reason_key"], {
      idempotency_key: key,
    });
    expect(entry).toMatchObject({ kind: "coin_purchase", reason_key: "ticketPurchase" });
    expect(entry.reason).toBe("Ticket #7: Buy coins");
    expect(issued).toEqual([{ entryId: Number(entry.id), amountCents: 2_500 }]);

    const { audit, note, mail } = await recordsOf(user, key);
    expect(audit).toEqual({
      before: { balanceCents: 1_000 },
      after: {
        balanceCents: 3_500,
        requestedCents: 2_500,
        appliedCents: 2_500,
        receipt: "R-TEST-1",
      },
      reason: "Ticket #7: Buy coins",
      actor_id: admin,
    });
    expect(note).toEqual({
      kind: "coins_added",
      params: { amountCents: 2_500, balanceCents: 3_500 },
      link: "/dashboard/billing",
    });
    expect(mail).toMatchObject({
      amountCents: 2_500,
      balanceCents: 3_500,
      reason: {
        reason: "Ticket #7: Buy coins",
        reasonKey: "ticketPurchase",
        reasonParams: { id: 7, subject: "Buy coins" },
      },
    });
    await expectLedgerIntact(app());
  });

  it("issues no receipt for a removal, and tells the customer what was removed", async () => {
    const user = await customerWithCoins(app(), 1_000);
    const admin = await adminId(app());
    let receipts = 0;
    const key = randomUUID();
    const result = await adjustCoins(app().db, {
      userId: user,
      amountCents: -400,
      reason: "chargeback",
      actorId: admin,
      idempotencyKey: key,
      link: "/support/12",
      receipt: () => {
        receipts += 1;
        return Promise.resolve<DocumentRef>({ kind: "receipt", number: "R-NO", totalCents: 0 });
      },
    });
    expect(result).toMatchObject({ ok: true, balanceCents: 600, appliedCents: -400 });
    expect(receipts).toBe(0);
    const { audit, note, mail } = await recordsOf(user, key);
    expect(audit.reason).toBe("chargeback");
    expect(audit.after).toEqual({ balanceCents: 600, requestedCents: -400, appliedCents: -400 });
    expect(note).toEqual({
      kind: "coins_removed",
      params: { amountCents: 400, balanceCents: 600 },
      link: "/support/12",
    });
    expect(mail).toMatchObject({
      amountCents: -400,
      reason: { reason: "chargeback", reasonKey: null, reasonParams: null },
    });
  });

  it("answers a replayed clamped removal as clamped, and a key used by another admin as stale", async () => {
    const user = await customerWithCoins(app(), 300);
    const admin = await adminId(app());
    const removal = {
      userId: user,
      amountCents: -1_000,
      reason: "chargeback",
      actorId: admin,
      idempotencyKey: randomUUID(),
    };
    await adjustCoins(app().db, removal);
    expect(await adjustCoins(app().db, removal)).toEqual({
      ok: true,
      balanceCents: 0,
      appliedCents: -300,
      clamped: true,
      duplicate: true,
    });
    // The same form posted by someone else (another admin's session): not theirs to replay.
    expect(await adjustCoins(app().db, { ...removal, actorId: randomUUID() })).toEqual(
      refusal("invalid", "coins.errors.formExpired"),
    );
  });

  it("refuses a ledger entry that is not a whole, non-zero number of cents within the maximum", async () => {
    const user = await customerWithCoins(app(), 0);
    for (const amountCents of [0, 1.5, Number.NaN, MAX_BALANCE_CENTS + 1, -MAX_BALANCE_CENTS - 1])
      await expect(
        app()
          .db.transaction()
          .execute((trx) =>
            writeLedgerEntry(trx, { userId: user, amountCents, kind: "admin_adjustment" }),
          ),
        String(amountCents),
      ).rejects.toThrow(/non-zero whole number of cents/);
    // The maximum itself, in one entry, with no reason: written, its reason empty.
    const posted = await app()
      .db.transaction()
      .execute((trx) =>
        postLedgerEntry(trx, {
          userId: user,
          amountCents: MAX_BALANCE_CENTS,
          kind: "admin_adjustment",
        }),
      );
    expect(posted).toBe(MAX_BALANCE_CENTS);
    const rows = await readRows(app().db, "coin_ledger", ["amount_cents", "reason", "reason_key"], {
      user_id: user,
    });
    expect(rows).toEqual([{ amount_cents: MAX_BALANCE_CENTS, reason: "", reason_key: null }]);
    await expectLedgerIntact(app());
  });

  if (dialect === "postgres")
    describe("when the balance moves between the change's read and its write", () => {
      /**
       * Runs `change` while another transaction holds the customer's row, having moved the balance by
       * `moveCents`; the change read the balance before that commit and writes after it.
       */
      async function racedBy(user: string, moveCents: number, change: () => Promise<unknown>) {
        const other = await heldTransaction(app().db, (trx) =>
          writeLedgerEntry(trx, { userId: user, amountCents: moveCents, kind: "admin_adjustment" }),
        );
        const changing = change();
        await untilWaitingOnALock(app().db);
        await other.commit();
        return changing;
      }

      const writeRichBalance = (user: string, cents: number) =>
        app()
          .db.transaction()
          .execute((trx) =>
            writeLedgerEntry(trx, { userId: user, amountCents: cents, kind: "admin_adjustment" }),
          );

      it("refuses rather than guess: a removal finds nothing left, a credit the maximum reached", async () => {
        const admin = await adminId(app());
        const poor = await customerWithCoins(app(), 300);
        const removal = () =>
          adjustCoins(app().db, { userId: poor, amountCents: -300, reason: "x", actorId: admin });
        expect(await racedBy(poor, -300, removal)).toEqual(
          refusal("conflict", "coins.errors.nothingToRemove"),
        );
        expect(await balanceOf(app(), poor)).toBe(0);

        const rich = await customerWithCoins(app(), 0);
        await writeRichBalance(rich, MAX_BALANCE_CENTS - 100);
        const credit = () =>
          adjustCoins(app().db, { userId: rich, amountCents: 100, reason: "x", actorId: admin });
        expect(await racedBy(rich, 100, credit)).toEqual(
          refusal("conflict", "coins.errors.balanceTooHigh"),
        );
        expect(await balanceOf(app(), rich)).toBe(MAX_BALANCE_CENTS);
        await expectLedgerIntact(app());
      });
    });
});
