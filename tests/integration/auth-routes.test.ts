import { expect, it } from "vitest";
import * as login from "~/routes/login";
import * as logout from "~/routes/logout";
import * as register from "~/routes/register";
import * as dashboard from "~/routes/dashboard/layout";
import * as accountPassword from "~/routes/account-password";
import { provisionAdmin } from "~/domain/accounts/accounts.server";
import { appFetch } from "../support/app-harness";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type ActionResult = {
  data: {
    fieldErrors?: Record<string, string>;
    formError?: string;
    values?: Record<string, string>;
  };
  init: { status: number } | null;
};

let n = 0;
const email = () => `route${Date.now()}${n++}@example.com`;

describeEachDatabase("login and registration routes", (app) => {
  async function registerAction(fields: Record<string, string>) {
    return settle(async () =>
      register.action(
        routeArgs({
          request: formRequest("/register", fields),
          context: await contextFor(app()),
          params: {},
        }),
      ),
    );
  }
  async function loginAction(fields: Record<string, string>, ip = "10.7.0.1") {
    return settle(async () =>
      login.action(
        routeArgs({
          request: formRequest("/login", fields),
          context: await contextFor(app(), { ip }),
          params: {},
        }),
      ),
    );
  }

  it("answers registration mistakes with the spec's messages and keeps what was typed", async () => {
    const mismatch = (await registerAction({
      name: "Amine",
      email: "amine@example.com",
      password: "Secret-pw-1",
      confirmPassword: "Secret-pw-2",
    })) as ActionResult;
    expect(mismatch.init?.status).toBe(400);
    expect(mismatch.data.fieldErrors?.confirmPassword).toBe("auth.errors.passwordsDoNotMatch");
    expect(mismatch.data.values).toEqual({ name: "Amine", email: "amine@example.com" });

    const short = (await registerAction({
      name: "A",
      email: "a@example.com",
      password: "abc12",
      confirmPassword: "abc12",
    })) as ActionResult;
    expect(short.data.fieldErrors?.password).toBe("auth.errors.passwordTooShort");

    const empty = (await registerAction({})) as ActionResult;
    expect(Object.keys(empty.data.fieldErrors ?? {}).sort()).toEqual([
      "confirmPassword",
      "email",
      "name",
      "password",
    ]);

    const badEmail = (await registerAction({
      name: "A",
      email: "not-an-email",
      password: "Secret-pw-1",
      confirmPassword: "Secret-pw-1",
    })) as ActionResult;
    expect(badEmail.data.fieldErrors?.email).toBe("auth.errors.emailInvalid");
  });

  it("registers, then sends the customer to /login with the success toast", async () => {
    const address = email();
    const response = (await registerAction({
      name: "Yasmine",
      email: address.toUpperCase(),
      password: "Yasmine-pw-77",
      confirmPassword: "Yasmine-pw-77",
    })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/login");
    expect(response.headers.get("set-cookie")).toContain("toast.registered");

    const duplicate = (await registerAction({
      name: "Again",
      email: address,
      password: "Yasmine-pw-77",
      confirmPassword: "Yasmine-pw-77",
    })) as ActionResult;
    expect(duplicate.init?.status).toBe(409);
    expect(duplicate.data.fieldErrors?.email).toBe("auth.errors.emailTaken");

    // Posted without JavaScript (a document request): the register page again, its form and message.
    const page = await appFetch(app())("/register", {
      form: {
        name: "Again",
        email: address,
        password: "Yasmine-pw-77",
        confirmPassword: "Yasmine-pw-77",
      },
    });
    expect(page.status).toBe(409);
    const html = await page.text();
    expect(html).toContain("User with this email already exists");
    expect(html).toContain('name="confirmPassword"');
  });

  it("logs a customer in to /dashboard and an admin to /admin, and back out", async () => {
    const address = email();
    await registerAction({
      name: "Karim",
      email: address,
      password: "Karim-pw-123",
      confirmPassword: "Karim-pw-123",
    });

    const wrong = (await loginAction({ email: address, password: "Karim-pw-999" })) as ActionResult;
    expect(wrong.init?.status).toBe(401);
    expect(wrong.data.formError).toBe("auth.errors.invalidCredentials");
    expect(JSON.stringify(wrong)).not.toContain("Karim-pw-999");

    const customer = (await loginAction({ email: address, password: "Karim-pw-123" })) as Response;
    expect(customer.headers.get("location")).toBe("/dashboard");
    const setCookie = customer.headers.getSetCookie();
    const session = setCookie.find((c) => c.startsWith("hostfront.session_token="))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    expect(setCookie.join()).toContain("toast.loginSuccess");

    const cookie = cookieHeader(setCookie);
    const page = await dashboard.loader(
      routeArgs({
        request: new Request("http://localhost/dashboard"),
        context: await contextFor(app(), { cookie }),
        params: {},
      }),
    );
    expect(page).toMatchObject({ name: "Karim" });

    const out = (await logout.action(
      routeArgs({
        request: formRequest("/logout", {}, cookie),
        context: await contextFor(app(), { cookie }),
        params: {},
      }),
    )) as Response;
    expect(out.headers.get("location")).toBe("/");
    expect(out.headers.getSetCookie().join()).toContain("toast.loggedOut");
    const after = (await settle(async () =>
      dashboard.loader(
        routeArgs({
          request: new Request("http://localhost/dashboard"),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Response;
    expect(after.headers.get("location")).toBe("/login?redirectTo=%2Fdashboard");

    const admin = (await loginAction({
      email: TEST_ADMIN.email,
      password: TEST_ADMIN.password,
    })) as Response;
    expect(admin.headers.get("location")).toBe("/admin");
    expect(admin.headers.getSetCookie().join()).toContain("toast.adminLoginSuccess");
  });

  it("follows a same-site redirectTo after login, never another site", async () => {
    const address = email();
    await registerAction({
      name: "Redirect",
      email: address,
      password: "Redir-pw-1234",
      confirmPassword: "Redir-pw-1234",
    });
    const back = (await loginAction({
      email: address,
      password: "Redir-pw-1234",
      redirectTo: "/dashboard?tab=billing",
    })) as Response;
    expect(back.headers.get("location")).toBe("/dashboard?tab=billing");
    const evil = (await loginAction({
      email: address,
      password: "Redir-pw-1234",
      redirectTo: "//evil.example/x",
    })) as Response;
    expect(evil.headers.get("location")).toBe("/dashboard");
    // The reported case: a tab, which browsers drop, turned "/\t/evil.example" into "//evil.example".
    for (const redirectTo of [
      "/\t/evil.example",
      "/\\evil.example",
      "/%2F%2Fevil.example",
      "/.//evil.example",
    ]) {
      const tricky = (await loginAction({
        email: address,
        password: "Redir-pw-1234",
        redirectTo,
      })) as Response;
      expect(tricky.status, redirectTo).toBe(302);
      expect(tricky.headers.get("location"), redirectTo).toBe("/dashboard");
    }
  });

  it("tells a throttled client how long to wait", async () => {
    const address = email();
    for (let i = 0; i < 5; i++)
      await loginAction({ email: address, password: `bad-pw-${i}` }, "10.8.0.1");
    const blocked = (await loginAction(
      { email: address, password: "bad-pw-x" },
      "10.8.0.1",
    )) as ActionResult & {
      data: { minutes?: number };
    };
    expect(blocked.init?.status).toBe(429);
    expect(blocked.data.formError).toBe("auth.errors.tooManyAttempts");
    expect(blocked.data.minutes).toBe(15);
  });

  it("makes an admin with a one-time password choose their own before anything else", async () => {
    const address = email();
    const created = await provisionAdmin(app(), { email: address });
    if (created.status !== "created" || !created.generatedPassword) throw new Error("not created");
    const response = (await loginAction({
      email: address,
      password: created.generatedPassword,
    })) as Response;
    expect(response.headers.get("location")).toBe("/account/password");
    const cookie = cookieHeader(response.headers.getSetCookie());

    const blocked = (await settle(async () =>
      dashboard.loader(
        routeArgs({
          request: new Request("http://localhost/dashboard"),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Response;
    expect(blocked.headers.get("location")).toBe("/account/password");

    const changed = (await settle(async () =>
      accountPassword.action(
        routeArgs({
          request: formRequest(
            "/account/password",
            {
              currentPassword: created.generatedPassword!,
              newPassword: "My-own-pass-2026",
              confirmPassword: "My-own-pass-2026",
            },
            cookie,
          ),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Response;
    expect(changed.headers.get("location")).toBe("/admin");
    const newCookie = cookieHeader(
      changed.headers.getSetCookie().filter((c) => c.includes("session_token")),
    );
    const page = await dashboard.loader(
      routeArgs({
        request: new Request("http://localhost/dashboard"),
        context: await contextFor(app(), { cookie: newCookie || cookie }),
        params: {},
      }),
    );
    expect(page).toMatchObject({ name: "Administrator" });
  });
});
