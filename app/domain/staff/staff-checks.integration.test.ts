import { randomUUID } from "node:crypto";
import { beforeAll, expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import type { Database } from "~/db/schema";
import { completeAccountDeletion } from "~/domain/accounts/account-deletion.server";
import { resetTwoFactor } from "~/domain/accounts/two-factor-reset.server";
import { deleteUserByAdmin, updateUserByAdmin } from "~/domain/accounts/user-admin.server";
import { recordRefund } from "~/domain/invoices/credit-notes.server";
import { approveOrder, rejectOrder } from "~/domain/orders/orders.server";
import { confirmOnlinePayment } from "~/domain/payments/online-payment-confirm.server";
import { refundOnlinePayment } from "~/domain/payments/online-refunds.server";
import {
  createPaymentMethod,
  deletePaymentMethod,
  listPaymentMethodsForAdmin,
  setPaymentMethodEnabled,
  updatePaymentMethod,
} from "~/domain/payments/payment-methods.server";
import { saveProviderSettings } from "~/domain/payments/providers/provider-settings.server";
import { approveTopUp, rejectTopUp } from "~/domain/payments/top-up-decisions.server";
import {
  removePanelClientKey,
  savePanelConnection,
} from "~/domain/provisioning/panel-connection.server";
import type { Permission, StaffRole } from "~/domain/staff/permissions";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  expectLedgerIntactAfterEach,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { onlineWorld, startedPayment } from "../../../tests/support/online-payment-fixtures";
import { staffMember, withTwoFactor } from "../../../tests/support/staff-members";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { openTopUp } from "../../../tests/support/top-up-fixtures";

// The use-cases that move money or secrets check their actor's role themselves (ADR 57): called directly
// by a member of the staff whose role lacks the permission, each is refused (forbidden, naming the
// permission) and nothing it would write is written: no balance, ledger row, decision, document, job,
// key, audit entry, notice or mail. A role that holds it goes through, so the refusal is the role's.

const SECRET = "test-secret-0123456789abcdef0123456789abcdef";

/** Every table one of these use-cases writes to. */
const WRITTEN: (keyof Database)[] = [
  "users",
  "two_factors",
  "coin_ledger",
  "top_up_requests",
  "online_payments",
  "online_payment_refunds",
  "orders",
  "hosting_services",
  "invoices",
  "payment_methods",
  "payment_providers",
  "panel_connections",
  "jobs",
  "audit_log",
  "notifications",
  "mail_outbox",
];

async function snapshot(app: AppServices) {
  const tables: Record<string, unknown[]> = {};
  for (const table of WRITTEN)
    tables[table] = await app.db
      .selectFrom(table)
      .selectAll()
      .execute()
      .then((rows) => rows.map((row) => JSON.stringify(row)).sort());
  return tables;
}

const forbidden = (permission: Permission) => ({
  ok: false,
  kind: "forbidden",
  error: "admin-staff.checks.forbidden",
  permission,
});

describeEachDatabase("the use-cases that move money or secrets check the actor's role", (app) => {
  expectLedgerIntactAfterEach(app);
  const db = () => app().db;
  const members = {} as Record<StaffRole, string>;
  beforeAll(async () => {
    members.owner = await adminId(app());
    for (const role of ["billing", "support", "technician"] as const)
      members[role] = await staffMember(app(), role);
  });

  /** `run` by a role without `permission`: refused as forbidden, and no table changed. */
  async function refusedAndUnchanged(permission: Permission, run: () => Promise<unknown>) {
    const before = await snapshot(app());
    expect(await run()).toMatchObject(forbidden(permission));
    expect(await snapshot(app())).toEqual(before);
  }

  it("top-up decisions need topups.decide", async () => {
    const user = await customerWithCoins(app(), 0);
    const request = await openTopUp(app(), user, 10, { paid: true });
    for (const actor of [members.support, members.technician]) {
      await refusedAndUnchanged("topups.decide", () =>
        approveTopUp(db(), { adminId: actor, requestId: request.id }),
      );
      await refusedAndUnchanged("topups.decide", () =>
        rejectTopUp(db(), { adminId: actor, requestId: request.id, reason: "no" }),
      );
    }
    expect(
      await approveTopUp(db(), { adminId: members.billing, requestId: request.id }),
    ).toMatchObject({ ok: true });
    expect(await balanceOf(app(), user)).toBe(1_000);
  });

  it("an online payment's refund needs invoices.refund", async () => {
    const world = await onlineWorld(app());
    const payment = await startedPayment(app(), world, { coins: 10 });
    world.provider.lookUps = [
      { state: "paid", amount: 11_000, currency: "MAD", captureRef: "tx-staff" },
    ];
    expect(
      await confirmOnlinePayment(
        db(),
        { paymentId: payment.paymentId },
        { ...world.wiring, now: new Date() },
      ),
    ).toBe("credited");
    for (const actor of [members.support, members.technician])
      await refusedAndUnchanged("invoices.refund", () =>
        refundOnlinePayment(db(), { adminId: actor, paymentId: payment.paymentId, amount: 100 }),
      );
    expect(
      await refundOnlinePayment(db(), {
        adminId: members.billing,
        paymentId: payment.paymentId,
        amount: 100,
      }),
    ).toMatchObject({ ok: true });
  });

  it("order decisions need orders.decide; the lifecycle's, with no actor, is the system's", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const slug = await productId(app(), "samp-starter");
    const order = await placedOrder(app(), user, { productId: slug });
    for (const actor of [members.support, members.technician]) {
      await refusedAndUnchanged("orders.decide", () =>
        approveOrder(db(), { orderId: order.id, actorId: actor }),
      );
      await refusedAndUnchanged("orders.decide", () =>
        rejectOrder(db(), { orderId: order.id, actorId: actor, reason: "no" }),
      );
    }
    expect(await approveOrder(db(), { orderId: order.id, actorId: members.billing })).toMatchObject(
      { ok: true },
    );
    const second = await placedOrder(app(), user, { productId: slug });
    const paid = await balanceOf(app(), user);
    expect(
      await rejectOrder(db(), {
        orderId: second.id,
        actorId: null,
        reason: "Not reviewed",
        expired: { days: 7, now: new Date() },
      }),
    ).toMatchObject({ ok: true });
    expect(await balanceOf(app(), user)).toBe(paid + second.totalCents);
  });

  it("an invoice's refund needs invoices.refund", async () => {
    const user = await customerWithCoins(app(), 100_000);
    const order = await placedOrder(app(), user, {
      productId: await productId(app(), "samp-starter"),
    });
    expect(await approveOrder(db(), { orderId: order.id, actorId: members.owner })).toMatchObject({
      ok: true,
    });
    const invoice = await db()
      .selectFrom("invoices")
      .select("number")
      .where("order_id", "=", order.id)
      .executeTakeFirstOrThrow();
    const refund = (actorId: string) =>
      recordRefund(db(), { number: invoice.number, method: "coins", reason: "14 days", actorId });
    for (const actor of [members.support, members.technician])
      await refusedAndUnchanged("invoices.refund", () => refund(actor));
    expect(await refund(members.billing)).toMatchObject({ ok: true });
  });

  it("payment methods and providers need gateways.manage", async () => {
    const [method] = await listPaymentMethodsForAdmin(db());
    if (!method) throw new Error("no payment method seeded");
    const input = { ...method, instructions: { en: "Send to 0699 999 999", fr: "", ar: "" } };
    for (const actor of [members.billing, members.support, members.technician]) {
      await refusedAndUnchanged("gateways.manage", () =>
        createPaymentMethod(db(), {
          actorId: actor,
          method: { ...input, names: { en: `Wallet ${randomUUID()}`, fr: "", ar: "" } },
        }),
      );
      await refusedAndUnchanged("gateways.manage", () =>
        updatePaymentMethod(db(), { actorId: actor, id: method.id, method: input }),
      );
      for (const enabled of [true, false])
        await refusedAndUnchanged("gateways.manage", () =>
          setPaymentMethodEnabled(db(), { actorId: actor, id: method.id, enabled }),
        );
      await refusedAndUnchanged("gateways.manage", () =>
        deletePaymentMethod(db(), { actorId: actor, id: method.id }),
      );
      await refusedAndUnchanged("gateways.manage", () =>
        saveProviderSettings(
          db(),
          {
            provider: "youcanpay",
            mode: "sandbox",
            apiUrl: "",
            publicId: "",
            secret: "sk_attacker_0000",
            webhookId: "",
            actorId: actor,
          },
          { secret: SECRET },
        ),
      );
    }
    // Said beside the secret, the field the provider's form shows its refusals on.
    expect(
      await saveProviderSettings(
        db(),
        {
          provider: "youcanpay",
          mode: "sandbox",
          apiUrl: "",
          publicId: "",
          secret: "sk_attacker_0000",
          webhookId: "",
          actorId: members.billing,
        },
        { secret: SECRET },
      ),
    ).toMatchObject({ field: "secret" });
    expect(
      await updatePaymentMethod(db(), { actorId: members.owner, id: method.id, method: input }),
    ).toMatchObject({ ok: true });
  });

  it("the game panel's keys need panel.manage", async () => {
    const save = (actorId: string, apiKey: string) =>
      savePanelConnection(
        db(),
        {
          url: "https://panel.hostfront.example",
          apiKey,
          clientKey: "ptlc_client_key_0001",
          locationMap: {},
          actorId,
        },
        { secret: SECRET },
      );
    expect(await save(members.technician, "ptla_owned_key_0001")).toMatchObject({ ok: true });
    for (const actor of [members.billing, members.support]) {
      await refusedAndUnchanged("panel.manage", () => save(actor, "ptla_attacker_key_0002"));
      await refusedAndUnchanged("panel.manage", () =>
        removePanelClientKey(db(), { actorId: actor }),
      );
    }
    expect(await save(members.billing, "ptla_attacker_key_0002")).toMatchObject({
      field: "apiKey",
    });
    expect(await removePanelClientKey(db(), { actorId: members.owner })).toEqual({
      ok: true,
      removed: true,
    });
  });

  it("another account's two-factor reset and its edits need clients.edit", async () => {
    const user = await customerWithCoins(app(), 0);
    await withTwoFactor(app(), user);
    const row = await db()
      .selectFrom("users")
      .select(["name", "email"])
      .where("id", "=", user)
      .executeTakeFirstOrThrow();
    const edit = { userId: user, name: "Renamed", email: row.email, role: "user" as const };
    await db()
      .insertInto("account_deletion_requests")
      .values({ user_id: user, status: "pending", requested_at: new Date().toISOString() })
      .execute();
    for (const actor of [members.billing, members.support, members.technician]) {
      await refusedAndUnchanged("clients.edit", () =>
        resetTwoFactor(db(), { userId: user, actorId: actor }),
      );
      await refusedAndUnchanged("clients.edit", () =>
        updateUserByAdmin(db(), { ...edit, password: "A-new-password-8843", actorId: actor }),
      );
      await refusedAndUnchanged("clients.edit", () =>
        deleteUserByAdmin(db(), { userId: user, actorId: actor }),
      );
      await refusedAndUnchanged("clients.edit", () =>
        completeAccountDeletion(db(), { userId: user, actorId: actor }),
      );
    }
    expect(await resetTwoFactor(db(), { userId: user, actorId: members.owner })).toMatchObject({
      ok: true,
    });
    expect(await updateUserByAdmin(db(), { ...edit, actorId: members.owner })).toMatchObject({
      ok: true,
    });
    expect(await deleteUserByAdmin(db(), { userId: user, actorId: members.owner })).toEqual({
      ok: true,
    });
  });

  it("an Owner resets a member of the staff's two-factor; the command line, with no actor, too", async () => {
    const member = await staffMember(app(), "support");
    await withTwoFactor(app(), member);
    await refusedAndUnchanged("clients.edit", () =>
      resetTwoFactor(db(), { userId: member, actorId: members.billing }),
    );
    expect(await resetTwoFactor(db(), { userId: member, actorId: members.owner })).toMatchObject({
      ok: true,
    });
    await withTwoFactor(app(), member);
    expect(
      await resetTwoFactor(db(), { userId: member, actorId: null, reason: "locked out" }),
    ).toMatchObject({ ok: true });
  });
});
