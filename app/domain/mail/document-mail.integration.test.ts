import { expect, it } from "vitest";
import { recordRefund } from "~/domain/invoices/credit-notes.server";
import { approveTopUp, rejectTopUp } from "~/domain/payments/top-up-decisions.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import {
  adminId,
  customerWithCoins,
  customerWithRunningService,
  expectLedgerIntactAfterEach,
  placedOrder,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { sendDueMail, staffMailOfOrder } from "../../../tests/support/mail-fixtures";
import { openTopUp } from "../../../tests/support/top-up-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { setMailPreferences } from "./mail-preferences.server";
import { OPTIONAL_MAIL_KINDS, type OptionalMailKind } from "./mail";

// Every numbered document reaches its customer by mail (docs/mail.md#documents-and-top-ups): named and
// linked in the message of its event, or by itself when that message is turned off or there is none.

describeEachDatabase("invoices, receipts and credit notes by mail", (app) => {
  expectLedgerIntactAfterEach(app);
  const base = () => app().env.PUBLIC_URL.replace(/\/$/, "");

  /** The worker writes every queued message (no SMTP: they are kept, written, in the outbox). */
  async function writeAll() {
    await sendDueMail(
      app(),
      { smtpUrl: undefined, from: "Hostfront <no-reply@hostfront.test>" },
      {
        rounds: 3,
      },
    );
  }
  /** The customer's messages of `kinds`, oldest first, as written. */
  async function mailOf(userId: string, kinds: string[]) {
    return app()
      .db.selectFrom("mail_outbox")
      .select(["kind", "subject", "text", "state", "unique_key"])
      .where("user_id", "=", userId)
      .where("kind", "in", kinds)
      .orderBy("id")
      .execute();
  }
  async function invoiceOf(filter: { orderId?: number; serviceId?: number; kind?: string }) {
    let query = app()
      .db.selectFrom("invoices")
      .select(["number", "total_cents", "kind"])
      .orderBy("id", "desc");
    if (filter.orderId) query = query.where("order_id", "=", filter.orderId);
    if (filter.serviceId) query = query.where("hosting_service_id", "=", filter.serviceId);
    if (filter.kind) query = query.where("kind", "=", filter.kind);
    return query.executeTakeFirstOrThrow();
  }
  const turnOff = (userId: string, kind: OptionalMailKind) =>
    setMailPreferences(app().db, {
      userId,
      receive: OPTIONAL_MAIL_KINDS.filter((each) => each !== kind),
    });
  const ORDER_KINDS = ["orderReceived", "orderRejected", "documentIssued"];

  it("names an order's invoice in its one 'order received' message, read once the order committed", async () => {
    const customer = await customerWithCoins(app(), 10_000);
    const order = await placedOrder(app(), customer, {
      productId: await productId(app(), "vps-entry"),
    });
    // One row for the customer, queued in the order's transaction; its number is read when written.
    expect(await mailOf(customer, ORDER_KINDS)).toEqual([
      expect.objectContaining({ kind: "orderReceived", state: "queued", text: null }),
    ]);
    await writeAll();
    const invoice = await invoiceOf({ orderId: order.id });
    const [received] = await mailOf(customer, ORDER_KINDS);
    expect(received!.text).toContain(`Invoice ${invoice.number} (7.00 coins) was issued to you.`);
    expect(received!.text).toContain(`${base()}/invoices/${invoice.number}`);
    expect(received!.text).toContain(`Your order #${order.id}`);
  });

  it("sends the invoice by itself to a customer who turned 'order received' off: one row still", async () => {
    const customer = await customerWithCoins(app(), 10_000);
    await turnOff(customer, "orderReceived");
    const order = await placedOrder(app(), customer, {
      productId: await productId(app(), "vps-entry"),
    });
    await writeAll();
    const invoice = await invoiceOf({ orderId: order.id });
    const mail = await mailOf(customer, ORDER_KINDS);
    expect(mail.map((row) => row.kind)).toEqual(["documentIssued"]);
    expect(mail[0]!.subject).toBe(`Your invoice ${invoice.number}`);
    expect(mail[0]!.text).toContain(`We issued invoice ${invoice.number} for 7.00 coins`);
    expect(mail[0]!.text).toContain(`${base()}/invoices/${invoice.number}`);
    // The staff's message of the same order is unchanged.
    const staff = await staffMailOfOrder(app(), order.id);
    expect(staff.length).toBeGreaterThan(0);
  });

  it("names the credit note of a rejected order, and of a refund recorded by an admin", async () => {
    const admin = await adminId(app());
    const customer = await customerWithCoins(app(), 10_000);
    const vps = await productId(app(), "vps-entry");
    const rejected = await placedOrder(app(), customer, { productId: vps });
    expect(
      await rejectOrder(app().db, { orderId: rejected.id, actorId: admin, reason: "No stock" }),
    ).toMatchObject({ ok: true });
    await writeAll();
    const credit = await invoiceOf({ orderId: rejected.id, kind: "credit_note" });
    expect(credit.total_cents).toBe(-700);
    const [message] = (await mailOf(customer, ["orderRejected"])).slice(-1);
    expect(message!.text).toContain(`Credit note ${credit.number} (7.00 coins) was issued to you.`);
    expect(message!.text).toContain(`${base()}/invoices/${credit.number}`);

    // A refund has no other message: the credit note goes by itself, once.
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const renewed = await renewWithNewKey(app(), user, serviceId);
    expect(renewed.ok).toBe(true);
    const invoice = await invoiceOf({ serviceId, kind: "invoice" });
    const refunded = await recordRefund(app().db, {
      number: invoice.number,
      method: "outside",
      reason: "14-day guarantee",
      actorId: admin,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    await writeAll();
    const alone = await mailOf(user, ["documentIssued"]);
    expect(alone).toHaveLength(1);
    expect(alone[0]!.subject).toBe(`Your credit note ${refunded.creditNote.number}`);
    expect(alone[0]!.text).toContain(`${base()}/invoices/${refunded.creditNote.number}`);
    expect(alone[0]!.unique_key).toBe(
      `documentIssued:document:${refunded.creditNote.number}:${user}`,
    );
  });

  it("names a renewal's invoice in the 'service renewed' message, or sends it alone when that is off", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
    await writeAll();
    const first = await invoiceOf({ serviceId, kind: "invoice" });
    const [renewed] = await mailOf(user, ["serviceRenewed"]);
    expect(renewed!.text).toContain(`Invoice ${first.number}`);
    expect(renewed!.text).toContain(`${base()}/invoices/${first.number}`);

    await turnOff(user, "serviceRenewed");
    expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
    await writeAll();
    const second = await invoiceOf({ serviceId, kind: "invoice" });
    expect(second.number).not.toBe(first.number);
    expect((await mailOf(user, ["serviceRenewed"])).length).toBe(1);
    const alone = await mailOf(user, ["documentIssued"]);
    expect(alone.map((row) => row.subject)).toEqual([`Your invoice ${second.number}`]);
  });

  it("mails a renewal made again from the same expiry, after a refund took the first one's term back", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
    const first = await invoiceOf({ serviceId, kind: "invoice" });
    const refunded = await recordRefund(app().db, {
      number: first.number,
      method: "coins",
      reason: "Renewed by mistake",
      actorId: await adminId(app()),
      takeBackTerm: true,
    });
    if (!refunded.ok) throw new Error(refunded.error);
    // Renewed again from the very expiry date the first renewal started from: a receipt of its own.
    expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
    await writeAll();
    const second = await invoiceOf({ serviceId, kind: "invoice" });
    const renewed = await mailOf(user, ["serviceRenewed"]);
    expect(renewed).toHaveLength(2);
    expect(renewed[0]!.text).toContain(`Invoice ${first.number}`);
    expect(renewed[1]!.text).toContain(`Invoice ${second.number}`);
  });

  it("names a free renewal's invoice, also when the service had expired (its term starts at the renewal)", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    await app()
      .db.updateTable("hosting_services")
      .set({ cycle_price_cents: 0, expires_at: "2026-01-07T08:00:00.000Z" })
      .where("id", "=", serviceId)
      .execute();
    expect((await renewWithNewKey(app(), user, serviceId)).ok).toBe(true);
    await writeAll();
    const invoice = await invoiceOf({ serviceId, kind: "invoice" });
    const [renewed] = await mailOf(user, ["serviceRenewed"]);
    expect(renewed!.text).toContain(`Invoice ${invoice.number}`);
  });

  it("says an approved top-up's reference and links its receipt; a rejected one, why", async () => {
    const admin = await adminId(app());
    const customer = await customerWithCoins(app(), 0);
    const request = await openTopUp(app(), customer, 10, { paid: true });
    expect(await approveTopUp(app().db, { adminId: admin, requestId: request.id })).toMatchObject({
      ok: true,
    });
    await writeAll();
    const receipt = await invoiceOf({ kind: "receipt" });
    const [coins] = (await mailOf(customer, ["coinsChanged"])).slice(-1);
    expect(coins!.subject).toBe("10.00 coins added to your balance");
    expect(coins!.text).toContain(`Reason: Top-up ${request.reference} (Orange Money)`);
    expect(coins!.text).toContain(`Payment receipt ${receipt.number} (10.00 coins)`);
    expect(coins!.text).toContain(`${base()}/invoices/${receipt.number}`);

    // Coins mail off: the receipt comes alone.
    await turnOff(customer, "coinsChanged");
    const second = await openTopUp(app(), customer, 5, { paid: true });
    expect(await approveTopUp(app().db, { adminId: admin, requestId: second.id })).toMatchObject({
      ok: true,
    });
    const third = await openTopUp(app(), customer, 20);
    expect(
      await rejectTopUp(app().db, {
        adminId: admin,
        requestId: third.id,
        reason: "No payment received",
      }),
    ).toMatchObject({ ok: true });
    await writeAll();
    const secondReceipt = await invoiceOf({ kind: "receipt" });
    const alone = await mailOf(customer, ["documentIssued", "topUpRejected"]);
    expect(alone.map((row) => [row.kind, row.subject])).toEqual([
      ["documentIssued", `Your payment receipt ${secondReceipt.number}`],
      ["topUpRejected", `Top-up ${third.reference} rejected`],
    ]);
    const rejection = alone[1]!;
    expect(rejection.text).toContain("Reason: No payment received");
    expect(rejection.text).toContain("20.00 coins");
    expect(rejection.text).toContain(`${base()}/dashboard/top-up`);
    expect(rejection.unique_key).toBe(`topUpRejected:top-up:${third.id}:${customer}`);
  });
});
