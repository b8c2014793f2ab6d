import { createEmailVerificationToken } from "better-auth/api";
import { expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import * as login from "~/routes/login";
import * as register from "~/routes/register";
import * as verify from "~/routes/verify-email";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch } from "../support/app-harness";
import { readRow, readRows } from "../support/read-column";
import {
  contextFor,
  cookieHeader,
  postAction,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

// Signing up with mail configured: the toast says a link was sent, the sign-in form that follows has the
// address filled in, and the mailed link leads back to the order the visitor started (a local path only).
const ORDER = "/order?product=2&billingCycle=quarterly&playerSlots=100&serverName=Rachid+RP";
const BACK = encodeURIComponent(ORDER);
const PASSWORD = "Way-back-pw-5531";
/** An SMTP_URL for the request side: a page only needs to know that mail is configured. */
const SMTP_CONFIGURED = "smtp://outbox:s3cret-pass@127.0.0.1:2";

let n = 0;
const uniqueEmail = () => `signup-back${Date.now()}${n++}@example.com`;
const nextIp = () => `10.61.${Math.floor(n / 200)}.${(n++ % 200) + 1}`;

async function registerAt(app: AppServices, path: string, email = uniqueEmail()) {
  const answer = (await postAction(app, register, path, {
    name: "Rachid",
    email,
    password: PASSWORD,
    confirmPassword: PASSWORD,
  })) as Response;
  const user = await readRow(app.db, "users", ["id"], { email });
  return { answer, email, userId: user.id };
}

/** The token of the verification message queued for `userId`, and the claims it carries. */
async function mailedToken(app: AppServices, userId: string) {
  const rows = await readRows(app.db, "mail_outbox", ["kind", "params"], { user_id: userId }, "id");
  const row = rows.find((mail) => mail.kind === "emailVerification");
  if (!row) throw new Error("no verification message");
  const token = (JSON.parse(row.params) as { token: string }).token;
  const claims = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString("utf8")) as {
    returnTo?: string;
  };
  return { token, claims };
}

async function followLink(app: AppServices, token: string, cookie?: string) {
  const request = new Request(`http://localhost/verify-email?token=${encodeURIComponent(token)}`, {
    headers: cookie ? { cookie } : {},
  });
  return settle(async () =>
    verify.loader(routeArgs({ request, context: await contextFor(app, { cookie }) })),
  );
}

