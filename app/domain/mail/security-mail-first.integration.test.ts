import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { JOB_PRIORITY_URGENT } from "~/domain/jobs/jobs.server";
import { suiteSmtpServer } from "../../../tests/support/mail-fixtures";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRow } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { mailHandler } from "../../../server/mail";
import { SECURITY_MAIL_KINDS } from "./mail";
import { MAIL_SEND_JOB } from "./mail-sender.server";
import { queueMail, queueMails } from "./mail.server";
import type { MailEvent } from "./mail-events";

const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";
const T0 = new Date("2026-11-23T10:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

// A password reset asked for during a flood of ordinary mail once went out minutes late, behind every
// message queued before it. Security mail's send jobs are claimed before any other (JOB_PRIORITY_URGENT).
describeEachDatabase("security mail ahead of every other message", (app) => {
  const smtp = suiteSmtpServer();

  /** One round of a worker that sends one message at a time, at `now`. */
  async function sendOne(now: Date) {
    const worker = steppedWorker({
      db: app().db,
      handlers: { [MAIL_SEND_JOB]: mailHandler(app(), { SMTP_URL: smtp().url, MAIL_FROM }) },
      config: { leaseMs: 10_000, pollMs: 10, backoffMs: 1000, concurrency: 1 },
      now: () => now,
    });
    await worker.tick();
    await worker.idle();
    await worker.stop(100);
  }

  it("sends a reset queued behind 60 ordinary messages before any of them", async () => {
    const db = app().db;
    const customer = await customerWithCoins(app(), 0);
    const { email } = await readRow(db, "users", ["email"], { id: customer });
    const ordinary: MailEvent[] = Array.from({ length: 60 }, (_, i) => ({
      kind: "orderApproved",
      orderId: 90_000 + i,
      userId: customer,
      product: `Server ${i}`,
      setup: "manual",
    }));
    await inTransaction(db, (trx) => queueMails(trx, ordinary, T0));
    await inTransaction(db, (trx) =>
      queueMail(
        trx,
        { kind: "passwordReset", userId: customer, token: "reset-token-0001" },
        at(60),
      ),
    );
    const toCustomer = () => smtp().received.filter((mail) => mail.to.includes(email));

    await sendOne(at(120));
    expect(toCustomer().map((mail) => mail.subject)).toEqual(["Reset your password at Hostfront"]);
    // Then the ordinary ones, oldest first.
    await sendOne(at(121));
    expect(toCustomer().map((mail) => mail.subject)).toEqual([
      "Reset your password at Hostfront",
      "Order #90000 approved",
    ]);
  });

  it("queues every kind of security mail urgent and the other kinds ordinary", async () => {
    const db = app().db;
    const customer = await customerWithCoins(app(), 0);
    const admin = await adminId(app());
    const events: MailEvent[] = [
      { kind: "passwordReset", userId: customer, token: "reset-token-0002" },
      {
        kind: "passwordChanged",
        userId: customer,
        token: "reset-token-0002",
        at: T0.toISOString(),
      },
      { kind: "emailVerification", userId: customer, token: "verify-0002", sendKey: "send-0002" },
      {
        kind: "emailChanged",
        userId: customer,
        oldEmail: "old@example.com",
        newEmail: "new@example.com",
        changeKey: "change-0002",
      },
      {
        kind: "adminSignIn",
        userId: admin,
        eventKey: "signin-0002",
        at: T0.toISOString(),
        ip: "192.0.2.4",
        userAgent: null,
      },
      { kind: "twoFactorReset", userId: customer, resetAt: T0.toISOString() },
      {
        kind: "roleChanged",
        userId: customer,
        change: "added",
        from: null,
        to: "support",
        at: T0.toISOString(),
      },
      {
        kind: "orderApproved",
        orderId: 91_000,
        userId: customer,
        product: "VPS",
        setup: "panel",
      },
      {
        kind: "ticketOpened",
        ticketId: 91_000,
        department: "sales",
        subject: "Hello",
        message: "A question",
      },
    ];
    await inTransaction(db, (trx) => queueMails(trx, events, T0));
    const rows = await db
      .selectFrom("mail_outbox")
      .select(["id", "kind"])
      .where("created_at", "=", T0.toISOString())
      .where((eb) => eb.or([eb("user_id", "=", customer), eb("user_id", "=", admin)]))
      .execute();
    const priorities = new Map<string, number>();
    for (const row of rows) {
      const job = await readRow(db, "jobs", ["priority"], { unique_key: `mail:${row.id}` });
      priorities.set(row.kind, job.priority);
    }
    expect(Object.fromEntries(priorities)).toEqual({
      ...Object.fromEntries(SECURITY_MAIL_KINDS.map((kind) => [kind, JOB_PRIORITY_URGENT])),
      orderApproved: 0,
      staffTicketOpened: 0,
    });
  });
});
