import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { topUpLedgerKey } from "~/domain/payments/top-up-credit.server";
import { approveTopUp, rejectTopUp } from "~/domain/payments/top-up-decisions.server";
import type { TopUpRequest } from "~/domain/payments/top-ups";
import {
  adminId,
  customerWithCoins,
  expectLedgerIntactAfterEach,
} from "../../../tests/support/money-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { openTopUp } from "../../../tests/support/top-up-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { issuePaymentReceipt } from "./issuing.server";
import { findInvoiceDiscrepancies } from "./reconciliation.server";

// npm run check:ledger's top-up checks (docs/payments.md): each discrepancy is made by writing
// the bad rows directly, as a bug or a hand edit would, and must be reported; the books of top-ups made
// through the use-cases agree.

describeEachDatabase(
  "check:ledger: every approved top-up has one credit and one receipt",
  (app) => {
    // The balances stay right throughout: the bad rows are written through the ledger's own step.
    expectLedgerIntactAfterEach(app);

    const label = (request: TopUpRequest) => `top-up #${request.id} (${request.reference})`;
    /** What the check says of one request (the file's other tests leave their own problems). */
    async function problemsOf(request: TopUpRequest) {
      return (await findInvoiceDiscrepancies(app().db))
        .filter((each) => each.number === label(request))
        .map((each) => each.problem);
    }
    async function approved(coins: number, options: { credited?: number } = {}) {
      const customer = await customerWithCoins(app(), 0);
      const request = await openTopUp(app(), customer, coins, { paid: true });
      const result = await approveTopUp(app().db, {
        adminId: await adminId(app()),
        requestId: request.id,
        coins: options.credited,
      });
      if (!result.ok) throw new Error(result.error);
      return result.request;
    }
    /** A credit of `cents` to `userId` under the top-up key of `requestId`, written by hand. */
    function creditByHand(userId: string, requestId: number, cents: number) {
      return inTransaction(app().db, async (trx) => {
        const posted = await writeLedgerEntry(trx, {
          userId,
          amountCents: cents,
          kind: "coin_purchase",
          reason: "by hand",
          idempotencyKey: topUpLedgerKey(requestId),
        });
        return posted!.entryId;
      });
    }
    const setRequest = (
      request: TopUpRequest,
      change: { state?: string; credited_coins?: number | null },
    ) => app().db.updateTable("top_up_requests").set(change).where("id", "=", request.id).execute();

    it("finds nothing wrong with top-ups approved, with other coins, rejected and open", async () => {
      const admin = await adminId(app());
      await approved(10);
      await approved(20, { credited: 18 });
      const rejected = await openTopUp(app(), await customerWithCoins(app(), 0), 5, { paid: true });
      expect(
        await rejectTopUp(app().db, { adminId: admin, requestId: rejected.id, reason: "no" }),
      ).toMatchObject({ ok: true });
      await openTopUp(app(), await customerWithCoins(app(), 0), 7);
      expect(await findInvoiceDiscrepancies(app().db)).toEqual([]);
    });

    it("reports an approved request without a credit", async () => {
      const request = await openTopUp(app(), await customerWithCoins(app(), 0), 10);
      await setRequest(request, { state: "approved" });
      expect(await problemsOf(request)).toEqual(["is approved without a ledger credit"]);
    });

    it("reports a credit of another amount than the coins approved", async () => {
      const request = await approved(10);
      await setRequest(request, { credited_coins: 12 });
      expect(await problemsOf(request)).toEqual(["its ledger credit is 1000 cents, expected 1200"]);
    });

    it("reports a credit to another customer than the request's", async () => {
      const owner = await customerWithCoins(app(), 0);
      const request = await openTopUp(app(), owner, 10);
      const stranger = await customerWithCoins(app(), 0);
      const entryId = await creditByHand(stranger, request.id, 1000);
      await inTransaction(app().db, (trx) =>
        issuePaymentReceipt(trx, {
          userId: stranger,
          amountCents: 1000,
          ledgerEntryId: entryId,
          reference: request.reference,
          method: "Orange Money",
          actorId: null,
        }),
      );
      await setRequest(request, { state: "approved" });
      expect(await problemsOf(request)).toEqual(["its ledger credit is another customer's"]);
    });

    it("reports an approved request without its receipt, and one with two", async () => {
      const lost = await approved(10);
      await app()
        .db.deleteFrom("invoices")
        .where("kind", "=", "receipt")
        .where("user_id", "=", lost.userId)
        .execute();
      expect(await problemsOf(lost)).toEqual(["has no payment receipt"]);

      const doubled = await approved(15);
      const credit = await readRow(app().db, "coin_ledger", ["id"], {
        idempotency_key: topUpLedgerKey(doubled.id),
      });
      await inTransaction(app().db, (trx) =>
        issuePaymentReceipt(trx, {
          userId: doubled.userId,
          amountCents: 1500,
          ledgerEntryId: Number(credit.id),
          reference: doubled.reference,
          method: "Orange Money",
          actorId: null,
        }),
      );
      expect(await problemsOf(doubled)).toEqual(["has 2 payment receipts, expected 1"]);
    });

    it("reports a credit of a request that is not approved, or that does not exist", async () => {
      const customer = await customerWithCoins(app(), 0);
      const open = await openTopUp(app(), customer, 10);
      await creditByHand(customer, open.id, 1000);
      expect(await problemsOf(open)).toEqual([
        expect.stringMatching(/^is waiting_payment but has a ledger credit \(#\d+\)$/),
      ]);
      await setRequest(open, { state: "rejected" });
      expect(await problemsOf(open)).toEqual([
        expect.stringMatching(/^is rejected but has a ledger credit/),
      ]);

      const entryId = await creditByHand(customer, 9_999_999, 500);
      expect(
        (await findInvoiceDiscrepancies(app().db)).filter(
          (each) => each.number === `ledger #${entryId}`,
        ),
      ).toEqual([
        {
          number: `ledger #${entryId}`,
          problem: "a credit of top-up #9999999, which does not exist",
        },
      ]);
    });

    it("leaves alone a credit whose key only begins as a top-up's does", async () => {
      const customer = await customerWithCoins(app(), 0);
      const entryId = await inTransaction(app().db, async (trx) => {
        const posted = await writeLedgerEntry(trx, {
          userId: customer,
          amountCents: 700,
          kind: "coin_purchase",
          reason: "by hand",
          idempotencyKey: "top-up:proof-7",
        });
        return posted!.entryId;
      });
      expect(
        (await findInvoiceDiscrepancies(app().db)).filter(
          (each) => each.number === `ledger #${entryId}` || each.number.startsWith("top-up #NaN"),
        ),
      ).toEqual([]);
    });
  },
);
