import { expect, it } from "vitest";
import { adjustCoins } from "~/domain/coins/coins.server";
import { JOB_HANDLERS } from "~/domain/jobs/registry.server";
import { requestTopUp } from "~/domain/payments/top-up-requests.server";
import { openTicket, staffReply } from "~/domain/tickets/tickets.server";
import { addInternalNote } from "~/domain/tickets/ticket-notes.server";
import { inTransaction } from "~/db/transaction";
import { eraseAccount } from "~/domain/accounts/account-deletion.server";
import { mailWriter } from "~/features/mail/mail-writer";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import { dataExportWiring } from "../../../server/data-exports";
import { customerSignedInAt } from "../../../tests/support/account-fixtures";
import { appFetch } from "../../../tests/support/app-harness";
import {
  adminId,
  approvedOrder,
  customerWithCoins,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { freshTotpCode } from "../../../tests/support/totp";
import { readZip, zipFiles } from "../../../tests/support/zip-reader";
import {
  confirmTwoFactorSetup,
  loadTwoFactorState,
  startTwoFactorSetup,
} from "../accounts/two-factor.server";
import {
  dataExportHandlers,
  dataExportSchedules,
  DATA_EXPORT_PURGE_JOB,
} from "./data-export-jobs.server";
import { DATA_EXPORT_LINK_DAYS, dataExportPath } from "./data-exports";
import {
  askForDataExport,
  DATA_EXPORT_JOB,
  loadDataExportsCard,
  openDataExport,
} from "./data-exports.server";

const START = new Date("2031-03-12T10:00:00.000Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const PASSWORD = "Archive-owner-pw-5521";
let serial = 0;
const uniqueEmail = () => `archive${Date.now()}${serial++}@example.com`;
const CONFIG = { leaseMs: 30_000, pollMs: 1_000, backoffMs: 1_000, concurrency: 1 };

// A customer's archive of their data (docs/self-service.md#a-customers-data): asked for, made by the
// worker (never by the request), offered through a link that only its owner opens, limited a day,
// one at a time, and deleted once its link has run out.
describeEachDatabase("a customer's data archive", (app) => {
  let clock = START;
  const wiring = () => dataExportWiring(app());
  const worker = () =>
    steppedWorker({
      db: app().db,
      handlers: { ...JOB_HANDLERS, ...dataExportHandlers(wiring()) },
      schedules: dataExportSchedules,
      config: CONFIG,
      now: () => clock,
    });

  /**
   * Rounds of the worker, a second apart, until no archive's job waits (at least `rounds`): only the
   * archives' jobs run (mail has no handler here).
   */
  async function runJobs(rounds = 1) {
    const running = worker();
    const waiting = async () =>
      (
        await app()
          .db.selectFrom("jobs")
          .select("id")
          .where("type", "=", DATA_EXPORT_JOB)
          .where("state", "in", ["queued", "running"])
          .execute()
      ).length;
    for (let round = 0; round < 20 && (round < rounds || (await waiting()) > 0); round++) {
      await app().db.deleteFrom("jobs").where("type", "not like", "data-exports.%").execute();
      clock = new Date(clock.getTime() + 1_000);
      await running.tick();
      await running.idle();
    }
    await running.stop(1_000);
  }

  const secret = () => app().env.AUTH_SECRET;
  const ask = (userId: string, perDay = 3) =>
    askForDataExport(app().db, { userId, now: clock }, { perDay });
  const exportsOf = (userId: string) =>
    readRows(
      app().db,
      "data_exports",
      ["id", "state", "job_id", "size_bytes", "downloads"],
      {
        user_id: userId,
      },
      "id",
    );
  const cardOf = (userId: string, perDay = 3) =>
    loadDataExportsCard(app().db, { userId, secret: secret(), perDay, now: clock });
  /** The archive's link as the account tab shows it. */
  async function linkOf(userId: string): Promise<string> {
    const link = (await cardOf(userId)).exports.find((each) => each.link)?.link;
    if (!link) throw new Error("no link");
    return link;
  }
  const tokenOf = (link: string) => link.slice(link.lastIndexOf("/") + 1);

  /** A customer with two-factor sign-in on, coins, an order, a ticket answered and a top-up request. */
  async function fullCustomer() {
    const account = await customerSignedInAt(
      app(),
      { name: "Archive Owner", email: uniqueEmail(), password: PASSWORD },
      `10.61.0.${serial % 200}`,
    );
    const signed = { userId: account.userId, cookie: account.cookie, ip: account.home };
    expect(await startTwoFactorSetup(app(), { ...signed, password: PASSWORD })).toEqual({
      ok: true,
    });
    const state = await loadTwoFactorState(app(), account.userId);
    if (state.status !== "pending") throw new Error("two-factor set-up not pending");
    const confirmed = await confirmTwoFactorSetup(app(), {
      ...signed,
      code: await freshTotpCode(state.secret),
    });
    if (!confirmed.ok) throw new Error(confirmed.error);
    const admin = await adminId(app());
    const credit = await adjustCoins(app().db, {
      userId: account.userId,
      amountCents: 5_000,
      reason: "welcome",
      actorId: admin,
    });
    if (!credit.ok) throw new Error(credit.error);
    const { placed } = await approvedOrder(app(), account.userId, {
      productId: await productId(app(), "samp-starter"),
    });
    const ticket = await openTicket(app().db, {
      userId: account.userId,
      department: "billing",
      subject: "Where is my server?",
      priority: "low",
      message: "I ordered one «today».",
    });
    if (!ticket.ok) throw new Error("no ticket");
    await staffReply(app().db, {
      actorId: admin,
      ticketId: ticket.ticket.id,
      message: "It is ready now.",
    });
    // A note the staff wrote for themselves: never the customer's to read, so never in their archive.
    const note = await addInternalNote(app().db, {
      actorId: admin,
      ticketId: ticket.ticket.id,
      message: "Staff only: check the node before answering.",
    });
    if (!note.ok) throw new Error("no note");
    const method = await readRow(app().db, "payment_methods", ["id"], { code: "cashplus" });
    await app()
      .db.updateTable("payment_methods")
      .set({ enabled: 1, instructions: JSON.stringify({ en: "Pay", fr: "", ar: "" }) })
      .where("id", "=", method.id)
      .execute();
    const topUp = await requestTopUp(app().db, {
      userId: account.userId,
      methodId: Number(method.id),
      coins: 10,
    });
    if (!topUp.ok) throw new Error(topUp.error);
    return {
      ...account,
      secret: state.secret,
      backupCodes: confirmed.backupCodes,
      orderId: placed.id,
      ticketId: ticket.ticket.id,
      reference: topUp.request.reference,
    };
  }

  it("is made by the worker with every file, the documents as PDFs, and no secret", async () => {
    const customer = await fullCustomer();
    const asked = await ask(customer.userId);
    if (!asked.ok) throw new Error(asked.error);
    // The request queued the job; nothing is made until the worker runs it.
    const [queued] = await exportsOf(customer.userId);
    expect(queued).toMatchObject({ state: "queued", size_bytes: null });
    const job = await readRow(app().db, "jobs", ["type", "state", "payload"], {
      id: Number(queued!.job_id),
    });
    expect(job).toMatchObject({ type: DATA_EXPORT_JOB, state: "queued" });
    expect(JSON.parse(job.payload)).toEqual({ exportId: asked.exportId });
    expect((await cardOf(customer.userId)).waiting).toBe(true);

    await runJobs();
    const row = await readRow(
      app().db,
      "data_exports",
      ["state", "archive", "size_bytes", "token_hash", "ready_at", "expires_at"],
      { id: asked.exportId },
    );
    expect(row.state).toBe("ready");
    expect(row.size_bytes).toBe(row.archive!.length);
    expect(new Date(row.expires_at!).getTime() - new Date(row.ready_at!).getTime()).toBe(
      DATA_EXPORT_LINK_DAYS * DAY,
    );
    const zip = Buffer.from(row.archive!);
    const files = zipFiles(zip);
    const documents = await readRows(
      app().db,
      "invoices",
      ["number"],
      {
        user_id: customer.userId,
      },
      "id",
    );
    expect(documents.length).toBeGreaterThan(0);
    expect([...files.keys()]).toEqual([
      "README.txt",
      "account.json",
      "orders.json",
      "services.json",
      "coin-history.json",
      "tickets.json",
      "top-up-requests.json",
      "invoices.json",
      ...documents.map((document) => `invoices/${document.number}.pdf`),
    ]);
    for (const document of documents)
      expect(files.get(`invoices/${document.number}.pdf`)!.subarray(0, 5).toString()).toBe("%PDF-");

    const read = (name: string) => JSON.parse(files.get(name)!.toString("utf8")) as unknown;
    const account = read("account.json") as {
      profile: { email: string; twoFactorSignIn: boolean };
      coinBalance: { cents: number; euros: string };
      sessions: { ipAddress: string }[];
    };
    expect(account.profile).toMatchObject({ email: customer.email, twoFactorSignIn: true });
    expect(account.sessions.map((session) => session.ipAddress)).toContain(customer.home);
    const [order] = read("orders.json") as {
      id: number;
      total: { cents: number; euros: string };
    }[];
    expect(order!.id).toBe(customer.orderId);
    expect(order!.total.euros).toBe((order!.total.cents / 100).toFixed(2));
    const [ticket] = read("tickets.json") as { messages: { from: string; text: string }[] }[];
    expect(ticket!.messages).toEqual([
      expect.objectContaining({ from: "you", text: "I ordered one «today»." }),
      expect.objectContaining({ from: "staff", text: "It is ready now." }),
    ]);
    const [topUp] = read("top-up-requests.json") as { reference: string }[];
    expect(topUp!.reference).toBe(customer.reference);
    const coins = read("coin-history.json") as { amount: { cents: number } }[];
    expect(coins.map((entry) => entry.amount.cents)).toContain(5_000);
    expect(files.get("README.txt")!.toString("utf8")).toContain("What each file holds:");

    // What opens the account appears nowhere: not in the archive's bytes, not in any file unpacked.
    const stored = await readRow(app().db, "accounts", ["password"], {
      user_id: customer.userId,
      provider_id: "credential",
    });
    const twoFactor = await readRow(app().db, "two_factors", ["secret", "backup_codes"], {
      user_id: customer.userId,
    });
    const sessions = await readRows(app().db, "sessions", ["id", "token"], {
      user_id: customer.userId,
    });
    const secrets = [
      stored.password!,
      twoFactor.secret,
      twoFactor.backup_codes,
      customer.secret,
      ...customer.backupCodes,
      ...sessions.flatMap((session) => [session.id, session.token]),
    ];
    expect(secrets.every((each) => each.length >= 8)).toBe(true);
    for (const each of secrets) {
      expect(zip.includes(each), "in the archive's bytes").toBe(false);
      for (const [name, data] of files) expect(data.includes(each), name).toBe(false);
    }

    // The customer is told: a notice that names the account tab, a mail that carries the link.
    const notice = await readRow(app().db, "notifications", ["link", "params"], {
      user_id: customer.userId,
      kind: "data_export_ready",
    });
    expect(notice.link).toBe("/dashboard/account#data-export");
    expect(notice.params).not.toContain(tokenOf(await linkOf(customer.userId)));
    const mail = await readRow(app().db, "mail_outbox", ["params", "unique_key"], {
      user_id: customer.userId,
      kind: "dataExportReady",
    });
    const token = (JSON.parse(mail.params) as { token: string }).token;
    expect(dataExportPath(token)).toBe(await linkOf(customer.userId));
    expect(mail.unique_key).not.toContain(token);
    // Written as the send job writes it: the link in full, to this site.
    const written = await mailWriter({
      settings: () => app().settings.get(),
      publicUrl: app().env.PUBLIC_URL,
      i18n: sharedI18n,
    })({ kind: "dataExportReady", locale: "en", params: JSON.parse(mail.params) });
    expect(written.subject).toContain("Your data archive");
    expect(written.text).toContain(
      `${app().env.PUBLIC_URL.replace(/\/$/, "")}${dataExportPath(token)}`,
    );
    // Audited as asked, by its owner.
    const audit = await readRow(app().db, "audit_log", ["actor_id", "target_id"], {
      action: "account.data_export",
      target_id: customer.userId,
    });
    expect(audit.actor_id).toBe(customer.userId);

    // A second run (a job claimed again after a crash) makes nothing new.
    await app()
      .db.insertInto("jobs")
      .values({
        type: DATA_EXPORT_JOB,
        payload: JSON.stringify({ exportId: asked.exportId }),
        state: "queued",
        run_at: clock.toISOString(),
        attempts: 0,
        max_attempts: 3,
        created_at: clock.toISOString(),
        updated_at: clock.toISOString(),
      })
      .execute();
    await runJobs(1);
    const again = await readRow(app().db, "data_exports", ["archive", "token_hash"], {
      id: asked.exportId,
    });
    expect(Buffer.from(again.archive!).equals(zip)).toBe(true);
    expect(again.token_hash).toBe(row.token_hash);
    expect(
      await readRows(app().db, "mail_outbox", ["id"], {
        user_id: customer.userId,
        kind: "dataExportReady",
      }),
    ).toHaveLength(1);
  }, 60_000);

  it("allows one being made at a time and so many a day (the last 24 hours), refusing the rest", async () => {
    const userId = await customerWithCoins(app(), 0);
    const jobsOf = () => readRows(app().db, "jobs", ["id"], { type: DATA_EXPORT_JOB });
    const first = await ask(userId, 2);
    expect(first.ok).toBe(true);
    const jobsBefore = (await jobsOf()).length;
    // While it is being made: refused, nothing written.
    expect(await ask(userId, 2)).toEqual({
      ok: false,
      kind: "conflict",
      error: "dashboard.dataExport.errors.waiting",
    });
    expect(await exportsOf(userId)).toHaveLength(1);
    expect(await jobsOf()).toHaveLength(jobsBefore);

    await runJobs();
    clock = new Date(clock.getTime() + HOUR);
    expect((await ask(userId, 2)).ok).toBe(true);
    await runJobs();
    // Two asked in the last 24 hours: the third is refused, with the count, and nothing is queued.
    expect(await ask(userId, 2)).toEqual({
      ok: false,
      kind: "limited",
      error: "dashboard.dataExport.errors.dailyLimit",
      params: { count: 2 },
    });
    expect((await exportsOf(userId)).map((row) => row.state)).toEqual(["ready", "ready"]);
    const card = await cardOf(userId, 2);
    expect(card).toMatchObject({ perDay: 2, askedInWindow: 2, waiting: false });
    // The window slides: 24 hours after the first, one more may be asked for.
    clock = new Date(START.getTime() + DAY + 5 * 60_000);
    expect((await ask(userId, 2)).ok).toBe(true);
  });

  it("fails an archive whose job died, which neither blocks nor counts against the next ask", async () => {
    const userId = await customerWithCoins(app(), 0);
    const first = await ask(userId, 1);
    if (!first.ok) throw new Error(first.error);
    const [row] = await exportsOf(userId);
    // Its last attempt fails (the words of the language cannot be read): the archive is failed.
    await app()
      .db.updateTable("jobs")
      .set({ attempts: 2, max_attempts: 3 })
      .where("id", "=", Number(row!.job_id))
      .execute();
    const broken = steppedWorker({
      db: app().db,
      handlers: {
        ...dataExportHandlers({
          secret: secret(),
          texts: async () => {
            throw new Error("no words");
          },
        }),
      },
      config: CONFIG,
      now: () => clock,
    });
    // Only this archive's job waits for the broken worker.
    await app()
      .db.deleteFrom("jobs")
      .where("id", "<>", Number(row!.job_id))
      .where("state", "in", ["queued", "failed"])
      .execute();
    await broken.tick();
    await broken.idle();
    await broken.stop(1_000);
    expect(await readRow(app().db, "jobs", ["state"], { id: Number(row!.job_id) })).toEqual({
      state: "dead",
    });
    expect((await exportsOf(userId))[0]!.state).toBe("failed");
    // Ours was the failure: the customer may ask again at once, within a limit of one a day.
    const again = await ask(userId, 1);
    expect(again.ok).toBe(true);

    // A queued archive whose job an admin discarded is failed by the next ask.
    const userB = await customerWithCoins(app(), 0);
    const firstB = await ask(userB, 3);
    if (!firstB.ok) throw new Error(firstB.error);
    const [rowB] = await exportsOf(userB);
    await app().db.deleteFrom("jobs").where("id", "=", Number(rowB!.job_id)).execute();
    expect((await ask(userB, 3)).ok).toBe(true);
    expect((await exportsOf(userB)).map((each) => each.state)).toEqual(["failed", "queued"]);
  });

  it("opens its link to its owner only: another account, a tampered or lapsed token get a 404", async () => {
    const owner = await customerSignedInAt(
      app(),
      { name: "Link Owner", email: uniqueEmail(), password: PASSWORD },
      "10.61.1.1",
    );
    const other = await customerSignedInAt(
      app(),
      { name: "Someone Else", email: uniqueEmail(), password: PASSWORD },
      "10.61.1.2",
    );
    const asked = await ask(owner.userId);
    if (!asked.ok) throw new Error(asked.error);
    await runJobs();
    const link = await linkOf(owner.userId);
    const fetchApp = appFetch(app());
    const downloads = async () => (await exportsOf(owner.userId))[0]!.downloads;

    const answer = await fetchApp(link, { cookie: owner.cookie });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/zip");
    expect(answer.headers.get("content-disposition")).toBe(
      `attachment; filename="my-data-${clock.toISOString().slice(0, 10)}.zip"`,
    );
    expect(answer.headers.get("cache-control")).toBe("private, no-store");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const body = Buffer.from(await answer.arrayBuffer());
    expect(readZip(body).map((file) => file.name)).toContain("account.json");
    expect(await downloads()).toBe(1);

    // Another account's session, the right token: the same 404 as for no archive at all.
    const refused = await fetchApp(link, { cookie: other.cookie });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("cache-control")).toBe("private, no-store");
    expect((await refused.arrayBuffer()).byteLength).toBeLessThan(100);
    // A visitor signs in first, and comes back to the link.
    const visitor = await fetchApp(link);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("location")).toBe(`/login?redirectTo=${encodeURIComponent(link)}`);
    // A token changed by one character, cut short, or not a token at all.
    const token = tokenOf(link);
    const flipped = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    for (const tampered of [flipped, token.slice(1), `${token}x`, "..%2F..%2Fetc"])
      expect(
        (await fetchApp(dataExportPath(tampered), { cookie: owner.cookie })).status,
        tampered,
      ).toBe(404);
    expect(await downloads()).toBe(1);

    // Past its end the link no longer opens, before the purge as after.
    const end = new Date(clock.getTime() + DATA_EXPORT_LINK_DAYS * DAY);
    const justBefore = new Date(end.getTime() - 2_000);
    expect(
      await openDataExport(app().db, { userId: owner.userId, token, now: justBefore }),
    ).not.toBe(null);
    expect(await openDataExport(app().db, { userId: owner.userId, token, now: end })).toBeNull();
  });

  it("deletes the bytes of archives whose link ran out, on the worker's schedule and clock", async () => {
    const userId = await customerWithCoins(app(), 0);
    const asked = await ask(userId);
    if (!asked.ok) throw new Error(asked.error);
    await runJobs();
    const { expires_at: expiresAt } = await readRow(app().db, "data_exports", ["expires_at"], {
      id: asked.exportId,
    });
    const end = new Date(expiresAt!);
    const purgeRuns = () =>
      readRows(app().db, "job_runs", ["status", "counts"], { schedule: DATA_EXPORT_PURGE_JOB });
    const runsBefore = (await purgeRuns()).length;

    // The hour before the end: the purge runs, and keeps it.
    clock = new Date(end.getTime() - HOUR);
    await runJobs(1);
    // Each round moves the clock a second on: this one runs a few seconds before the end.
    clock = new Date(end.getTime() - 10_000);
    await runJobs(1);
    expect(await readRow(app().db, "data_exports", ["state"], { id: asked.exportId })).toEqual({
      state: "ready",
    });
    // Past its end the account tab shows it expired, without its link, before the purge has run.
    clock = new Date(end.getTime() + 1_000);
    const lapsed = (await cardOf(userId)).exports[0]!;
    expect(lapsed).toMatchObject({ state: "expired", link: null });

    // The next slot of the schedule (hourly, at 25 past) deletes the bytes and keeps the record.
    clock = new Date(end.getTime() + 2 * HOUR);
    await runJobs(1);
    const purged = await readRow(app().db, "data_exports", ["state", "archive", "size_bytes"], {
      id: asked.exportId,
    });
    expect(purged.state).toBe("expired");
    expect(purged.archive).toBeNull();
    expect(purged.size_bytes).toBeGreaterThan(0);
    const runs = await purgeRuns();
    expect(runs.length).toBeGreaterThan(runsBefore);
    expect(runs.some((run) => JSON.parse(run.counts).archivesExpired >= 1)).toBe(true);
  });

  it("goes with the account when it is erased", async () => {
    const userId = await customerWithCoins(app(), 0);
    const asked = await ask(userId);
    if (!asked.ok) throw new Error(asked.error);
    await runJobs();
    const user = await readRow(app().db, "users", ["id", "email"], { id: userId });
    const admin = await adminId(app());
    await inTransaction(app().db, (trx) => eraseAccount(trx, user, admin));
    expect(await exportsOf(userId)).toEqual([]);
  });
});
