import { afterEach, expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { writeLedgerEntry } from "~/domain/coins/coins.server";
import { DOCUMENT_COLUMNS } from "~/domain/invoices/documents.server";
import { negatedAmounts, negatedLines } from "~/domain/invoices/invoices";
import { issueDocument } from "~/domain/invoices/issuing.server";
import { findInvoiceDiscrepancies } from "~/domain/invoices/reconciliation.server";
import { runLifecycle } from "~/domain/lifecycle/lifecycle.server";
import { PANEL_SYNC_JOB } from "~/domain/provisioning/panel-job-types";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { toDocument } from "~/domain/invoices/documents.server";
import {
  balanceOf,
  customerWithRunningService,
  expectLedgerIntactAfterEach,
  renewWithNewKey,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { refusal } from "../../../tests/support/results";
import { staffMember } from "../../../tests/support/staff-members";
import { atOnce, describeEachDatabase } from "../../../tests/support/test-database";
import { REFUND_WINDOW_DAYS } from "./cancellation";
import {
  loadCancelPage,
  requestRefund,
  scheduleEndOfTerm,
  withdrawCancellation,
} from "./cancellation.server";
import { approveRefund, refuseRefund } from "./refund-decision.server";
import type { AppServices } from "~/context.server";
import { loadCancellationReasons } from "~/domain/reports/cancellation-reasons.server";
import { reportWindow } from "~/domain/reports/reports";

const DAY = 86_400_000;
const WINDOW = REFUND_WINDOW_DAYS * DAY;
const asked = { reason: "tooExpensive" as const, reasonText: null };

/** The service's order's time, moved to `at` (the window counts from it). */
async function orderedAt(app: AppServices, serviceId: number, at: number) {
  await app.db
    .updateTable("orders")
    .set({ created_at: new Date(at).toISOString() })
    .where("hosting_service_id", "=", serviceId)
    .execute();
}

async function serviceRow(app: AppServices, serviceId: number) {
  return readRow(
    app.db,
    "hosting_services",
    ["status", "auto_renew", "ends_at_expiry", "expires_at"],
    {
      id: serviceId,
    },
  );
}

async function requestsOf(app: AppServices, serviceId: number) {
  return readRows(app.db, "service_cancellations", ["id", "kind", "state"], {
    hosting_service_id: serviceId,
  });
}

/** The credit notes of the invoices of `user`, by the invoice they credit. */
async function creditNotesOf(app: AppServices, user: string) {
  return app.db
    .selectFrom("invoices")
    .select(["number", "total_cents", "credits_invoice_id", "ledger_entry_id"])
    .where("user_id", "=", user)
    .where("kind", "=", "credit_note")
    .orderBy("id")
    .execute();
}

describeEachDatabase("a customer's cancellation", (app, dialect) => {
  expectLedgerIntactAfterEach(app);
  const ceiling = (autoRefundMaxCoins: number) =>
    updateSettingsSection(app().db, "selfService", {
      ...defaultSettings().selfService,
      autoRefundMaxCoins,
    });
  afterEach(async () => {
    await updateSettingsSection(app().db, "selfService", defaultSettings().selfService);
    await updateSettingsSection(app().db, "lifecycle", defaultSettings().lifecycle);
  });

  it("ends a service cancelled at the end of its term at its expiry, untold before, its server deleted", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    const { user: other, serviceId: kept } = await customerWithRunningService(app(), 1_000);
    await app()
      .db.updateTable("hosting_services")
      .set({ auto_renew: 1, panel_state: "ready", panel_server_id: 4242 })
      .where("id", "=", serviceId)
      .execute();
    const scheduled = await scheduleEndOfTerm(app().db, { userId: user, serviceId, ...asked });
    expect(scheduled).toMatchObject({ ok: true, cancellation: { state: "scheduled" } });
    const before = await serviceRow(app(), serviceId);
    expect(before).toMatchObject({ status: "active", auto_renew: 0, ends_at_expiry: 1 });
    // The other service's expiry, the same: it is reminded, renewed or suspended as ever.
    await app()
      .db.updateTable("hosting_services")
      .set({ expires_at: before.expires_at })
      .where("id", "=", kept)
      .execute();
    await updateSettingsSection(app().db, "lifecycle", {
      ...defaultSettings().lifecycle,
      enabled: true,
    });
    const expiry = Date.parse(before.expires_at);
    for (const at of [expiry - 6 * DAY, expiry - 2 * DAY, expiry - 12 * 3_600_000])
      await runLifecycle(app().db, { now: new Date(at) });
    const told = async (userId: string) =>
      (await readRows(app().db, "notifications", ["kind"], { user_id: userId })).map(
        (row) => row.kind,
      );
    expect(await told(user)).not.toContain("service_expiry_reminder");
    expect(await told(other)).toContain("service_expiry_reminder");
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "active" });

    // At its expiry it ends, with its own notice and mail, and the panel's server is deleted by a job.
    const run = await runLifecycle(app().db, { now: new Date(expiry + 60_000) });
    expect(run.counts.terminated).toBeGreaterThanOrEqual(1);
    expect(await serviceRow(app(), serviceId)).toMatchObject({
      status: "terminated",
      ends_at_expiry: 0,
    });
    expect(await requestsOf(app(), serviceId)).toMatchObject([{ state: "done" }]);
    // Of the service's notices, only its end: no reminder, renewal or suspension came before it.
    expect((await told(user)).filter((kind) => kind.startsWith("service_"))).toEqual([
      "service_ended_at_term",
    ]);
    const mails = await readRows(app().db, "mail_outbox", ["kind", "params"], { user_id: user });
    expect(mails.map((mail) => mail.kind)).not.toContain("serviceExpiring");
    expect(mails.map((mail) => mail.kind)).not.toContain("serviceSuspended");
    expect(mails.filter((mail) => mail.kind === "serviceTerminated")).toHaveLength(1);
    expect(mails.find((mail) => mail.kind === "serviceTerminated")!.params).toContain("cancelled");
    const jobs = await app()
      .db.selectFrom("jobs")
      .select("payload")
      .where("type", "=", PANEL_SYNC_JOB)
      .execute();
    expect(jobs.some((job) => JSON.parse(job.payload).serviceId === serviceId)).toBe(true);
    // The other, not cancelled, was suspended after its grace, not ended.
    await runLifecycle(app().db, { now: new Date(expiry + 3 * DAY) });
    expect(await serviceRow(app(), kept)).toMatchObject({ status: "suspended" });
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "terminated" });
  });

  it("keeps the server: the request withdrawn before the expiry, its automatic renewal back", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    await app()
      .db.updateTable("hosting_services")
      .set({ auto_renew: 1 })
      .where("id", "=", serviceId)
      .execute();
    await scheduleEndOfTerm(app().db, { userId: user, serviceId, ...asked });
    const kept = await withdrawCancellation(app().db, { userId: user, serviceId });
    expect(kept).toMatchObject({ ok: true, cancellation: { state: "withdrawn" } });
    expect(await serviceRow(app(), serviceId)).toMatchObject({ auto_renew: 1, ends_at_expiry: 0 });
    // Nothing left to withdraw; and after the expiry an end of term is not withdrawn any more.
    expect(await withdrawCancellation(app().db, { userId: user, serviceId })).toEqual(
      refusal("conflict", "services.cancel.errors.nothingOpen"),
    );
    await scheduleEndOfTerm(app().db, { userId: user, serviceId, ...asked });
    const { expires_at } = await serviceRow(app(), serviceId);
    expect(
      await withdrawCancellation(app().db, {
        userId: user,
        serviceId,
        now: new Date(Date.parse(expires_at) + 1),
      }),
    ).toEqual(refusal("conflict", "services.cancel.errors.tooLate"));
    expect(await serviceRow(app(), serviceId)).toMatchObject({ ends_at_expiry: 1 });
  });

  it("keeps the server its customer renews after setting it to end at its term", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    await app()
      .db.updateTable("hosting_services")
      .set({ auto_renew: 1 })
      .where("id", "=", serviceId)
      .execute();
    await scheduleEndOfTerm(app().db, { userId: user, serviceId, ...asked });
    const before = await serviceRow(app(), serviceId);
    expect(await renewWithNewKey(app(), user, serviceId)).toMatchObject({ ok: true });
    expect(await requestsOf(app(), serviceId)).toMatchObject([
      { kind: "end_of_term", state: "withdrawn" },
    ]);
    const after = await serviceRow(app(), serviceId);
    expect(after).toMatchObject({ status: "active", auto_renew: 1, ends_at_expiry: 0 });
    expect(Date.parse(after.expires_at)).toBeGreaterThan(Date.parse(before.expires_at));
    // The lifecycle, past the old expiry, ends nothing: the renewed term runs on.
    await updateSettingsSection(app().db, "lifecycle", {
      ...defaultSettings().lifecycle,
      enabled: true,
    });
    await runLifecycle(app().db, { now: new Date(Date.parse(before.expires_at) + 60_000) });
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "active" });
    const audit = await readRow(app().db, "audit_log", ["after"], {
      action: "service.cancel_withdrawn",
      target_id: String(serviceId),
    });
    expect(JSON.parse(String(audit.after))).toEqual({ endsAtExpiry: false, autoRenew: true });
  });

  it("leaves a refund request waiting for the staff alone when the service is renewed", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 10_000);
    await ceiling(1);
    expect(await requestRefund(app().db, { userId: user, serviceId, ...asked })).toMatchObject({
      ok: true,
      cancellation: { state: "requested" },
    });
    expect(await renewWithNewKey(app(), user, serviceId)).toMatchObject({ ok: true });
    expect(await requestsOf(app(), serviceId)).toMatchObject([
      { kind: "refund", state: "requested" },
    ]);
  });

  it("refuses a second request of a service, whatever its kind, and changes nothing", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    await ceiling(0);
    expect(await requestRefund(app().db, { userId: user, serviceId, ...asked })).toMatchObject({
      ok: true,
      cancellation: { state: "requested", refundCents: 250 },
    });
    const second = refusal("conflict", "services.cancel.errors.alreadyOpen");
    expect(await requestRefund(app().db, { userId: user, serviceId, ...asked })).toEqual(second);
    expect(await scheduleEndOfTerm(app().db, { userId: user, serviceId, ...asked })).toEqual(
      second,
    );
    expect(await requestsOf(app(), serviceId)).toHaveLength(1);
    expect(await serviceRow(app(), serviceId)).toMatchObject({ ends_at_expiry: 0 });
  });

  it(atOnce(dialect, "refuses all but one of the same request sent at once"), async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    await ceiling(0);
    const results = await Promise.all(
      [1, 2, 3, 4].map(() => requestRefund(app().db, { userId: user, serviceId, ...asked })),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual(
      [1, 2, 3].map(() => refusal("conflict", "services.cancel.errors.alreadyOpen")),
    );
    expect(await requestsOf(app(), serviceId)).toHaveLength(1);
  });

  it("takes a refund until exactly 14 × 24 hours after the order, not a millisecond later", async () => {
    await ceiling(0);
    const ordered = Date.parse("2031-05-01T10:00:00.000Z");
    const late = await customerWithRunningService(app(), 1_000);
    await orderedAt(app(), late.serviceId, ordered);
    const balance = await balanceOf(app(), late.user);
    expect(
      await requestRefund(app().db, {
        userId: late.user,
        serviceId: late.serviceId,
        ...asked,
        now: new Date(ordered + WINDOW + 1),
      }),
    ).toEqual(refusal("conflict", "services.cancel.errors.windowPassed"));
    expect(await requestsOf(app(), late.serviceId)).toEqual([]);
    expect(await balanceOf(app(), late.user)).toBe(balance);
    const page = await loadCancelPage(app().db, {
      userId: late.user,
      serviceId: late.serviceId,
      now: new Date(ordered + WINDOW + 1),
    });
    expect(page?.refund).toEqual({ offered: false, why: "windowPassed" });

    const inTime = await customerWithRunningService(app(), 1_000);
    await orderedAt(app(), inTime.serviceId, ordered);
    const last = new Date(ordered + WINDOW);
    expect(
      (
        await loadCancelPage(app().db, {
          userId: inTime.user,
          serviceId: inTime.serviceId,
          now: last,
        })
      )?.refund,
    ).toEqual({ offered: true, until: last.toISOString(), amountCents: 250 });
    expect(
      await requestRefund(app().db, {
        userId: inTime.user,
        serviceId: inTime.serviceId,
        ...asked,
        now: last,
      }),
    ).toMatchObject({ ok: true, cancellation: { state: "requested" } });
  });

  it("approves a refund under the ceiling at once: coins back once, invoice credited, server deleted", async () => {
    await ceiling(10);
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_state: "ready", panel_server_id: 777 })
      .where("id", "=", serviceId)
      .execute();
    const balance = await balanceOf(app(), user);
    const result = await requestRefund(app().db, { userId: user, serviceId, ...asked });
    expect(result).toMatchObject({
      ok: true,
      cancellation: { state: "approved", refundCents: 250, decidedBySystem: true },
    });
    expect(await balanceOf(app(), user)).toBe(balance + 250);
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "terminated" });
    const notes = await creditNotesOf(app(), user);
    expect(notes).toHaveLength(1);
    expect(notes[0]!.total_cents).toBe(-250);
    const invoice = await readRow(app().db, "invoices", ["state"], {
      user_id: user,
      kind: "invoice",
    });
    expect(invoice.state).toBe("credited");
    const jobs = await app()
      .db.selectFrom("jobs")
      .select("payload")
      .where("type", "=", PANEL_SYNC_JOB)
      .execute();
    expect(jobs.some((job) => JSON.parse(job.payload).serviceId === serviceId)).toBe(true);
    const kinds = (await readRows(app().db, "notifications", ["kind"], { user_id: user })).map(
      (row) => row.kind,
    );
    expect(kinds).toContain("service_refunded");
    const mails = (await readRows(app().db, "mail_outbox", ["kind"], { user_id: user })).map(
      (row) => row.kind,
    );
    expect(mails).toEqual(expect.arrayContaining(["documentIssued", "serviceTerminated"]));
    const audit = await readRow(app().db, "audit_log", ["actor_id"], {
      action: "service.refund_approved",
      target_id: String(serviceId),
    });
    expect(audit.actor_id).toBeNull();
  });

  it("leaves a refund above the ceiling to the staff, who approve it, and once only", async () => {
    await ceiling(1);
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    const balance = await balanceOf(app(), user);
    const asked1 = await requestRefund(app().db, { userId: user, serviceId, ...asked });
    if (!asked1.ok) throw new Error(asked1.error);
    expect(asked1.cancellation).toMatchObject({ state: "requested", refundCents: 250 });
    expect(await balanceOf(app(), user)).toBe(balance);
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "active" });
    const staffTold = await app()
      .db.selectFrom("notifications")
      .select("kind")
      .where("dedupe_key", "like", `refund:requested:${asked1.cancellation.id}:%`)
      .execute();
    expect(staffTold.length).toBeGreaterThan(0);

    // Support holds no refund permission; billing does.
    const support = await staffMember(app(), "support");
    expect(
      await approveRefund(app().db, { id: asked1.cancellation.id, actorId: support }),
    ).toMatchObject({
      ok: false,
      kind: "forbidden",
    });
    const billing = await staffMember(app(), "billing");
    expect(await approveRefund(app().db, { id: asked1.cancellation.id, actorId: billing })).toEqual(
      {
        ok: true,
        amountCents: 250,
        creditNotes: [expect.stringMatching(/^HFC-/)],
      },
    );
    // A replay of the same click, and a refusal after it: decided already, nothing moves.
    expect(await approveRefund(app().db, { id: asked1.cancellation.id, actorId: billing })).toEqual(
      refusal("conflict", "services.refunds.errors.alreadyDecided"),
    );
    expect(
      await refuseRefund(app().db, { id: asked1.cancellation.id, actorId: billing, reason: "no" }),
    ).toEqual(refusal("conflict", "services.refunds.errors.alreadyDecided"));
    expect(await balanceOf(app(), user)).toBe(balance + 250);
    expect(await creditNotesOf(app(), user)).toHaveLength(1);
    const row = await readRow(app().db, "service_cancellations", ["decided_by", "state"], {
      id: asked1.cancellation.id,
    });
    expect(row).toEqual({ decided_by: billing, state: "approved" });
    // The customer cannot withdraw what is decided.
    expect(await withdrawCancellation(app().db, { userId: user, serviceId })).toEqual(
      refusal("conflict", "services.cancel.errors.nothingOpen"),
    );
  });

  it(atOnce(dialect, "credits a refund once when two admins approve it at once"), async () => {
    await ceiling(0);
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    await renewWithNewKey(app(), user, serviceId);
    const balance = await balanceOf(app(), user);
    const asked1 = await requestRefund(app().db, { userId: user, serviceId, ...asked });
    if (!asked1.ok) throw new Error(asked1.error);
    const [owner, billing] = await Promise.all([
      staffMember(app(), "owner"),
      staffMember(app(), "billing"),
    ]);
    const results = await Promise.all(
      [owner, billing, owner, billing].map((actorId) =>
        approveRefund(app().db, { id: asked1.cancellation.id, actorId }),
      ),
    );
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.filter((result) => !result.ok)).toEqual(
      [1, 2, 3].map(() => refusal("conflict", "services.refunds.errors.alreadyDecided")),
    );
    // The order's invoice and the renewal's: both given back, each with its credit note, once.
    expect(await balanceOf(app(), user)).toBe(balance + 500);
    expect(await creditNotesOf(app(), user)).toHaveLength(2);
  });

  it("refuses a refund with a reason the customer is told; the service runs on", async () => {
    await ceiling(0);
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    const balance = await balanceOf(app(), user);
    const asked1 = await requestRefund(app().db, { userId: user, serviceId, ...asked });
    if (!asked1.ok) throw new Error(asked1.error);
    const billing = await staffMember(app(), "billing");
    expect(
      await refuseRefund(app().db, {
        id: asked1.cancellation.id,
        actorId: billing,
        reason: "The server was used for the whole period",
      }),
    ).toMatchObject({ ok: true });
    expect(await balanceOf(app(), user)).toBe(balance);
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "active" });
    const notice = await readRow(app().db, "notifications", ["params"], {
      user_id: user,
      kind: "service_refund_refused",
    });
    expect(JSON.parse(notice.params)).toMatchObject({
      reason: "The server was used for the whole period",
    });
    const page = await loadCancelPage(app().db, { userId: user, serviceId, now: new Date() });
    expect(page).toMatchObject({ canCancel: true, current: { state: "refused" } });
  });

  it("lets the customer withdraw a refund request until it is decided", async () => {
    await ceiling(0);
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    const asked1 = await requestRefund(app().db, { userId: user, serviceId, ...asked });
    if (!asked1.ok) throw new Error(asked1.error);
    expect(await withdrawCancellation(app().db, { userId: user, serviceId })).toMatchObject({
      ok: true,
      cancellation: { state: "withdrawn" },
    });
    const owner = await staffMember(app(), "owner");
    expect(await approveRefund(app().db, { id: asked1.cancellation.id, actorId: owner })).toEqual(
      refusal("conflict", "services.refunds.errors.alreadyDecided"),
    );
    expect(await serviceRow(app(), serviceId)).toMatchObject({ status: "active" });
  });

  it("gives back what is left of a partly credited invoice, with a credit note of that part", async () => {
    await ceiling(0);
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    // A downgrade of plan: 100 of the order's 250 given back with a credit note of the invoice, which
    // stays paid.
    const invoiceId = await inTransaction(app().db, async (trx) => {
      const row = await trx
        .selectFrom("invoices")
        .select(DOCUMENT_COLUMNS)
        .where("user_id", "=", user)
        .where("kind", "=", "invoice")
        .executeTakeFirstOrThrow();
      const entry = await writeLedgerEntry(trx, {
        userId: user,
        amountCents: 100,
        kind: "order_refund",
        reason: "downgrade",
        actorId: null,
        hostingServiceId: serviceId,
      });
      const original = toDocument(row, { creditsNumber: null, creditedBy: null });
      await issueDocument(trx, {
        kind: "credit_note",
        userId: user,
        amounts: negatedAmounts({ ...original, subtotalCents: 100, vatCents: 0, totalCents: 100 }),
        seller: original.seller,
        buyer: original.buyer,
        // A downgrade's part is told by its line, a change of plan's (PARTIAL_CREDIT_LINES).
        lines: negatedLines([
          { ...original.lines[0]!, kind: "planChange", unitCents: 100, totalCents: 100 },
        ]),
        timeZone: "UTC",
        hostingServiceId: serviceId,
        creditsInvoiceId: Number(row.id),
        ledgerEntryId: entry!.entryId,
        refundMethod: "coins",
      });
      return Number(row.id);
    });
    const balance = await balanceOf(app(), user);
    const page = await loadCancelPage(app().db, { userId: user, serviceId, now: new Date() });
    expect(page?.refund).toMatchObject({ offered: true, amountCents: 150 });
    const asked1 = await requestRefund(app().db, { userId: user, serviceId, ...asked });
    if (!asked1.ok) throw new Error(asked1.error);
    expect(asked1.cancellation.refundCents).toBe(150);
    const owner = await staffMember(app(), "owner");
    expect(
      await approveRefund(app().db, { id: asked1.cancellation.id, actorId: owner }),
    ).toMatchObject({
      ok: true,
      amountCents: 150,
    });
    expect(await balanceOf(app(), user)).toBe(balance + 150);
    const notes = await creditNotesOf(app(), user);
    expect(notes.map((note) => note.total_cents)).toEqual([-100, -150]);
    expect(notes.every((note) => Number(note.credits_invoice_id) === invoiceId)).toBe(true);
    const last = await readRow(app().db, "invoices", ["subtotal_cents", "vat_cents", "lines"], {
      number: notes[1]!.number,
    });
    expect(last.subtotal_cents + last.vat_cents).toBe(-150);
    expect(JSON.parse(last.lines)).toMatchObject([{ totalCents: -150 }]);
    const invoice = await readRow(app().db, "invoices", ["state", "number"], { id: invoiceId });
    expect(invoice.state).toBe("credited");
    // The books agree: its two credit notes add up to its whole total.
    const problems = await findInvoiceDiscrepancies(app().db);
    expect(problems.filter((problem) => problem.number === invoice.number)).toEqual([]);
  });

  it("counts the reasons of the report's months, each kind apart, without the withdrawn", async () => {
    await ceiling(0);
    const window = reportWindow(new Date());
    const of = async (reason: string) =>
      (await loadCancellationReasons(app().db, window)).find((row) => row.reason === reason)!;
    const before = await of("switchingHost");
    const because = { reason: "switchingHost" as const, reasonText: "Cheaper elsewhere" };
    const first = await customerWithRunningService(app(), 1_000);
    await scheduleEndOfTerm(app().db, {
      userId: first.user,
      serviceId: first.serviceId,
      ...because,
    });
    const second = await customerWithRunningService(app(), 1_000);
    await requestRefund(app().db, { userId: second.user, serviceId: second.serviceId, ...because });
    const third = await customerWithRunningService(app(), 1_000);
    await requestRefund(app().db, { userId: third.user, serviceId: third.serviceId, ...because });
    await withdrawCancellation(app().db, { userId: third.user, serviceId: third.serviceId });
    expect(await of("switchingHost")).toEqual({
      reason: "switchingHost",
      endOfTerm: before.endOfTerm + 1,
      refund: before.refund + 1,
    });
    // Outside the months: none of them.
    const earlier = reportWindow(new Date(Date.parse(window.from) - DAY));
    expect(
      (await loadCancellationReasons(app().db, { from: earlier.from, to: window.from })).every(
        (row) => row.endOfTerm === 0 && row.refund === 0,
      ),
    ).toBe(true);
  });

  it("offers no refund for a service added by hand, and cancels only an active one", async () => {
    const { user, serviceId } = await customerWithRunningService(app(), 1_000);
    await app()
      .db.updateTable("orders")
      .set({ hosting_service_id: null })
      .where("hosting_service_id", "=", serviceId)
      .execute();
    expect(await requestRefund(app().db, { userId: user, serviceId, ...asked })).toEqual(
      refusal("conflict", "services.cancel.errors.noOrder"),
    );
    await app()
      .db.updateTable("hosting_services")
      .set({ status: "suspended", suspension_reason: "admin" })
      .where("id", "=", serviceId)
      .execute();
    expect(await scheduleEndOfTerm(app().db, { userId: user, serviceId, ...asked })).toEqual(
      refusal("conflict", "services.cancel.errors.notActive"),
    );
    // Another customer's service is none of theirs.
    const { user: stranger } = await customerWithRunningService(app(), 1_000);
    expect(await scheduleEndOfTerm(app().db, { userId: stranger, serviceId, ...asked })).toEqual(
      refusal("notFound", "services.errors.notFound"),
    );
    expect(await requestsOf(app(), serviceId)).toEqual([]);
  });
});
