import { expect, it } from "vitest";
import { createRequestContext, routerContextFor } from "~/context.server";
import * as root from "~/root";
import { signedInCookie, signedInCustomer } from "../support/account-fixtures";
import { routeArgs } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

let n = 0;

describeEachDatabase("?lang= in a link", (app) => {
  // As server/request-context.ts makes it: the ?lang= of the address goes into the language choice.
  const load = async (url: string, cookie: string) =>
    (await root.loader(
      routeArgs({
        request: new Request(url, { headers: { cookie } }),
        context: routerContextFor(
          await createRequestContext(
            app(),
            {
              cookie,
              acceptLanguage: null,
              queryLocale: new URL(url).searchParams.get("lang"),
            },
            { cspNonce: "test-nonce", clientIp: "127.0.0.1" },
          ),
        ),
        params: {},
      }),
    )) as unknown as { data: { locale: string }; init: { headers: Headers } };
  const savedLocale = async (email: string) =>
    (
      await app()
        .db.selectFrom("users")
        .select("locale")
        .where("email", "=", email)
        .executeTakeFirstOrThrow()
    ).locale;

  it("becomes a signed-in customer's saved language, so the next page keeps it", async () => {
    const email = `param${Date.now()}${n++}@example.com`;
    const { sessions } = await signedInCustomer(
      app(),
      { name: "Yassine", email, password: "Param-pw-4821-Harbor" },
      [`10.8.${n}.1`],
    );
    const cookie = sessions[0]!.cookie;
    const followed = await load("http://localhost/dashboard?lang=fr", cookie);
    expect(followed.data.locale).toBe("fr");
    expect(followed.init.headers.getSetCookie().join()).toMatch(/hostfront_lang=fr;/);
    expect(await savedLocale(email)).toBe("fr");
    // The next page, without the parameter (and without the cookie): still French.
    expect((await load("http://localhost/dashboard", cookie)).data.locale).toBe("fr");
    // A language we do not ship changes nothing.
    await load("http://localhost/dashboard?lang=de", cookie);
    expect(await savedLocale(email)).toBe("fr");
  });

  it("only previews a language for an admin, whose saved one stays", async () => {
    const cookie = await signedInCookie(app(), TEST_ADMIN, { ip: `10.7.${n++}.1` });
    const before = await savedLocale(TEST_ADMIN.email);
    const previewed = await load("http://localhost/admin?lang=ar", cookie);
    expect(previewed.data.locale).toBe("ar");
    expect(await savedLocale(TEST_ADMIN.email)).toBe(before);
  });
});
