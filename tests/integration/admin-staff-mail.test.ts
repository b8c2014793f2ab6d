import { expect, it } from "vitest";
import { getCurrentSession, provisionAdmin, signIn } from "~/domain/accounts/accounts.server";
import * as notifications from "~/routes/admin/notifications";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Result = { data: Record<string, unknown>; init: { status: number } | null };

// /admin/notifications' email card through its route module: each admin asks for the staff messages
// that are off by default (a customer's reply to a ticket) for themselves alone.
describeEachDatabase("the admin's email choices", (app) => {
  async function login(email: string, password: string) {
    const result = await signIn(
      app(),
      { email, password },
      { ip: "10.71.0.1", userAgent: "vitest" },
    );
    if (!result.ok) throw new Error(`sign in failed: ${result.error}`);
    const cookie = cookieHeader(result.setCookies);
    return { cookie, userId: (await getCurrentSession(app(), cookie))!.user.id };
  }

  async function load(cookie: string) {
    return (await settle(async () =>
      notifications.loader(
        routeArgs({
          request: new Request("http://localhost/admin/notifications", { headers: { cookie } }),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as { mailChoices: string[] };
  }

  async function post(cookie: string, fields: Record<string, string>) {
    return (await settle(async () =>
      notifications.action(
        routeArgs({
          request: formRequest("/admin/notifications", fields, cookie),
          context: await contextFor(app(), { cookie }),
          params: {},
        }),
      ),
    )) as Result | Record<string, unknown>;
  }

  it("is off until the admin ticks it, and is theirs alone", async () => {
    const admin = await login(TEST_ADMIN.email, TEST_ADMIN.password);
    await provisionAdmin(app(), {
      email: "mail-choice@example.com",
      password: "Route-admin-pw-82",
    });
    const other = await login("mail-choice@example.com", "Route-admin-pw-82");
    expect((await load(admin.cookie)).mailChoices).toEqual([]);

    expect(await post(admin.cookie, { intent: "staff-mail", staffTicketReplied: "on" })).toEqual({
      ok: true,
      form: "staff-mail",
      message: "admin.notifications.mail.saved",
    });
    expect((await load(admin.cookie)).mailChoices).toEqual(["staffTicketReplied"]);
    expect((await load(other.cookie)).mailChoices).toEqual([]);

    // Unticked: the browser sends nothing for the box.
    await post(admin.cookie, { intent: "staff-mail" });
    expect((await load(admin.cookie)).mailChoices).toEqual([]);

    // An action the page does not have: refused with a message, nothing changed.
    const refused = (await post(admin.cookie, { intent: "everything" })) as Result;
    expect(refused.init?.status).toBe(400);
    expect(refused.data).toMatchObject({
      ok: false,
      message: "admin.notifications.errors.unknownAction",
    });
  });
});
