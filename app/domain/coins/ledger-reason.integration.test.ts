import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { listLedgerPage } from "~/domain/customer-dashboard/customer-dashboard.server";
import { rejectOrder } from "~/domain/orders/orders.server";
import { addCoinsFromTicket } from "~/domain/tickets/tickets.server";
import {
  adminId,
  approvedOrder,
  customerWithCoins,
  expectLedgerIntact,
  placedOrder,
  productId,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { latestRow, readColumn, readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { customerWithTicket } from "../../../tests/support/ticket-fixtures";
import { adjustCoins } from "./coins.server";
import { listLedgerForAdmin } from "./ledger-report.server";

describeEachDatabase("ledger reasons stored as messages", (app) => {
  /** A customer's ledger, oldest first: each movement's kind, English text and message, as stored. */
  const reasonsOf = (userId: string) =>
    readRows(
      app().db,
      "coin_ledger",
      ["kind", "reason", "reason_key", "reason_params"],
      { user_id: userId },
      "id",
    );

  it("writes each movement's message and values beside its English text, and every reader gets them", async () => {
    const admin = await adminId(app());
    const user = await customerWithCoins(app(), 10_000);
    const premium = await productId(app(), "samp-premium");
    const { placed, approved } = await approvedOrder(app(), user, { productId: premium });
    const renewed = await renewWithNewKey(app(), user, approved.hostingServiceId!);
    expect(renewed.ok).toBe(true);
    const refused = await placedOrder(app(), user, { productId: premium });
    expect(
      (await rejectOrder(app().db, { orderId: refused.id, actorId: admin, reason: "Hors stock" }))
        .ok,
    ).toBe(true);

    const rows = await reasonsOf(user);
    expect(
      rows.map((row) => ({ ...row, reason_params: JSON.parse(row.reason_params ?? "null") })),
    ).toEqual([
      // customerWithCoins: an admin's change, in the admin's own words (no message).
      {
        kind: "admin_adjustment",
        reason: expect.any(String),
        reason_key: null,
        reason_params: null,
      },
      {
        kind: "order_payment",
        reason: `Order #${placed.id}: SAMP Premium`,
        reason_key: "orderPayment",
        reason_params: { id: placed.id, product: "SAMP Premium" },
      },
      {
        kind: "renewal",
        reason: "Renewal of SAMP Premium",
        reason_key: "renewal",
        reason_params: { service: "SAMP Premium" },
      },
      {
        kind: "order_payment",
        reason: `Order #${refused.id}: SAMP Premium`,
        reason_key: "orderPayment",
        reason_params: { id: refused.id, product: "SAMP Premium" },
      },
      {
        kind: "order_refund",
        reason: `Order #${refused.id} rejected: Hors stock`,
        reason_key: "orderRefund",
        reason_params: { id: refused.id, reason: "Hors stock" },
      },
    ]);

    // The customer's billing tab and the admin's transactions read the message, not only the text.
    const page = await listLedgerPage(app().db, user);
    expect(page.entries[0]).toMatchObject({
      kind: "order_refund",
      reason: `Order #${refused.id} rejected: Hors stock`,
      reasonKey: "orderRefund",
      reasonParams: { id: refused.id, reason: "Hors stock" },
    });
    expect(page.entries.at(-1)).toMatchObject({ reasonKey: null, reasonParams: null });
    const email = await readColumn(app(), "users", "email", ["id", user]);
    const byEmail = await listLedgerForAdmin(app().db, { customer: email, page: 1 });
    expect(byEmail.entries).toHaveLength(rows.length);
    expect(byEmail.entries.find((entry) => entry.kind === "renewal")).toMatchObject({
      reason: "Renewal of SAMP Premium",
      reasonKey: "renewal",
      reasonParams: { service: "SAMP Premium" },
    });
    await expectLedgerIntact(app());
  });

  it("records coins bought through a ticket as a coin purchase, not an admin adjustment", async () => {
    const admin = await adminId(app());
    const { owner, ticket } = await customerWithTicket(app(), {
      department: "billing",
      subject: "Acheter des coins",
    });
    for (const note of [undefined, "CashPlus 0042"]) {
      const credited = await addCoinsFromTicket(app().db, {
        actorId: admin,
        ticketId: ticket.id,
        amountCents: 500,
        note,
        idempotencyKey: randomUUID(),
      });
      expect(credited.ok).toBe(true);
    }
    const rows = await reasonsOf(owner);
    expect(rows).toEqual([
      {
        kind: "coin_purchase",
        reason: `Ticket #${ticket.id}: Acheter des coins`,
        reason_key: "ticketPurchase",
        reason_params: JSON.stringify({ id: ticket.id, subject: "Acheter des coins" }),
      },
      {
        kind: "coin_purchase",
        reason: `Ticket #${ticket.id}: Acheter des coins (CashPlus 0042)`,
        reason_key: "ticketPurchaseNote",
        reason_params: JSON.stringify({
          id: ticket.id,
          subject: "Acheter des coins",
          note: "CashPlus 0042",
        }),
      },
    ]);
    // The admin's page filters them apart from adjustments; the admin's clients page still adjusts.
    const purchases = await listLedgerForAdmin(app().db, { kind: "coin_purchase", page: 1 });
    expect(purchases.entries.every((entry) => entry.kind === "coin_purchase")).toBe(true);
    expect(purchases.entries.map((entry) => entry.reasonKey)).toContain("ticketPurchaseNote");
    const adjusted = await adjustCoins(app().db, {
      userId: owner,
      amountCents: -100,
      reason: "Correction",
      actorId: admin,
      idempotencyKey: randomUUID(),
    });
    expect(adjusted.ok).toBe(true);
    const last = await latestRow(app().db, "coin_ledger", ["kind", "reason", "reason_key"], {
      user_id: owner,
    });
    expect(last).toEqual({ kind: "admin_adjustment", reason: "Correction", reason_key: null });
    // The audit entry keeps the English text of the purchase.
    const audit = await readRows(
      app().db,
      "audit_log",
      ["reason"],
      { action: "coins.adjust", target_id: owner },
      "id",
    );
    expect(audit.map((entry) => entry.reason)).toEqual([
      `Ticket #${ticket.id}: Acheter des coins`,
      `Ticket #${ticket.id}: Acheter des coins (CashPlus 0042)`,
      "Correction",
    ]);
    await expectLedgerIntact(app());
  });
});
