import { expect, it } from "vitest";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
} from "../../../tests/support/money-fixtures";
import { pngProof } from "../../../tests/support/proof-files";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { MAX_BALANCE_CENTS } from "~/domain/coins/coins";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import {
  deletePaymentMethod,
  listPaymentMethodsForAdmin,
  createPaymentMethod,
  updatePaymentMethod,
} from "./payment-methods.server";
import { verifiedFlag } from "~/domain/accounts/email-verification.server";
import { getDocument } from "~/domain/invoices/documents.server";
import { getSettings, updateSettingsSection } from "~/domain/settings/settings.server";
import { isReference, type TopUpRequest } from "./top-ups";
import { topUpLedgerKey } from "./top-up-credit.server";
import { approveTopUp, rejectTopUp } from "./top-up-decisions.server";
import { listTopUpQueue, loadCustomerTopUps } from "./top-up-lists.server";
import { cancelTopUp, markTopUpPaid, requestTopUp } from "./top-up-requests.server";
import { loadTopUpPage, runTopUpDecision } from "./top-ups.server";

const today = () => new Date().toISOString().slice(0, 10);

describeEachDatabase("top-up requests", (app, dialect) => {
  expectLedgerIntactAfterEach(app);

  /** Orange Money enabled at 11.00 MAD a coin, 5 to 200 coins, with a 2.5% fee. */
  async function orangeMoney() {
    const db = app().db;
    const admin = await adminId(app());
    const method = (await listPaymentMethodsForAdmin(db)).find((m) => m.code === "orange-money")!;
    const updated = await updatePaymentMethod(db, {
      actorId: admin,
      id: method.id,
      method: {
        ...method,
        instructions: { en: "Send to 0611 111 111", fr: "Envoyez au 0611 111 111", ar: "" },
        enabled: true,
        rate: 1100,
        minCoins: 5,
        maxCoins: 200,
        feeFixed: 0,
        feePercentBp: 250,
      },
    });
    if (!updated.ok) throw new Error(updated.error);
    return updated.method;
  }

  /** What the audit log keeps of a request: all but its method's name and its times. */
  function auditedAs(request: TopUpRequest) {
    const { methodName: _n, createdAt: _c, updatedAt: _u, ...kept } = request;
    return kept;
  }

  async function ledgerCreditsOf(requestId: number) {
    return readRows(app().db, "coin_ledger", ["amount_cents", "kind", "reason"], {
      idempotency_key: topUpLedgerKey(requestId),
    });
  }

  it("refuses an unverified address to ask for coins or say they are paid while the setting asks for one", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const customer = await customerWithCoins(app(), 0);
    const gate = { requireVerifiedEmail: true };
    const unverified = { ...refusal("forbidden", "auth.verify.required"), verifyEmail: true };
    const ask = () => requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 }, gate);
    const sayPaid = async (requestId: number) =>
      markTopUpPaid(
        db,
        {
          userId: customer,
          requestId,
          payerAccount: "0611",
          paidOn: "2026-06-15",
          proofs: [await pngProof("capture.png")],
          now: new Date("2026-06-15T10:00:00Z"),
        },
        gate,
      );
    expect(await ask()).toEqual(unverified);
    expect(await loadCustomerTopUps(db, customer, "en")).toMatchObject({ current: null });

    // A request asked for before the setting (or the address) changed: not marked paid either.
    const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    expect(await sayPaid(asked.request.id)).toEqual(unverified);
    expect(
      await readRows(db, "top_up_proofs", ["id"], { top_up_request_id: asked.request.id }),
    ).toEqual([]);
    expect(await readRow(db, "top_up_requests", ["state"], { id: asked.request.id })).toEqual({
      state: "waiting_payment",
    });

    // Confirmed, the same customer goes on.
    await db
      .updateTable("users")
      .set({ email_verified: verifiedFlag(db, true) })
      .where("id", "=", customer)
      .execute();
    expect(await sayPaid(asked.request.id)).toMatchObject({
      ok: true,
      request: { state: "proof_sent" },
    });
  });

  it("goes from a request to an approved credit, with the quote frozen and everyone told", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const customer = await customerWithCoins(app(), 0);
    const admin = await adminId(app());

    const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    const request = asked.request;
    expect(isReference(request.reference)).toBe(true);
    expect(request).toMatchObject({
      state: "waiting_payment",
      coins: 10,
      currency: "MAD",
      amount: 11_000,
      fee: 275,
      total: 11_275,
      creditCents: 1_000,
      methodName: "Orange Money",
    });

    // A later change of rate changes no request already asked.
    await updatePaymentMethod(db, {
      actorId: admin,
      id: method.id,
      method: { ...method, rate: 1200 },
    });
    const page = await loadCustomerTopUps(db, customer, "fr");
    expect(page.current).toMatchObject({ id: request.id, total: 11_275 });
    expect(page.instructions).toBe("Envoyez au 0611 111 111");

    const paid = await markTopUpPaid(db, {
      userId: customer,
      requestId: request.id,
      payerAccount: "0622 222 222",
      paidOn: today(),
      proofs: [await pngProof()],
    });
    expect(paid).toMatchObject({
      ok: true,
      request: { state: "proof_sent", payerAccount: "0622 222 222" },
    });
    const staff = await db
      .selectFrom("notifications")
      .select(["user_id", "kind"])
      .where("kind", "=", "top_up_paid")
      .where("dedupe_key", "like", `staff:top-up:${request.id}:%`)
      .execute();
    expect(staff.map((row) => row.user_id)).toContain(admin);

    const queue = await listTopUpQueue(db, { state: "proof_sent", page: 1 }, "en");
    expect(queue.items.map((item) => item.id)).toContain(request.id);
    expect(queue.histories[customer]).toEqual({ proof_sent: 1 });

    const approved = await approveTopUp(db, { adminId: admin, requestId: request.id });
    expect(approved).toMatchObject({
      ok: true,
      request: { state: "approved", creditedCoins: null },
    });
    expect(await balanceOf(app(), customer)).toBe(1_000);
    expect(await ledgerCreditsOf(request.id)).toEqual([
      {
        amount_cents: 1_000,
        kind: "coin_purchase",
        reason: `Top-up ${request.reference} (Orange Money)`,
      },
    ]);
    const audit = await readRows(db, "audit_log", ["action", "actor_id"], {
      target_type: "top_up_request",
      target_id: String(request.id),
    });
    expect(audit).toEqual([{ action: "top_up.approve", actor_id: admin }]);
    const told = await readRows(db, "notifications", ["kind"], {
      user_id: customer,
      kind: "top_up_approved",
    });
    expect(told).toHaveLength(1);
    const mail = await readRows(db, "mail_outbox", ["kind"], {
      user_id: customer,
      kind: "coinsChanged",
    });
    expect(mail).toHaveLength(1);

    // Decided: no second decision, no cancel, no "paid".
    expect(await approveTopUp(db, { adminId: admin, requestId: request.id })).toEqual(
      refusal("conflict", "payments.errors.topUpNotOpen"),
    );
    expect(await cancelTopUp(db, { userId: customer, requestId: request.id })).toEqual(
      refusal("conflict", "payments.errors.topUpNotOpen"),
    );
    expect(await balanceOf(app(), customer)).toBe(1_000);
    // And a method a request names is not deleted (a custom one would be; a built-in one never is).
    const custom = await createPaymentMethod(db, {
      actorId: admin,
      method: { ...method, names: { en: "Wafacash", fr: "", ar: "" }, sortOrder: 9 },
    });
    if (!custom.ok) throw new Error(custom.error);
    const other = await customerWithCoins(app(), 0);
    const onCustom = await requestTopUp(db, {
      userId: other,
      methodId: custom.method.id,
      coins: 5,
    });
    expect(onCustom.ok).toBe(true);
    expect(await deletePaymentMethod(db, { actorId: admin, id: custom.method.id })).toEqual(
      refusal("conflict", "payments.errors.methodInUse"),
    );
  });

  it("allows one open request at a time, within the method's bounds, with an enabled method", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const customer = await customerWithCoins(app(), 0);
    expect(await requestTopUp(db, { userId: customer, methodId: method.id, coins: 4 })).toEqual({
      ...refusal("invalid", "payments.errors.coinsBelowMin"),
      field: "coins",
      params: { min: 5, max: 200 },
    });
    expect(
      await requestTopUp(db, { userId: customer, methodId: method.id, coins: 201 }),
    ).toMatchObject(refusal("invalid", "payments.errors.coinsAboveMax"));
    expect(
      await requestTopUp(db, { userId: customer, methodId: method.id, coins: 5.5 }),
    ).toMatchObject(refusal("invalid", "payments.errors.coinsNotWhole"));
    const paypal = (await listPaymentMethodsForAdmin(db)).find((m) => m.code === "paypal")!;
    expect(await requestTopUp(db, { userId: customer, methodId: paypal.id, coins: 10 })).toEqual(
      refusal("invalid", "payments.errors.methodUnavailable"),
    );
    expect(await requestTopUp(db, { userId: customer, methodId: 999_999, coins: 10 })).toEqual(
      refusal("invalid", "payments.errors.methodUnavailable"),
    );

    // Coin purchase switched off in the settings: nobody asks, nothing is offered.
    const features = (await getSettings(db)).features;
    await updateSettingsSection(db, "features", { ...features, coinPurchase: false });
    try {
      expect(await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 })).toEqual(
        refusal("forbidden", "payments.errors.purchaseClosed"),
      );
      expect(await loadTopUpPage(db, customer, "en")).toMatchObject({
        methods: [],
        purchaseOpen: false,
      });
    } finally {
      await updateSettingsSection(db, "features", { ...features, coinPurchase: true });
    }
    expect((await loadTopUpPage(db, customer, "en")).methods.map((m) => m.id)).toContain(method.id);

    // Four at once: one gets through, the others are told one is open.
    const racing = await Promise.all(
      Array.from({ length: 4 }, () =>
        requestTopUp(db, { userId: customer, methodId: method.id, coins: 5 }),
      ),
    );
    expect(racing.filter((result) => result.ok)).toHaveLength(1);
    for (const result of racing.filter((r) => !r.ok))
      expect(result).toEqual(refusal("conflict", "payments.errors.openTopUpExists"));
    const open = racing.find((result) => result.ok)!;
    if (!open.ok) throw new Error("none");

    // Cancelled, it frees the place for a new one.
    expect(await cancelTopUp(db, { userId: customer, requestId: open.request.id })).toMatchObject({
      ok: true,
      request: { state: "cancelled" },
    });
    const next = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 200 });
    expect(next).toMatchObject({ ok: true, request: { state: "waiting_payment", total: 225_500 } });
    const page = await loadCustomerTopUps(db, customer, "en");
    expect(page.current?.coins).toBe(200);
    expect(page.past.map((request) => request.state)).toEqual(["cancelled"]);
  });

  it(
    atOnce(
      dialect,
      "credits an approval exactly once, however many admins or replays approve at once",
    ),
    async () => {
      const db = app().db;
      const method = await orangeMoney();
      const admin = await adminId(app());
      for (const paidFirst of [true, false]) {
        const customer = await customerWithCoins(app(), 0);
        const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 20 });
        if (!asked.ok) throw new Error(asked.error);
        if (paidFirst)
          expect(
            await markTopUpPaid(db, {
              userId: customer,
              requestId: asked.request.id,
              payerAccount: "0600",
              paidOn: today(),
              proofs: [await pngProof()],
            }),
          ).toMatchObject({ ok: true });
        const results = await Promise.all(
          Array.from({ length: 8 }, (_, i) =>
            i % 2
              ? approveTopUp(db, { adminId: admin, requestId: asked.request.id, coins: 18 })
              : rejectTopUp(db, { adminId: admin, requestId: asked.request.id, reason: "late" }),
          ),
        );
        const won = results.filter((result) => result.ok);
        expect(won).toHaveLength(1);
        for (const lost of results.filter((result) => !result.ok))
          expect(lost).toEqual(refusal("conflict", "payments.errors.topUpNotOpen"));
        const decided = won[0]!;
        if (!decided.ok) throw new Error("none");
        const credits = await ledgerCreditsOf(asked.request.id);
        if (decided.request.state === "approved") {
          expect(decided.request.creditedCoins).toBe(18);
          expect(credits.map((c) => c.amount_cents)).toEqual([1_800]);
          expect(await balanceOf(app(), customer)).toBe(1_800);
        } else {
          expect(credits).toEqual([]);
          expect(await balanceOf(app(), customer)).toBe(0);
        }
      }
      // Approvals alone, raced.
      const customer = await customerWithCoins(app(), 0);
      const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 50 });
      if (!asked.ok) throw new Error(asked.error);
      const results = await Promise.all(
        Array.from({ length: 8 }, () =>
          approveTopUp(db, { adminId: admin, requestId: asked.request.id }),
        ),
      );
      expect(results.filter((result) => result.ok)).toHaveLength(1);
      expect(await balanceOf(app(), customer)).toBe(5_000);
      const credits = await readRows(db, "coin_ledger", ["id"], {
        idempotency_key: topUpLedgerKey(asked.request.id),
      });
      expect(credits).toHaveLength(1);
      // One payment receipt, of its own series, without VAT, for the one credit (docs/invoices.md).
      const receipts = await readRows(
        db,
        "invoices",
        ["number", "kind", "total_cents", "vat_cents", "ledger_entry_id"],
        { user_id: customer },
      );
      expect(receipts).toHaveLength(1);
      expect(receipts[0]!.kind).toBe("receipt");
      expect(receipts[0]!.number).toMatch(/^HFR-\d{4}-\d{6}$/);
      expect(receipts[0]).toMatchObject({ total_cents: 5_000, vat_cents: 0 });
      expect(Number(receipts[0]!.ledger_entry_id)).toBe(Number(credits[0]!.id));
    },
  );

  it("issues the approval's receipt with the money as it was sent: amount and currency, method, reference, payer, day", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const admin = await adminId(app());
    const now = new Date("2026-03-04T09:00:00.000Z");
    const receiptOf = async (userId: string) => {
      const row = await readRow(db, "invoices", ["number"], { user_id: userId });
      const doc = await getDocument(db, row.number, { userId, isAdmin: false });
      return doc!;
    };

    // Paid, then approved as asked: 10 coins at 11.00 MAD with 2.5%, 112.75 MAD sent.
    const customer = await customerWithCoins(app(), 0);
    const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    const paid = await markTopUpPaid(db, {
      userId: customer,
      requestId: asked.request.id,
      payerAccount: "\u202e0622 222 222 ",
      paidOn: "2026-03-03",
      proofs: [await pngProof()],
      now,
    });
    expect(paid.ok).toBe(true);
    expect(await approveTopUp(db, { adminId: admin, requestId: asked.request.id })).toMatchObject({
      ok: true,
    });
    const receipt = await receiptOf(customer);
    expect(receipt).toMatchObject({ kind: "receipt", totalCents: 1_000, vatCents: 0 });
    expect(receipt.lines).toEqual([
      {
        kind: "topUp",
        params: {
          reference: asked.request.reference,
          method: "Orange Money",
          currency: "MAD",
          sent: 11_275,
          asked: 10,
          // Kept as a document keeps a party's text: without directional controls.
          payer: "0622 222 222",
          paidOn: "2026-03-03",
        },
        quantity: 1,
        unitCents: 1_000,
        totalCents: 1_000,
      },
    ]);

    // Approved for another number of coins before the customer said they had paid: the quote and the
    // coins asked, and nothing of a payer or a day.
    const early = await customerWithCoins(app(), 0);
    const open = await requestTopUp(db, { userId: early, methodId: method.id, coins: 20 });
    if (!open.ok) throw new Error(open.error);
    await approveTopUp(db, { adminId: admin, requestId: open.request.id, coins: 18 });
    expect((await receiptOf(early)).lines[0]!.params).toEqual({
      reference: open.request.reference,
      method: "Orange Money",
      currency: "MAD",
      sent: 22_550,
      asked: 20,
    });
  });

  it("rejects with the reason the customer reads, and keeps the balance", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const admin = await adminId(app());
    const customer = await customerWithCoins(app(), 300);
    const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    const rejected = await rejectTopUp(db, {
      adminId: admin,
      requestId: asked.request.id,
      reason: "No payment received",
    });
    expect(rejected).toMatchObject({
      ok: true,
      request: { state: "rejected", rejectReason: "No payment received" },
    });
    expect(await balanceOf(app(), customer)).toBe(300);
    const page = await loadCustomerTopUps(db, customer, "en");
    expect(page.current).toBeNull();
    expect(page.past[0]).toMatchObject({ state: "rejected", rejectReason: "No payment received" });
    const told = await readRow(db, "notifications", ["params"], {
      user_id: customer,
      kind: "top_up_rejected",
    });
    expect(JSON.parse(told.params)).toMatchObject({ reason: "No payment received" });
    // Audited with what the request was and became, and the reason.
    const audit = await readRow(
      db,
      "audit_log",
      ["action", "actor_id", "before", "after", "reason"],
      {
        target_type: "top_up_request",
        target_id: String(asked.request.id),
      },
    );
    expect({
      ...audit,
      before: JSON.parse(audit.before!),
      after: JSON.parse(audit.after!),
    }).toEqual({
      action: "top_up.reject",
      actor_id: admin,
      before: auditedAs(asked.request),
      after: {
        ...auditedAs(asked.request),
        state: "rejected",
        rejectReason: "No payment received",
        decidedAt: expect.any(String),
      },
      reason: "No payment received",
    });
  });

  it("audits an approval whole, and tells the customer the coins credited, with a link to their page", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const admin = await adminId(app());
    const customer = await customerWithCoins(app(), 0);
    const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    // 8 coins received where 10 were asked.
    expect(
      await approveTopUp(db, { adminId: admin, requestId: asked.request.id, coins: 8 }),
    ).toMatchObject({ ok: true, request: { state: "approved", creditedCoins: 8 } });
    const audit = await readRow(db, "audit_log", ["action", "actor_id", "before", "after"], {
      target_type: "top_up_request",
      target_id: String(asked.request.id),
    });
    expect({
      ...audit,
      before: JSON.parse(audit.before!),
      after: JSON.parse(audit.after!),
    }).toEqual({
      action: "top_up.approve",
      actor_id: admin,
      before: auditedAs(asked.request),
      after: {
        ...auditedAs(asked.request),
        state: "approved",
        creditedCoins: 8,
        decidedAt: expect.any(String),
      },
    });
    const told = await readRow(db, "notifications", ["params", "link"], {
      user_id: customer,
      kind: "top_up_approved",
    });
    expect({ ...told, params: JSON.parse(told.params) }).toEqual({
      params: { reference: asked.request.reference, amountCents: 800 },
      link: "/dashboard/top-up",
    });
    expect(await balanceOf(app(), customer)).toBe(800);
  });

  it("refuses an approval that would take the balance past its maximum, and leaves the request open", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const admin = await adminId(app());
    const customer = await customerWithCoins(app(), 0);
    await db.transaction().execute((trx) =>
      writeLedgerEntry(trx, {
        userId: customer,
        amountCents: MAX_BALANCE_CENTS - 500,
        kind: "admin_adjustment",
      }),
    );
    const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    expect(await approveTopUp(db, { adminId: admin, requestId: asked.request.id })).toEqual(
      refusal("conflict", "payments.errors.balanceTooHigh"),
    );
    expect(await readRow(db, "top_up_requests", ["state"], { id: asked.request.id })).toEqual({
      state: "waiting_payment",
    });
    expect(await ledgerCreditsOf(asked.request.id)).toEqual([]);
    expect(await readRows(db, "invoices", ["id"], { user_id: customer })).toEqual([]);
    expect(await balanceOf(app(), customer)).toBe(MAX_BALANCE_CENTS - 500);
  });

  it("decides by the admin's form: reject rejects, approve approves", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const admin = await adminId(app());
    const [first, second] = await Promise.all([0, 1].map(() => customerWithCoins(app(), 0)));
    const ask = async (customer: string) => {
      const asked = await requestTopUp(db, { userId: customer, methodId: method.id, coins: 10 });
      if (!asked.ok) throw new Error(asked.error);
      return asked.request;
    };
    const rejected = await ask(first!);
    expect(
      await runTopUpDecision(db, {
        adminId: admin,
        decision: { intent: "reject", requestId: rejected.id, reason: "Nothing arrived" },
      }),
    ).toEqual({
      ok: true,
      message: "payments.topUps.admin.rejected",
      params: { reference: rejected.reference },
    });
    expect(
      await readRow(db, "top_up_requests", ["state", "reject_reason"], { id: rejected.id }),
    ).toEqual({ state: "rejected", reject_reason: "Nothing arrived" });
    const approved = await ask(second!);
    expect(
      await runTopUpDecision(db, {
        adminId: admin,
        decision: { intent: "approve", requestId: approved.id, coins: undefined },
      }),
    ).toEqual({
      ok: true,
      message: "payments.topUps.admin.approved",
      params: { reference: approved.reference },
    });
    expect(await balanceOf(app(), second!)).toBe(1_000);
  });

  it("throws a failure other than a clash rather than retry it for ever: an account the database does not know", async () => {
    const method = await orangeMoney();
    await expect(
      requestTopUp(app().db, { userId: "no-such-account", methodId: method.id, coins: 10 }),
    ).rejects.toThrow();
  });

  it("lets nobody but the owner act on a request, and nobody but an admin decide", async () => {
    const db = app().db;
    const method = await orangeMoney();
    const owner = await customerWithCoins(app(), 0);
    const stranger = await customerWithCoins(app(), 0);
    const asked = await requestTopUp(db, { userId: owner, methodId: method.id, coins: 10 });
    if (!asked.ok) throw new Error(asked.error);
    const id = asked.request.id;
    expect(
      await markTopUpPaid(db, {
        userId: stranger,
        requestId: id,
        payerAccount: "x",
        paidOn: today(),
      }),
    ).toEqual(refusal("notFound", "payments.errors.topUpNotFound"));
    expect(await cancelTopUp(db, { userId: stranger, requestId: id })).toEqual(
      refusal("notFound", "payments.errors.topUpNotFound"),
    );
    expect((await loadCustomerTopUps(db, stranger, "en")).current).toBeNull();
    expect(await approveTopUp(db, { adminId: stranger, requestId: id })).toEqual(
      refusal("forbidden", "payments.errors.adminOnly"),
    );
    // An id that is no account (a session outliving its account) is no admin either.
    expect(await approveTopUp(db, { adminId: "no-such-account", requestId: id })).toEqual(
      refusal("forbidden", "payments.errors.adminOnly"),
    );
    expect(await rejectTopUp(db, { adminId: owner, requestId: id, reason: "no" })).toEqual(
      refusal("forbidden", "payments.errors.adminOnly"),
    );
    expect(await approveTopUp(db, { adminId: await adminId(app()), requestId: 999_999 })).toEqual(
      refusal("notFound", "payments.errors.topUpNotFound"),
    );
    // A date paid in the future, or long ago, is refused.
    for (const [paidOn, error] of [
      ["2999-01-01", "payments.errors.paidOnFuture"],
      ["2001-01-01", "payments.errors.paidOnTooOld"],
    ] as const)
      expect(
        await markTopUpPaid(db, { userId: owner, requestId: id, payerAccount: "0600", paidOn }),
        paidOn,
      ).toEqual({ ...refusal("invalid", error), field: "paidOn" });
    expect(await balanceOf(app(), owner)).toBe(0);
  });
});
