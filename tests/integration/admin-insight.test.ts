import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import { monthKey } from "~/domain/reports/reports";
import { submitContactMessage, subscribeToNewsletter } from "~/domain/site/site.server";
import * as adminContactMessages from "~/routes/admin/contact-messages";
import * as adminNewsletter from "~/routes/admin/newsletter";
import * as adminNewsletterCsv from "~/routes/admin/newsletter-csv";
import * as adminReports from "~/routes/admin/reports";
import * as adminReportsCsv from "~/routes/admin/reports-csv";
import {
  customerWithCoins,
  expectLedgerIntact,
  placedOrder,
  productId,
} from "../support/money-fixtures";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, recordingClock, TEST_ADMIN } from "../support/test-database";

type Result = { data: Record<string, unknown>; init: { status: number } | null };
type Module = { loader: (args: never) => unknown; action?: (args: never) => unknown };

// The reports, contact messages and newsletter pages through their route modules, as requests reach them.
// The services' clock, which the report file is named by: read back, so the day the test expects is
// the server's even when midnight falls during the test.
const clock = recordingClock();

describeEachDatabase(
  "admin reports and inbox pages",
  (app) => {
    const cookies = new Map<string, string>();

    async function login(email: string, password: string) {
      const known = cookies.get(email);
      if (known) return known;
      const result = await signIn(app(), { email, password }, { ip: "10.60.0.1" });
      if (!result.ok) throw new Error("sign in failed");
      const cookie = cookieHeader(result.setCookies);
      cookies.set(email, cookie);
      return cookie;
    }
    const admin = () => login(TEST_ADMIN.email, TEST_ADMIN.password);

    async function customer() {
      const id = await customerWithCoins(app(), 10_000);
      const row = await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", id)
        .executeTakeFirstOrThrow();
      return { id, cookie: await login(row.email, "Buyer-pw-8842") };
    }

    async function load(module: Module, path: string, cookie?: string) {
      const as = cookie === undefined ? await admin() : cookie;
      return settle(async () =>
        module.loader(
          routeArgs({
            request: new Request(`http://localhost${path}`, { headers: as ? { cookie: as } : {} }),
            context: await contextFor(app(), { cookie: as || null }),
            params: {},
          }),
        ),
      );
    }

    async function post(module: Module, path: string, fields: Record<string, string>) {
      const as = await admin();
      return settle(async () =>
        module.action!(
          routeArgs({
            request: formRequest(path, fields, as),
            context: await contextFor(app(), { cookie: as }),
          }),
        ),
      );
    }

    it("shows this month's order in the report and its CSV, and refuses the CSV to others", async () => {
      const buyer = await customer();
      await placedOrder(app(), buyer.id, { productId: await productId(app(), "game-pro") });
      const month = monthKey(new Date());

      const page = (await load(adminReports, "/admin/reports")) as {
        meta: { title: string };
        report: {
          months: string[];
          types: string[];
          rows: { month: string; byType: { orders: number; coinsCents: number }[] }[];
        };
      };
      expect(page.meta.title).toBe("Reports");
      expect(page.report.months).toHaveLength(12);
      expect(page.report.months.at(-1)).toBe(month);
      const game = page.report.types.indexOf("game");
      expect(page.report.rows.at(-1)!.byType[game]).toEqual({ orders: 1, coinsCents: 1499 });

      const csv = (await load(adminReportsCsv, "/admin/reports.csv")) as Response;
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toBe("text/csv; charset=utf-8");
      const today = clock.last().toISOString().slice(0, 10);
      expect(csv.headers.get("content-disposition")).toBe(
        `attachment; filename="hostfront-report-${today}.csv"`,
      );
      expect(csv.headers.get("cache-control")).toBe("no-store");
      const body = await csv.text();
      // Response.text() decodes UTF-8 and drops the byte-order mark, as a spreadsheet does.
      expect(body.split("\r\n")[0]).toBe("month,product_type,orders,coins_spent_eur");
      expect(body).toContain(`\r\n${month},game,1,14.99\r\n`);
      expect(body).toContain(`\r\n${month},vps,0,0.00\r\n`);

      for (const module of [adminReportsCsv, adminNewsletterCsv, adminReports]) {
        const refused = (await load(module, "/admin/reports.csv", buyer.cookie)) as Response;
        expect(refused.status).toBe(302);
        expect(refused.headers.get("location")).toBe("/");
        const anonymous = (await load(module, "/admin/reports.csv", "")) as Response;
        expect(anonymous.status).toBe(302);
        expect(anonymous.headers.get("location")).toMatch(/^\/login\?redirectTo=/);
      }
      await expectLedgerIntact(app());
    });

    it("opens, marks and deletes contact messages through the page", async () => {
      for (const n of [1, 2, 3])
        await submitContactMessage(app().db, {
          name: `Sender ${n}`,
          email: `sender${n}@example.com`,
          subject: `Question ${n}`,
          message: `Text ${n}`,
        });
      type Page = {
        meta: { title: string };
        messages: { id: number; subject: string; readAt: string | null }[];
        unread: number;
        total: number;
        opened: { id: number; message: string } | null;
        query: object;
      };
      const list = (await load(
        adminContactMessages,
        "/admin/contact-messages?q=question&show=bogus&page=x",
      )) as Page;
      expect(list.meta.title).toBe("Contact Messages");
      expect(list.query).toEqual({ q: "question", show: "all", open: undefined, page: 1 });
      expect(list.messages.map((m) => m.subject)).toEqual([
        "Question 3",
        "Question 2",
        "Question 1",
      ]);
      expect(list.unread).toBe(3);
      const id = list.messages[1]!.id;

      // Open: marks it read and comes back to the same list with the message shown.
      const opened = (await post(
        adminContactMessages,
        "/admin/contact-messages?q=question&show=unread&open=77",
        { intent: "open", id: String(id) },
      )) as Response;
      expect(opened.status).toBe(302);
      expect(opened.headers.get("location")).toBe(
        `/admin/contact-messages?q=question&show=unread&open=${id}`,
      );
      const after = (await load(adminContactMessages, opened.headers.get("location")!)) as Page;
      expect(after.opened).toMatchObject({ id, message: "Text 2" });
      expect(after.unread).toBe(2);
      expect(after.messages.map((m) => m.subject)).toEqual(["Question 3", "Question 1"]);

      expect(
        await post(adminContactMessages, "/admin/contact-messages", {
          intent: "unread",
          id: String(id),
        }),
      ).toEqual({ ok: true, message: "admin-inbox.contact.markedUnread" });
      expect(
        await post(adminContactMessages, "/admin/contact-messages", {
          intent: "read",
          id: String(id),
        }),
      ).toEqual({ ok: true, message: "admin-inbox.contact.markedRead" });

      const bad = (await post(adminContactMessages, "/admin/contact-messages", {
        intent: "delete",
        id: "abc",
      })) as Result;
      expect(bad.init?.status).toBe(400);
      expect(bad.data).toEqual({ ok: false, message: "admin-inbox.errors.messageNotFound" });
      const unknown = (await post(adminContactMessages, "/admin/contact-messages", {
        intent: "archive",
        id: String(id),
      })) as Result;
      expect(unknown.init?.status).toBe(400);
      expect(unknown.data).toEqual({ ok: false, message: "admin-inbox.errors.unknownAction" });

      expect(
        await post(adminContactMessages, "/admin/contact-messages", {
          intent: "delete",
          id: String(id),
        }),
      ).toEqual({ ok: true, message: "admin-inbox.contact.deleted" });
      const gone = (await post(adminContactMessages, "/admin/contact-messages", {
        intent: "delete",
        id: String(id),
      })) as Result;
      expect(gone.init?.status).toBe(404);
      expect(gone.data).toEqual({ ok: false, message: "admin-inbox.errors.messageNotFound" });
      const audit = await app()
        .db.selectFrom("audit_log")
        .select(["target_id"])
        .where("action", "=", "contact_message.delete")
        .execute();
      expect(audit).toEqual([{ target_id: String(id) }]);
      expect(((await load(adminContactMessages, "/admin/contact-messages")) as Page).total).toBe(2);
    });

    it("lists, removes and exports newsletter subscribers through the page", async () => {
      for (const email of ["ama@example.com", "+cmd@example.com", "zed@example.com"])
        await subscribeToNewsletter(app().db, email);
      type Page = {
        meta: { title: string };
        subscribers: { id: number; email: string }[];
        total: number;
        matching: number;
      };
      const page = (await load(adminNewsletter, "/admin/newsletter?q=CMD&page=-4")) as Page;
      expect(page.meta.title).toBe("Newsletter Subscribers");
      expect(page.subscribers.map((s) => s.email)).toEqual(["+cmd@example.com"]);
      expect(page).toMatchObject({ total: 3, matching: 1 });

      const csv = (await load(adminNewsletterCsv, "/admin/newsletter.csv")) as Response;
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-disposition")).toMatch(
        /^attachment; filename="hostfront-newsletter-subscribers-\d{4}-\d{2}-\d{2}\.csv"$/,
      );
      const lines = (await csv.text()).split("\r\n");
      expect(lines[0]).toBe("email,subscribed_at");
      expect(lines.slice(1, 4).map((line) => line.split(",")[0])).toEqual([
        "ama@example.com",
        `"'+cmd@example.com"`,
        "zed@example.com",
      ]);

      const id = page.subscribers[0]!.id;
      expect(
        await post(adminNewsletter, "/admin/newsletter", { intent: "remove", id: String(id) }),
      ).toEqual({ ok: true, message: "admin-inbox.newsletter.removed" });
      const again = (await post(adminNewsletter, "/admin/newsletter", {
        intent: "remove",
        id: String(id),
      })) as Result;
      expect(again.init?.status).toBe(404);
      const bad = (await post(adminNewsletter, "/admin/newsletter", { id: String(id) })) as Result;
      expect(bad.init?.status).toBe(400);
      expect(((await load(adminNewsletter, "/admin/newsletter")) as Page).total).toBe(2);
    });
  },
  { clock },
);
