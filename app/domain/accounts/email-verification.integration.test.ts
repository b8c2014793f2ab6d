import { randomUUID } from "node:crypto";
import { createEmailVerificationToken } from "better-auth/api";
import { type Kysely } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import { migrateTo } from "../../../tests/support/migrations";
import type { Database } from "~/db/schema";
import type { AppServices } from "~/context.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import { openCustomerTicket } from "~/domain/tickets/tickets.server";
import * as dashboardRoute from "~/routes/dashboard/account";
import * as dashboardLayout from "~/routes/dashboard/layout";
import * as orderRoute from "~/routes/order";
import * as registerRoute from "~/routes/register";
import * as supportNewRoute from "~/routes/support/new";
import * as topUpRoute from "~/routes/top-up";
import * as verifyRoute from "~/routes/verify-email";
import { signedInCookie } from "../../../tests/support/account-fixtures";
import {
  adminId,
  customerWithCoins,
  orderInput,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import {
  contextFor,
  postAction,
  routeArgs,
  settle,
  type ActionAnswer,
} from "../../../tests/support/request-context";
import { sendDueMail, suiteSmtpServer } from "../../../tests/support/mail-fixtures";
import { refusal } from "../../../tests/support/results";
import {
  createTestDatabaseUrl,
  describeEachDatabase,
  dialects,
  TEST_ADMIN,
} from "../../../tests/support/test-database";
import { getCurrentSession, signIn } from "./accounts.server";
import {
  confirmEmailVerification,
  resendEmailVerification,
  unverifiedEmailRefusal,
  verifiedFlag,
} from "./email-verification.server";
import { updateProfile } from "./profile.server";

const MAIL_FROM = "Hostfront <no-reply@hostfront.test>";
const PASSWORD = "Verify-pw-7731";
/** An SMTP_URL for the request side: a page only needs to know that mail is configured. */
const SMTP_CONFIGURED = "smtp://outbox:s3cret-pass@127.0.0.1:2";
let n = 0;
const uniqueEmail = (prefix = "verify") => `${prefix}${Date.now()}${n++}@example.com`;

const isTrue = (flag: unknown) => flag === true || flag === 1;

async function userRow(app: AppServices, id: string) {
  return readRow(app.db, "users", ["email", "email_verified", "pending_email", "role"], { id });
}

const outboxOf = (app: AppServices, userId: string) =>
  readRows(
    app.db,
    "mail_outbox",
    ["id", "kind", "to_address", "params", "locale", "unique_key"],
    { user_id: userId },
    "id",
  );

/** The token of the latest verification message queued for `userId`. */
async function latestToken(app: AppServices, userId: string): Promise<string> {
  const rows = (await outboxOf(app, userId)).filter((row) => row.kind === "emailVerification");
  const row = rows.at(-1);
  if (!row) throw new Error("no verification message");
  return (JSON.parse(row.params) as { token: string }).token;
}

/** Registers through the /register page (as a visitor would) and signs in: id, email, cookie. */
async function registeredThroughPage(app: AppServices, email = uniqueEmail()) {
  const answer = await postAction(app, registerRoute, "/register", {
    name: "Verify Me",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  });
  expect(answer).toBeInstanceOf(Response);
  const user = await readRow(app.db, "users", ["id"], { email });
  // An address of its own each time: the login throttle counts sign-ins per address.
  const cookie = await signedInCookie(
    app,
    { email, password: PASSWORD },
    { ip: `10.48.${n % 250}.${(n++ % 200) + 1}` },
  );
  return { id: user.id, email, cookie };
}

/** Sends the account tab's profile form with a new email, as the signed-in customer of `cookie`. */
function changeEmail(app: AppServices, cookie: string, email: string, ip: string) {
  return postAction(
    app,
    dashboardRoute,
    "/dashboard/account",
    { intent: "profile", name: "Verify Me", email, currentPassword: PASSWORD },
    { cookie, ip },
  );
}

async function loadVerifyPage(app: AppServices, query: string, cookie?: string) {
  const request = new Request(`http://localhost/verify-email${query}`, {
    headers: cookie ? { cookie } : {},
  });
  const answer = (await settle(async () =>
    verifyRoute.loader(routeArgs({ request, context: await contextFor(app, { cookie }) })),
  )) as ActionAnswer | Response;
  return answer;
}

/** Gives a customer coins through the ledger, as an admin would. */
async function giveCoins(app: AppServices, userId: string, amountCents: number) {
  const result = await adjustCoins(app.db, {
    userId,
    amountCents,
    reason: "test credit",
    actorId: await adminId(app),
  });
  if (!result.ok) throw new Error(result.error);
}

/** An order placed through /order: redirected to the billing tab. */
function expectOrdered(answer: unknown) {
  expect(answer).toBeInstanceOf(Response);
  expect((answer as Response).headers.get("location")).toBe("/dashboard/billing");
}

function orderFields(product: number) {
  return { productId: String(product), serverName: "Gate test", idempotencyKey: randomUUID() };
}

function ticketFields() {
  return {
    department: "billing",
    subject: "Coins please",
    priority: "low",
    message: "I would like to buy coins.",
    idempotencyKey: randomUUID(),
  };
}

const status = (answer: unknown) =>
  answer instanceof Response ? answer.status : ((answer as ActionAnswer).init?.status ?? 200);

describe.each(dialects)("migration 0032 [%s]", (dialect) => {
  it("marks every account that exists when it runs as verified, and later ones start unverified", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const db = handle.db as Kysely<Database>;
    try {
      await migrateTo(db, "0030-mail-outbox");
      const now = new Date().toISOString();
      for (const id of ["old-customer", "old-admin"])
        await db
          .insertInto("users")
          .values({
            id,
            name: id,
            email: `${id}@example.com`,
            email_verified: verifiedFlag(db, false),
            role: id === "old-admin" ? "admin" : "user",
            created_at: now,
            updated_at: now,
          })
          .execute();
      await migrateToLatest(db);
      const rows = await db
        .selectFrom("users")
        .select(["id", "email_verified", "pending_email"])
        .orderBy("id")
        .execute();
      expect(rows.map((row) => [row.id, isTrue(row.email_verified), row.pending_email])).toEqual([
        ["old-admin", true, null],
        ["old-customer", true, null],
      ]);
      await db
        .insertInto("users")
        .values({
          id: "new-customer",
          name: "new",
          email: "new@example.com",
          created_at: now,
          updated_at: now,
        })
        .execute();
      const fresh = await readRow(db, "users", ["email_verified"], { id: "new-customer" });
      expect(isTrue(fresh.email_verified)).toBe(false);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});

describeEachDatabase(
  "verified addresses, with SMTP configured",
  (app) => {
    const smtp = suiteSmtpServer();
    beforeEach(async () => {
      // The requirement on, as by default; a test that turns it off puts it back.
      await saveSettingsForm(app(), {
        intent: "verification",
        requireVerifiedEmail: true,
        actorId: await adminId(app()),
      });
    });

    /** One round of the worker: every due mail job sent to the test's SMTP server. */
    async function work() {
      // The earlier tests' messages wait too: enough rounds to send every one.
      await sendDueMail(
        app(),
        { smtpUrl: smtp().url, from: MAIL_FROM },
        { rounds: 60, now: () => new Date() },
      );
    }

    it("keeps the seed admin verified", async () => {
      const admin = await userRow(app(), await adminId(app()));
      expect(admin.email).toBe(TEST_ADMIN.email);
      expect(isTrue(admin.email_verified)).toBe(true);
    });

    it("queues a verification message for a new account, which starts unverified", async () => {
      const customer = await registeredThroughPage(app());
      expect(isTrue((await userRow(app(), customer.id)).email_verified)).toBe(false);
      const session = await getCurrentSession(app(), customer.cookie);
      expect(session?.user).toMatchObject({ emailVerified: false });
      const rows = await outboxOf(app(), customer.id);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ kind: "emailVerification", to_address: customer.email });
      expect(rows[0]!.unique_key).toMatch(/^emailVerification:verify:/);
      // Each send has its own key: a resend is a new message, never swallowed by the first one's.
      const resent = await resendEmailVerification(app(), { userId: customer.id, ip: "10.44.1.1" });
      expect(resent).toEqual({ ok: true, email: customer.email });
      expect(await outboxOf(app(), customer.id)).toHaveLength(2);
    });

    it("verifies the address once from its link, and says so on /verify-email", async () => {
      const customer = await registeredThroughPage(app());
      const token = await latestToken(app(), customer.id);
      const first = await loadVerifyPage(app(), `?token=${encodeURIComponent(token)}`);
      expect(status(first)).toBe(200);
      expect((first as ActionAnswer).data).toMatchObject({
        outcome: "verified",
        email: customer.email,
      });
      expect(isTrue((await userRow(app(), customer.id)).email_verified)).toBe(true);
      const again = await confirmEmailVerification(app(), { token });
      expect(again).toEqual({ outcome: "alreadyVerified", email: customer.email });
      // Verified: no more messages to ask for.
      expect(
        await resendEmailVerification(app(), { userId: customer.id, ip: "10.44.1.2" }),
      ).toEqual(refusal("conflict", "auth.verify.alreadyVerified"));
    });

    it("refuses an expired link, a tampered one and garbage, with a way to ask for a new one", async () => {
      const customer = await registeredThroughPage(app());
      const secret = (await app().auth.$context).secret;
      const expired = await createEmailVerificationToken(secret, customer.email, undefined, -60, {
        userId: customer.id,
      });
      expect(await confirmEmailVerification(app(), { token: expired })).toEqual({
        outcome: "expired",
      });
      const token = await latestToken(app(), customer.id);
      const tampered = `${token.slice(0, -4)}${token.slice(-4) === "AAAA" ? "BBBB" : "AAAA"}`;
      expect(await confirmEmailVerification(app(), { token: tampered })).toEqual({
        outcome: "invalid",
      });
      const forged = await createEmailVerificationToken(
        "another-secret-0123456789abcdef0123",
        customer.email,
        undefined,
        3600,
        { userId: customer.id },
      );
      expect(await confirmEmailVerification(app(), { token: forged })).toEqual({
        outcome: "invalid",
      });
      const page = await loadVerifyPage(app(), "?token=not-a-token", customer.cookie);
      expect(status(page)).toBe(400);
      expect((page as ActionAnswer).data).toMatchObject({ outcome: "invalid", signedIn: true });
      const expiredPage = await loadVerifyPage(app(), `?token=${expired}`);
      expect(status(expiredPage)).toBe(400);
      expect((expiredPage as ActionAnswer).data).toMatchObject({
        outcome: "expired",
        signedIn: false,
      });
      expect(isTrue((await userRow(app(), customer.id)).email_verified)).toBe(false);
      // Signed in, the page without a link shows the address and sends the message again.
      const own = await loadVerifyPage(app(), "", customer.cookie);
      expect((own as ActionAnswer).data).toMatchObject({
        status: { verified: false, email: customer.email, mailConfigured: true },
      });
      const resend = await postAction(
        app(),
        verifyRoute,
        "/verify-email",
        { intent: "resend" },
        { cookie: customer.cookie, ip: "10.44.2.1" },
      );
      expect(resend).toEqual({ ok: true, email: customer.email });
      // A visitor is sent to sign in first.
      const visitor = (await postAction(app(), verifyRoute, "/verify-email", {
        intent: "resend",
      })) as Response;
      expect(visitor.status).toBe(302);
      expect(visitor.headers.get("location")).toMatch(/^\/login/);
    });

    it("limits 'send the message again' per account", async () => {
      const customer = await registeredThroughPage(app());
      const at = new Date();
      const results = [];
      for (let i = 0; i < 4; i++)
        results.push(
          await resendEmailVerification(app(), { userId: customer.id, ip: `10.45.0.${i}` }, at),
        );
      expect(results.slice(0, 3).every((result) => result.ok)).toBe(true);
      expect(results[3]).toMatchObject(refusal("limited", "auth.verify.tooMany"));
      // 1 from registration and 3 resends: the refused one queued nothing.
      expect(await outboxOf(app(), customer.id)).toHaveLength(4);
    });

    it("holds an unverified customer back from ordering and opening tickets (coins too), not admins", async () => {
      const db = app().db;
      const customer = await registeredThroughPage(app());
      const product = await productId(app(), "vps-entry");
      const order = await postAction(app(), orderRoute, "/order", orderFields(product), {
        cookie: customer.cookie,
      });
      expect(status(order)).toBe(403);
      expect((order as ActionAnswer).data).toMatchObject({
        formError: "auth.verify.required",
        verifyEmailUrl: "/verify-email",
      });
      // The coin dialog's request is a ticket on /support/new?topic=coins: the same gate.
      const ticket = await postAction(
        app(),
        supportNewRoute,
        "/support/new?topic=coins",
        ticketFields(),
        {
          cookie: customer.cookie,
        },
      );
      expect(status(ticket)).toBe(403);
      expect((ticket as ActionAnswer).data).toMatchObject({
        formError: "auth.verify.required",
        verifyEmail: true,
      });
      expect(
        await db.selectFrom("tickets").select("id").where("user_id", "=", customer.id).execute(),
      ).toEqual([]);
      expect(
        await db.selectFrom("orders").select("id").where("user_id", "=", customer.id).execute(),
      ).toEqual([]);
      // Asking for coins with a payment method: the same gate, and the page links to confirming.
      const cashPlus = await db
        .updateTable("payment_methods")
        .set({
          enabled: 1,
          instructions: JSON.stringify({ en: "Pay at cashPlus", fr: "", ar: "" }),
        })
        .where("code", "=", "cashplus")
        .returning("id")
        .executeTakeFirstOrThrow();
      const topUp = await postAction(
        app(),
        topUpRoute,
        "/dashboard/top-up",
        { intent: "request", methodId: String(cashPlus.id), coins: "10" },
        { cookie: customer.cookie },
      );
      expect(status(topUp)).toBe(403);
      expect((topUp as ActionAnswer).data).toMatchObject({
        ok: false,
        message: "auth.verify.required",
        verifyEmailUrl: "/verify-email",
      });
      expect(
        await db
          .selectFrom("top_up_requests")
          .select("id")
          .where("user_id", "=", customer.id)
          .execute(),
      ).toEqual([]);

      // The domain's entries refuse on their own, whatever page calls them.
      const rich = await customerWithCoins(app(), 50_000);
      expect(
        await placeOrder(db, rich, orderInput({ productId: product }), {
          requireVerifiedEmail: true,
        }),
      ).toEqual({ ...refusal("forbidden", "auth.verify.required"), verifyEmail: true });
      const ticketInput = {
        userId: rich,
        department: "billing" as const,
        subject: "Hi",
        priority: "low" as const,
        message: "Hello there",
      };
      expect(
        await openCustomerTicket(db, ticketInput, {
          ticketsOpen: true,
          requireVerifiedEmail: true,
        }),
      ).toMatchObject({ ok: false, error: "auth.verify.required" });
      expect(
        (
          await placeOrder(db, rich, orderInput({ productId: product }), {
            requireVerifiedEmail: false,
          })
        ).ok,
      ).toBe(true);

      // Admins never are held back.
      const admin = await adminId(app());
      await db
        .updateTable("users")
        .set({ email_verified: verifiedFlag(db, false) })
        .where("id", "=", admin)
        .execute();
      expect(await unverifiedEmailRefusal(db, admin, true)).toBeUndefined();
      expect(
        (
          await openCustomerTicket(
            db,
            { ...ticketInput, userId: admin },
            { ticketsOpen: true, requireVerifiedEmail: true },
          )
        ).ok,
      ).toBe(true);
      await db
        .updateTable("users")
        .set({ email_verified: verifiedFlag(db, true) })
        .where("id", "=", admin)
        .execute();

      // Verified, the same customer orders and opens tickets.
      await confirmEmailVerification(app(), { token: await latestToken(app(), customer.id) });
      const cookie = await signedInCookie(
        app(),
        { email: customer.email, password: PASSWORD },
        { ip: "10.44.0.9" },
      );
      const ticketAgain = await postAction(app(), supportNewRoute, "/support/new", ticketFields(), {
        cookie,
      });
      expect(ticketAgain).toBeInstanceOf(Response);
      expect((ticketAgain as Response).headers.get("location")).toMatch(
        /^\/support\/\d+\?opened=1$/,
      );
    });

    it("lets the setting turn the requirement off", async () => {
      const customer = await registeredThroughPage(app());
      await saveSettingsForm(app(), {
        intent: "verification",
        requireVerifiedEmail: false,
        actorId: await adminId(app()),
      });
      const ticket = await postAction(app(), supportNewRoute, "/support/new", ticketFields(), {
        cookie: customer.cookie,
      });
      expect(ticket).toBeInstanceOf(Response);
      await giveCoins(app(), customer.id, 50_000);
      const product = await productId(app(), "vps-entry");
      expectOrdered(
        await postAction(app(), orderRoute, "/order", orderFields(product), {
          cookie: customer.cookie,
        }),
      );
      // The dashboard still asks to confirm the address, without saying anything is held back.
      const request = new Request("http://localhost/dashboard", {
        headers: { cookie: customer.cookie },
      });
      const page = (await dashboardLayout.loader(
        routeArgs({ request, context: await contextFor(app(), { cookie: customer.cookie }) }),
      )) as { address: unknown };
      expect(page.address).toEqual({
        email: customer.email,
        verified: false,
        mailConfigured: true,
        required: false,
      });
    });

    it("changes the email only once the link sent to the new address is followed, and tells the old one", async () => {
      const customer = await registeredThroughPage(app());
      await confirmEmailVerification(app(), { token: await latestToken(app(), customer.id) });
      const other = await signedInCookie(
        app(),
        { email: customer.email, password: PASSWORD },
        { ip: "10.44.3.2" },
      );
      const here = await getCurrentSession(app(), customer.cookie);
      const newEmail = uniqueEmail("moved");
      const answer = await changeEmail(app(), customer.cookie, newEmail, "10.44.3.1");
      expect(answer).toEqual({ ok: true, message: "dashboard.account.emailPending" });
      // Pending: the old address is still the login, the new one got the link.
      const pending = await userRow(app(), customer.id);
      expect(pending).toMatchObject({ email: customer.email, pending_email: newEmail });
      expect(
        (await signIn(app(), { email: customer.email, password: PASSWORD }, { ip: "10.44.3.3" }))
          .ok,
      ).toBe(true);
      expect(
        (await signIn(app(), { email: newEmail, password: PASSWORD }, { ip: "10.44.3.3" })).ok,
      ).toBe(false);
      const link = (await outboxOf(app(), customer.id)).at(-1)!;
      expect(link).toMatchObject({ kind: "emailVerification", to_address: newEmail });
      expect(JSON.parse(link.params)).toMatchObject({ change: true });
      const token = await latestToken(app(), customer.id);

      // Followed in the browser that asked: it stays signed in, every other session ends.
      const page = await loadVerifyPage(
        app(),
        `?token=${encodeURIComponent(token)}`,
        customer.cookie,
      );
      expect((page as ActionAnswer).data).toMatchObject({ outcome: "changed", email: newEmail });
      const changed = await userRow(app(), customer.id);
      expect(changed).toMatchObject({ email: newEmail, pending_email: null });
      expect(isTrue(changed.email_verified)).toBe(true);
      expect(await getCurrentSession(app(), customer.cookie)).not.toBeNull();
      expect(here).not.toBeNull();
      expect(await getCurrentSession(app(), other)).toBeNull();
      expect(
        (await signIn(app(), { email: newEmail, password: PASSWORD }, { ip: "10.44.3.4" })).ok,
      ).toBe(true);

      const notice = (await outboxOf(app(), customer.id)).at(-1)!;
      expect(notice).toMatchObject({ kind: "emailChanged", to_address: customer.email });
      expect(JSON.parse(notice.params)).toEqual({ oldEmail: customer.email, newEmail });
      const audit = await app()
        .db.selectFrom("audit_log")
        .select(["action", "before", "after"])
        .where("target_id", "=", customer.id)
        .where("action", "like", "account.email_change%")
        .orderBy("id")
        .execute();
      expect(audit.map((row) => row.action)).toEqual([
        "account.email_change_requested",
        "account.email_change",
      ]);
      expect(JSON.parse(audit[1]!.after!)).toMatchObject({ email: newEmail, oldAddressTold: true });

      // Used once: the same link again changes nothing and mails nobody.
      const before = (await outboxOf(app(), customer.id)).length;
      expect(await confirmEmailVerification(app(), { token })).toEqual({
        outcome: "alreadyVerified",
        email: newEmail,
      });
      expect(await outboxOf(app(), customer.id)).toHaveLength(before);
    });

    it("voids a change's link when a newer one is asked or it is cancelled, and refuses an address taken meanwhile", async () => {
      const customer = await registeredThroughPage(app());
      const edit = (email: string) =>
        updateProfile(
          app().db,
          {
            userId: customer.id,
            name: "Verify Me",
            email,
            currentPassword: PASSWORD,
            ip: "10.44.4.1",
          },
          undefined,
          { confirmWith: app().auth },
        );
      const first = uniqueEmail("first");
      expect(await edit(first)).toMatchObject({ ok: true, emailPending: first });
      const firstToken = await latestToken(app(), customer.id);
      const second = uniqueEmail("second");
      expect(await edit(second)).toMatchObject({ ok: true, emailPending: second });
      const secondToken = await latestToken(app(), customer.id);
      expect(await confirmEmailVerification(app(), { token: firstToken })).toEqual({
        outcome: "invalid",
      });

      // Someone else takes the address before the link is followed.
      await registeredThroughPage(app(), second);
      expect(await confirmEmailVerification(app(), { token: secondToken })).toEqual({
        outcome: "emailTaken",
      });
      expect(await userRow(app(), customer.id)).toMatchObject({ email: customer.email });

      // Asking for a taken address is refused at once too.
      expect(await edit(second)).toMatchObject({
        ok: false,
        error: "dashboard.account.emailTaken",
      });

      const third = uniqueEmail("third");
      await edit(third);
      const thirdToken = await latestToken(app(), customer.id);
      const cancelled = await postAction(
        app(),
        dashboardRoute,
        "/dashboard/account",
        { intent: "cancel-email-change" },
        { cookie: customer.cookie },
      );
      expect(cancelled).toEqual({ ok: true, message: "dashboard.account.emailChangeCancelled" });
      expect(await confirmEmailVerification(app(), { token: thirdToken })).toEqual({
        outcome: "invalid",
      });
      expect(await userRow(app(), customer.id)).toMatchObject({
        email: customer.email,
        pending_email: null,
      });
    });

    it.each(["en", "fr", "ar"])(
      "sends the verification, change and changed messages through SMTP in %s",
      async (locale) => {
        const customer = await registeredThroughPage(app());
        await app().db.updateTable("users").set({ locale }).where("id", "=", customer.id).execute();
        await resendEmailVerification(app(), {
          userId: customer.id,
          ip: `10.46.0.${locale.length}`,
        });
        const newEmail = uniqueEmail(`mail${locale}`);
        await updateProfile(
          app().db,
          {
            userId: customer.id,
            name: "Verify Me",
            email: newEmail,
            currentPassword: PASSWORD,
            ip: "10.46.1.1",
          },
          undefined,
          { confirmWith: app().auth },
        );
        await confirmEmailVerification(app(), { token: await latestToken(app(), customer.id) });
        await work();

        const to = (address: string) => smtp().received.filter((mail) => mail.to.includes(address));
        const atOld = to(customer.email);
        const atNew = to(newEmail);
        const subjects = {
          en: [
            "Confirm your email address",
            "Confirm your new email address",
            "The email address of your account was changed",
          ],
          fr: [
            "Confirmez votre adresse e-mail",
            "Confirmez votre nouvelle adresse e-mail",
            "L'adresse e-mail de votre compte a été modifiée",
          ],
          ar: [
            "أكّد عنوان بريدك الإلكتروني",
            "أكّد عنوان بريدك الإلكتروني الجديد",
            "تم تغيير عنوان البريد الإلكتروني لحسابك",
          ],
        }[locale]!;
        // The registration's message was in English (the page's language); the resend in the account's.
        const resent = atOld.find((mail) => mail.subject === subjects[0]);
        expect(resent, "verification").toBeDefined();
        expect(resent!.text).toMatch(/\/verify-email\?token=[\w.-]+/);
        expect(resent!.html).toContain(`lang="${locale}"`);
        expect(resent!.html).toContain(locale === "ar" ? 'dir="rtl"' : 'dir="ltr"');
        const link = atNew.find((mail) => mail.subject === subjects[1]);
        expect(link, "change link").toBeDefined();
        expect(link!.html).toContain("/verify-email?token=");
        const changed = atOld.find((mail) => mail.subject === subjects[2]);
        expect(changed, "changed notice").toBeDefined();
        expect(changed!.text).toContain(newEmail);
        expect(changed!.text).toContain(customer.email);
        // The outbox shows admins the messages, never the token.
        const rows = await readRows(app().db, "mail_outbox", ["state", "text"], {
          user_id: customer.id,
        });
        expect(rows.every((row) => row.state === "sent")).toBe(true);
      },
    );
  },
  { env: { SMTP_URL: SMTP_CONFIGURED } },
);

describeEachDatabase("verified addresses, without SMTP (a fresh install)", (app) => {
  it("queues no verification message and holds nobody back", async () => {
    const customer = await registeredThroughPage(app());
    expect(isTrue((await userRow(app(), customer.id)).email_verified)).toBe(false);
    expect(await outboxOf(app(), customer.id)).toEqual([]);
    const ticket = await postAction(app(), supportNewRoute, "/support/new", ticketFields(), {
      cookie: customer.cookie,
    });
    expect(ticket).toBeInstanceOf(Response);
    await giveCoins(app(), customer.id, 50_000);
    expectOrdered(
      await postAction(
        app(),
        orderRoute,
        "/order",
        orderFields(await productId(app(), "vps-entry")),
        {
          cookie: customer.cookie,
        },
      ),
    );
    const request = new Request("http://localhost/dashboard", {
      headers: { cookie: customer.cookie },
    });
    const page = (await dashboardLayout.loader(
      routeArgs({ request, context: await contextFor(app(), { cookie: customer.cookie }) }),
    )) as { address: { required: boolean; mailConfigured: boolean } };
    expect(page.address).toMatchObject({ required: false, mailConfigured: false });
  });

  it("changes the email at once, as before", async () => {
    const customer = await registeredThroughPage(app());
    const newEmail = uniqueEmail("atonce");
    const answer = await changeEmail(app(), customer.cookie, newEmail, "10.47.0.1");
    expect(answer).toEqual({ ok: true, message: "dashboard.account.emailChanged" });
    expect(await userRow(app(), customer.id)).toMatchObject({
      email: newEmail,
      pending_email: null,
    });
  });
});
