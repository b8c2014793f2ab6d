import { expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import en from "~/i18n/locales/en/admin.json";
import enCoins from "~/i18n/locales/en/coins.json";
import * as adminClients from "~/routes/admin/clients";
import * as adminLogs from "~/routes/admin/logs";
import * as adminSearch from "~/routes/admin/search";
import * as adminTransactions from "~/routes/admin/transactions";
import { customerWithCoins, expectLedgerIntact } from "../support/money-fixtures";
import {
  contextFor,
  cookieHeader,
  formRequest,
  routeArgs,
  settle,
} from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type Result = { data: Record<string, unknown>; init: { status: number } | null };
type Module = {
  loader: (args: never) => unknown;
  action?: (args: never) => unknown;
};

// The admin pages through their route modules, as a request would reach them.
describeEachDatabase("admin pages", (app) => {
  let cookie: string;

  async function adminCookie() {
    cookie ??= await (async () => {
      const result = await signIn(
        app(),
        { email: TEST_ADMIN.email, password: TEST_ADMIN.password },
        { ip: "10.50.0.1" },
      );
      if (!result.ok) throw new Error("sign in failed");
      return cookieHeader(result.setCookies);
    })();
    return cookie;
  }

  async function load(module: Module, path: string) {
    const admin = await adminCookie();
    return settle(async () =>
      module.loader(
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie: admin } }),
          context: await contextFor(app(), { cookie: admin }),
          params: {},
        }),
      ),
    );
  }

  async function post(fields: Record<string, string>) {
    const admin = await adminCookie();
    return (await settle(async () =>
      adminClients.action(
        routeArgs({
          request: formRequest("/admin/clients", fields, admin),
          context: await contextFor(app(), { cookie: admin }),
          params: {},
        }),
      ),
    )) as Result | Record<string, unknown>;
  }

  async function emailOf(id: string) {
    return (
      await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", id)
        .executeTakeFirstOrThrow()
    ).email;
  }

  it("speaks the spec's messages", () => {
    expect(en.users.updated).toBe("User updated successfully");
    expect(en.users.updateFailed).toBe("Failed to update user");
    expect(en.users.deleted).toBe("User deleted successfully");
    expect(enCoins.admin.updated).toBe("Coins updated successfully");
    expect(enCoins.admin.newTotal).toBe("New total: {{amount}}");
  });

  it("edits, refuses a taken email, changes coins and deletes through the clients page", async () => {
    const first = await customerWithCoins(app(), 0);
    const second = await customerWithCoins(app(), 1_000);
    const base = { intent: "update", userId: second, name: "Edited" };

    const taken = (await post({ ...base, email: await emailOf(first) })) as Result;
    expect(taken.init?.status).toBe(409);
    expect(taken.data).toMatchObject({
      ok: false,
      intent: "update",
      userId: second,
      message: "admin.users.updateFailed",
      reason: "admin.users.errors.emailTaken",
    });

    const invalid = (await post({ ...base, email: "not-an-email" })) as Result;
    expect(invalid.init?.status).toBe(400);
    expect(invalid.data).toMatchObject({
      message: "admin.users.updateFailed",
      fieldErrors: { email: "auth.errors.emailInvalid" },
    });

    const email = `edited${Date.now()}@example.com`;
    expect(await post({ ...base, email, password: "" })).toEqual({
      ok: true,
      intent: "update",
      userId: second,
      message: "admin.users.updated",
    });
    expect(await emailOf(second)).toBe(email);

    const coins = {
      intent: "coins",
      userId: second,
      amount: "-2.50",
      reason: "fix",
      idempotencyKey: `admin-pages-${second}`,
    };
    expect(await post(coins)).toEqual({
      ok: true,
      intent: "coins",
      userId: second,
      message: "coins.admin.updated",
    });

    const self = (await post({ intent: "delete", userId: await adminIdOf() })) as Result;
    expect(self.init?.status).toBe(403);
    expect(self.data).toMatchObject({
      message: "admin.users.deleteFailed",
      reason: "admin.users.errors.adminDelete",
    });

    expect(await post({ intent: "delete", userId: second })).toEqual({
      ok: true,
      intent: "delete",
      userId: second,
      message: "admin.users.deleted",
    });
    await expectLedgerIntact(app());

    // The list no longer shows them; /admin/users is the same page under its own title.
    const clients = (await load(adminClients, `/admin/clients?q=${email}`)) as {
      users: unknown[];
      heading: string;
    };
    expect(clients.users).toEqual([]);
    expect(clients.heading).toBe("clients");
    const users = (await load(adminClients, "/admin/users?sort=coins&dir=asc&page=x")) as {
      heading: string;
      query: unknown;
    };
    expect(users.heading).toBe("users");
    expect(users.query).toEqual({
      q: "",
      role: "all",
      deletion: "all",
      sort: "coins",
      dir: "asc",
      page: 1,
    });
  });

  async function adminIdOf() {
    return (
      await app()
        .db.selectFrom("users")
        .select("id")
        .where("email", "=", TEST_ADMIN.email)
        .executeTakeFirstOrThrow()
    ).id;
  }

  it("the search redirects to the match", async () => {
    const found = (await load(adminSearch, "/admin/search?q=nobody%40example.com")) as Response;
    expect(found.status).toBe(302);
    expect(found.headers.get("location")).toBe("/admin/clients?q=nobody%40example.com");
  });

  it("the logs and transactions pages read their filters from the address", async () => {
    const customer = await customerWithCoins(app(), 700);
    const email = await emailOf(customer);
    const logs = (await load(
      adminLogs,
      `/admin/logs?action=coins.adjust&target=${encodeURIComponent(email)}&targetType=bogus`,
    )) as { entries: { action: string; targetEmail: string }[]; query: object };
    expect(logs.query).toEqual({
      action: "coins.adjust",
      target: email,
      page: 1,
    });
    expect(logs.entries).toHaveLength(1);
    expect(logs.entries[0]).toMatchObject({ action: "coins.adjust", targetEmail: email });

    const transactions = (await load(
      adminTransactions,
      `/admin/transactions?customer=${encodeURIComponent(email)}&kind=admin_adjustment&from=2000-01-01&to=bad`,
    )) as { entries: unknown[]; totals: { netCents: number }; query: object };
    expect(transactions.query).toEqual({
      customer: email,
      kind: "admin_adjustment",
      from: "2000-01-01",
      page: 1,
    });
    expect(transactions.entries).toHaveLength(1);
    expect(transactions.totals.netCents).toBe(700);
  });
});
