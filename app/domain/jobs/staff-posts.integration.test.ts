import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { openTicket } from "~/domain/tickets/tickets.server";
import { withFakeDiscordWebhook } from "../../../tests/support/fake-discord";
import {
  adminId,
  balanceOf,
  customerWithCoins,
  orderProduct,
  placedOrder,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { steppedWorker } from "../../../tests/support/stepped-worker";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { DISCORD_ALERT_JOB } from "./discord-posts.server";
import { queueStaffPost, type StaffNews } from "./staff-posts.server";
import { staffPostText, workerHandlers } from "../../../server/worker";
import { markTopUpPaid } from "~/domain/payments/top-up-requests.server";
import { openTopUp } from "../../../tests/support/top-up-fixtures";

describeEachDatabase("new orders, tickets and top-ups posted to the staff's Discord", (app) => {
  const { discord, setWebhook } = withFakeDiscordWebhook(app);
  const base = () => app().env.PUBLIC_URL.replace(/\/$/, "");

  const posts = () =>
    readRows(app().db, "jobs", ["payload", "unique_key"], { type: DISCORD_ALERT_JOB }, "id");
  async function sendAll() {
    const worker = steppedWorker({
      db: app().db,
      handlers: workerHandlers(app(), { discordSend: discord().send }),
      config: { leaseMs: 5000, pollMs: 10, backoffMs: 1000, concurrency: 4 },
    });
    await worker.tick();
    await worker.idle();
    await worker.stop(100);
  }
  const ticketForm = (userId: string) =>
    ({
      userId,
      department: "billing",
      subject: "My invoice, from jane@example.com",
      priority: "medium",
      message: "Call me on +212 600 000 000",
    }) as const;

  it("posts each order waiting for approval once, with no personal data", async () => {
    const buyer = await customerWithCoins(app(), 10_000);
    const order = await placedOrder(app(), buyer, {
      productId: await productId(app(), "vps-entry"),
    });
    const id = order.id;
    expect(await posts()).toHaveLength(1);
    await sendAll();
    expect(discord().posts).toEqual([
      {
        content: `Order #${id} waits for approval: ${order.productName}, 7.00 coins. ${base()}/admin/orders`,
        allowed_mentions: { parse: [] },
      },
    ]);
    expect(JSON.stringify(discord().posts)).not.toMatch(/@example\.com|Buyer/);
    // The admins' notification names the customer's server; the post's stored event does not hold it.
    expect((await posts())[0]!.payload).not.toContain(order.serverName);
    expect((await posts())[0]!.unique_key).toBe(`post:order:${id}`);
  });

  // A ticket is posted by itself when it is the first of its window after a quiet one (the others of a
  // busy window are summed up: below): each such test opens its ticket at a moment of its own.
  const quietMoment = (n: number) => ({ now: new Date(Date.UTC(2020, 0, 1 + n)) });

  it("posts each new ticket once: its number and department, nothing the customer wrote", async () => {
    const customer = await customerWithCoins(app(), 0);
    const opened = await openTicket(app().db, ticketForm(customer), quietMoment(1));
    if (!opened.ok) throw new Error("not opened");
    await sendAll();
    expect(discord().posts).toEqual([
      {
        content: `New ticket #${opened.ticket.id} in Billing and coins. ${base()}/admin/tickets/${opened.ticket.id}`,
        allowed_mentions: { parse: [] },
      },
    ]);
    expect(JSON.stringify(discord().posts)).not.toMatch(/jane|invoice|212/);
  });

  it("posts a top-up marked paid once per request: reference, coins, method; not who paid from where", async () => {
    const customer = await customerWithCoins(app(), 0);
    const request = await openTopUp(app(), customer, 12, { paid: true });
    // Said again to correct the details, before and after the post went out: staff were told already.
    const paidAgain = (payerAccount: string) =>
      markTopUpPaid(app().db, {
        userId: customer,
        requestId: request.id,
        payerAccount,
        paidOn: new Date().toISOString().slice(0, 10),
      });
    expect((await paidAgain("0633 333 333")).ok).toBe(true);
    await sendAll();
    expect((await paidAgain("0644 444 444")).ok).toBe(true);
    await sendAll();
    expect(discord().posts).toEqual([
      {
        content: `Top-up ${request.reference} is marked paid: 12.00 coins by Orange Money, waiting for a decision. ${base()}/admin/top-ups?state=proof_sent`,
        allowed_mentions: { parse: [] },
      },
    ]);
    expect(JSON.stringify(discord().posts)).not.toMatch(/06[2-4]|@example\.com|Buyer/);
    const keys = (await posts()).map((post) => post.unique_key);
    expect(keys).toEqual([`post:top-up:${request.id}`]);
    // And each admin's notification, as before, once.
    const told = await app()
      .db.selectFrom("notifications")
      .select("params")
      .where("kind", "=", "top_up_paid")
      .where("dedupe_key", "like", `staff:top-up:${request.id}:%`)
      .execute();
    expect(told.length).toBeGreaterThan(0);
    expect(JSON.parse(told[0]!.params)).toMatchObject({
      id: request.id,
      reference: request.reference,
      method: "Orange Money",
      amountCents: 1200,
    });
  });

  it("posts nothing for an order whose transaction rolled back (coins short)", async () => {
    const buyer = await customerWithCoins(app(), 300);
    const refused = await orderProduct(app(), buyer, "vps-entry");
    expect(refused).toMatchObject({ ok: false, error: "orders.errors.insufficientCoins" });
    expect(await balanceOf(app(), buyer)).toBe(300);
    expect(await posts()).toEqual([]);
  });

  it("queues nothing without a webhook", async () => {
    await setWebhook("");
    const buyer = await customerWithCoins(app(), 10_000);
    await placedOrder(app(), buyer, { productId: await productId(app(), "vps-entry") });
    const opened = await openTicket(app().db, ticketForm(buyer));
    expect(opened.ok).toBe(true);
    expect(await posts()).toEqual([]);
  });

  it("writes the post in the site's default language", async () => {
    await setDefaultLocale("fr");
    try {
      const customer = await customerWithCoins(app(), 0);
      const opened = await openTicket(app().db, ticketForm(customer), quietMoment(2));
      if (!opened.ok) throw new Error("not opened");
      const [post] = await posts();
      expect(await staffPostText(app(), JSON.parse(post!.payload).event)).toBe(
        `Nouveau ticket #${opened.ticket.id} dans Facturation et coins. ${base()}/admin/tickets/${opened.ticket.id}`,
      );
    } finally {
      await setDefaultLocale("en");
    }
  });

  async function setDefaultLocale(locale: string) {
    // The general form has many fields; only the language matters here.
    const row = await app()
      .db.selectFrom("settings")
      .select("value")
      .where("key", "=", "general")
      .executeTakeFirst();
    const value = JSON.stringify({ ...(row ? JSON.parse(row.value) : {}), defaultLocale: locale });
    if (row)
      await app().db.updateTable("settings").set({ value }).where("key", "=", "general").execute();
    else
      await app()
        .db.insertInto("settings")
        .values({ key: "general", value, updated_at: new Date().toISOString() })
        .execute();
    app().settings.invalidate();
  }
  it("posts a ticket under its own key even with no admin to tell, and says whether it queued a post", async () => {
    const db = app().db;
    const ticket = (ticketId: number): StaffNews => ({
      kind: "ticketOpened",
      ticketId,
      department: "billing",
    });
    const tell = (event: StaffNews) => inTransaction(db, (trx) => queueStaffPost(trx, event));
    const admin = await adminId(app());
    await db.updateTable("users").set({ status: "suspended" }).where("id", "=", admin).execute();
    try {
      // Nobody reads the admin bell: Discord is the only one told.
      expect(await tell(ticket(9001))).toBe(true);
    } finally {
      await db.updateTable("users").set({ status: "active" }).where("id", "=", admin).execute();
    }
    expect(await tell(ticket(9002))).toBe(true);
    expect(await tell(ticket(9002))).toBe(false);
    // A ticket of a busy window: its window's summary post is queued instead, and that is a post too.
    const from = "2026-11-24T10:00:00.000Z";
    const summary = { from, until: "2026-11-24T10:15:00.000Z", skipFirst: true };
    expect(
      await tell({ kind: "ticketOpened", ticketId: 9003, department: "billing", summary }),
    ).toBe(true);
    expect((await posts()).map((post) => post.unique_key)).toEqual([
      "post:ticket:9001",
      "post:ticket:9002",
      `post:tickets:${from}`,
    ]);
    await setWebhook("");
    expect(await tell(ticket(9004))).toBe(false);
    expect(await posts()).toHaveLength(3);
  });
});
