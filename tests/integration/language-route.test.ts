import { expect, it } from "vitest";
import { createRequestContext } from "~/context.server";
import * as language from "~/routes/language";
import * as login from "~/routes/login";
import * as register from "~/routes/register";
import * as root from "~/root";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase } from "../support/test-database";

let n = 0;
const email = () => `lang${Date.now()}${n++}@example.com`;

describeEachDatabase("the language switcher's action", (app) => {
  async function signedInCustomer() {
    const address = email();
    const password = "Lang-pw-4821-Harbor";
    await settle(async () =>
      register.action(
        routeArgs({
          request: formRequest("/register", {
            name: "Salma",
            email: address,
            password,
            confirmPassword: password,
          }),
          context: await contextFor(app()),
          params: {},
        }),
      ),
    );
    const response = (await settle(async () =>
      login.action(
        routeArgs({
          request: formRequest("/login", { email: address, password }),
          context: await contextFor(app(), { ip: `10.9.${n}.1` }),
          params: {},
        }),
      ),
    )) as Response;
    expect(response.headers.get("location")).toBe("/dashboard");
    const cookie = cookieHeader(
      response.headers.getSetCookie().filter((c) => c.startsWith("hostfront.session_token=")),
    );
    return { address, cookie };
  }

  async function choose(fields: Record<string, string>, cookie?: string) {
    return (await settle(async () =>
      language.action(
        routeArgs({
          request: formRequest("/language", fields, cookie),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Response;
  }

  /** The language a new request gets (as the server computes it for every page). */
  async function localeFor(request: {
    cookie?: string;
    acceptLanguage?: string;
    queryLocale?: string;
  }) {
    const context = await createRequestContext(
      app(),
      {
        cookie: request.cookie ?? null,
        acceptLanguage: request.acceptLanguage ?? null,
        queryLocale: request.queryLocale ?? null,
      },
      { cspNonce: "test", clientIp: "127.0.0.1" },
    );
    return context.locale;
  }

  it("keeps a signed-in customer's choice on the account, sets the cookie and goes back", async () => {
    const { address, cookie } = await signedInCustomer();
    const response = await choose({ lang: "ar", redirectTo: "/services/samp?tab=2" }, cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/services/samp?tab=2");
    const setCookie = response.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^hostfront_lang=ar;/);
    expect(setCookie).toContain("Path=/");
    expect(setCookie).toContain("Max-Age=31536000");
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/HttpOnly/i);

    const row = await app()
      .db.selectFrom("users")
      .select("locale")
      .where("email", "=", address)
      .executeTakeFirstOrThrow();
    expect(row.locale).toBe("ar");
  });

  it("makes the saved choice follow the customer to a browser that asks for another language", async () => {
    const { cookie } = await signedInCustomer();
    await choose({ lang: "ar", redirectTo: "/" }, cookie);
    // Another browser: only the session cookie, and a French Accept-Language.
    expect(await localeFor({ cookie, acceptLanguage: "fr-FR,fr;q=0.9" })).toBe("ar");
    // Saved beats a visitor cookie too; an explicit ?lang= (the hreflang links) beats both.
    expect(await localeFor({ cookie: `${cookie}; hostfront_lang=en`, acceptLanguage: "fr" })).toBe(
      "ar",
    );
    expect(await localeFor({ cookie, queryLocale: "fr" })).toBe("fr");
    // Changing it again replaces it.
    await choose({ lang: "fr", redirectTo: "/" }, cookie);
    expect(await localeFor({ cookie, acceptLanguage: "ar" })).toBe("fr");
  });

  it("copies the saved choice into this browser's cookie, so it outlasts the session", async () => {
    const { cookie } = await signedInCustomer();
    await choose({ lang: "ar", redirectTo: "/" }, cookie);
    const load = async (requestCookie: string) =>
      (await root.loader(
        routeArgs({
          request: new Request("http://localhost/about", { headers: { cookie: requestCookie } }),
          context: await contextFor(app(), { cookie: requestCookie }),
          params: {},
        }),
      )) as unknown as { init: { headers: Headers } };
    const fresh = await load(cookie);
    expect(fresh.init.headers.getSetCookie().join()).toMatch(/hostfront_lang=ar;/);
    const already = await load(`${cookie}; hostfront_lang=ar`);
    expect(already.init.headers.getSetCookie().join()).not.toContain("hostfront_lang");
  });

  it("remembers the ?lang= of a link a visitor followed, and only a language we ship", async () => {
    const load = async (url: string, requestCookie = "") =>
      (await root.loader(
        routeArgs({
          request: new Request(url, { headers: { cookie: requestCookie } }),
          context: await contextFor(app(), { cookie: requestCookie }),
          params: {},
        }),
      )) as unknown as { init: { headers: Headers } };
    const cookies = async (url: string, requestCookie?: string) =>
      (await load(url, requestCookie)).init.headers.getSetCookie().join();
    expect(await cookies("http://localhost/about?lang=fr")).toMatch(/hostfront_lang=fr;/);
    expect(await cookies("http://localhost/about?lang=fr", "hostfront_lang=fr")).toBe("");
    expect(await cookies("http://localhost/about?lang=de")).toBe("");
    expect(await cookies("http://localhost/about")).toBe("");
  });

  it("gives a visitor the cookie only", async () => {
    const response = await choose({ lang: "fr", redirectTo: "/about" });
    expect(response.headers.get("location")).toBe("/about");
    const visitor = cookieHeader(response.headers.getSetCookie());
    expect(visitor).toBe("hostfront_lang=fr");
    expect(await localeFor({ cookie: visitor, acceptLanguage: "ar" })).toBe("fr");
    expect(await localeFor({ acceptLanguage: "ar-MA,ar;q=0.9" })).toBe("ar");
    expect(await localeFor({})).toBe("en");
  });

  it("never sends anyone to another site, and ignores a language we do not ship", async () => {
    for (const redirectTo of ["//evil.example/x", "/\t/evil.example", "/\\evil.example"]) {
      const evil = await choose({ lang: "fr", redirectTo });
      expect(evil.headers.get("location"), redirectTo).toBe("/");
    }
    const unknown = await choose({ lang: "de", redirectTo: "/about" });
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("set-cookie")).toBeNull();
  });
});