describeEachDatabase(
  "signing up, with mail: the toast, the address on the sign-in form, the link's way back",
  (app) => {
    it("says the link was mailed and fills the address in on the sign-in form it leads to", async () => {
      const { answer, email } = await registerAt(app(), `/register?redirectTo=${BACK}`);
      expect(answer.status).toBe(302);
      expect(answer.headers.get("location")).toBe(`/login?redirectTo=${BACK}`);
      const cookies = answer.headers.getSetCookie();
      expect(cookies.join("\n")).toContain("toast.registeredVerify");
      const emailCookie = cookies.find((cookie) => cookie.startsWith("hostfront_sign_up_email="));
      expect(emailCookie).toContain("Max-Age=600");
      expect(emailCookie).toContain("HttpOnly");
      // Not in the address: the way back alone is.
      expect(answer.headers.get("location")).not.toContain(encodeURIComponent(email));

      const page = await appFetch(app())(`/login?redirectTo=${BACK}`, {
        cookie: cookieHeader(cookies),
      });
      const html = await page.text();
      expect(html).toContain("We sent you an email: follow its link to verify your address.");
      expect(html).toMatch(new RegExp(`<input[^>]*name="email"[^>]*value="${email}"`));
      // Without the cookie, or with something that is no address in it, the field is empty.
      for (const cookie of [undefined, "hostfront_sign_up_email=%3Cscript%3E"]) {
        const other = await (await appFetch(app())("/login", { cookie })).text();
        expect(other, cookie).not.toMatch(/<input[^>]*name="email"[^>]*value="/);
      }

      // Signing in forgets it.
      const signedIn = (await postAction(
        app(),
        login,
        `/login?redirectTo=${BACK}`,
        { email, password: PASSWORD, redirectTo: ORDER },
        { ip: nextIp() },
      )) as Response;
      expect(signedIn.headers.get("location")).toBe(ORDER);
      expect(signedIn.headers.getSetCookie()).toContain(
        "hostfront_sign_up_email=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0",
      );
    });

    it("leads the verification link back to the order: at once when signed in, else through signing in", async () => {
      const visitor = await registerAt(app(), `/register?redirectTo=${BACK}`);
      const mailed = await mailedToken(app(), visitor.userId);
      expect(mailed.claims.returnTo).toBe(ORDER);
      // Followed in another browser (a phone's mail app): verified, and signing in leads to the order.
      const page = await appFetch(app())(`/verify-email?token=${encodeURIComponent(mailed.token)}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain(`href="/login?redirectTo=${BACK}"`);
      const verified = await readRow(app().db, "users", ["email_verified"], { id: visitor.userId });
      expect(Boolean(verified.email_verified)).toBe(true);

      // Followed where the visitor is signed in: straight back to the order, with the news.
      const customer = await registerAt(app(), `/register?redirectTo=${BACK}`);
      const cookie = await signedInCookie(
        app(),
        { email: customer.email, password: PASSWORD },
        { ip: nextIp() },
      );
      const { token } = await mailedToken(app(), customer.userId);
      const followed = (await followLink(app(), token, cookie)) as Response;
      expect(followed.status).toBe(302);
      expect(followed.headers.get("location")).toBe(ORDER);
      expect(followed.headers.get("set-cookie")).toContain("toast.emailVerified");
      // Followed again: verified already, and still back to the order.
      const again = (await followLink(app(), token, cookie)) as Response;
      expect(again.headers.get("location")).toBe(ORDER);
    });

    it("never leads the link off the site", async () => {
      // A way back that is no local path is dropped at registration: the link carries none.
      for (const evil of ["//evil.example/order", "https://evil.example", "/\\evil.example"]) {
        const visitor = await registerAt(app(), `/register?redirectTo=${encodeURIComponent(evil)}`);
        const { token, claims } = await mailedToken(app(), visitor.userId);
        expect(claims.returnTo, evil).toBeUndefined();
        const answer = await followLink(app(), token);
        expect(answer, evil).toMatchObject({ data: { outcome: "verified", returnTo: null } });
      }
      // A link signed with the site's secret that carries one anyway is not followed there either.
      const customer = await registerAt(app(), "/register");
      const cookie = await signedInCookie(
        app(),
        { email: customer.email, password: PASSWORD },
        { ip: nextIp() },
      );
      const { secret } = await app().auth.$context;
      for (const evil of ["//evil.example", "https://evil.example/order", "/%2F%2Fevil.example"]) {
        const forged = await createEmailVerificationToken(secret, customer.email, undefined, 3600, {
          userId: customer.userId,
          returnTo: evil,
        });
        const answer = await followLink(app(), forged, cookie);
        expect(answer, evil).not.toBeInstanceOf(Response);
        expect(answer, evil).toMatchObject({ data: { returnTo: null } });
      }
    });
  },
  { env: { SMTP_URL: SMTP_CONFIGURED } },
);

describeEachDatabase("signing up, without mail", (app) => {
  it("keeps the spec's toast, since no link was sent, and still fills the address in", async () => {
    const { answer, email } = await registerAt(app(), "/register");
    const cookies = answer.headers.getSetCookie();
    expect(cookies.join("\n")).toContain("toast.registered%22");
    const html = await (await appFetch(app())("/login", { cookie: cookieHeader(cookies) })).text();
    expect(html).toContain("Registration successful! Please login.");
    expect(html).toMatch(new RegExp(`<input[^>]*name="email"[^>]*value="${email}"`));
  });
});
