import fc from "fast-check";
import { expect, it } from "vitest";
import { TABLES_IN_ORDER } from "~/db/copy-database.server";
import { signIn } from "~/domain/accounts/accounts.server";
import { customerWithCoins } from "../support/money-fixtures";
import { contextFor, cookieHeader, settle } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type ActionModule = { action: (args: never) => unknown };

// Every form action, with the fields its form sends (the generator also adds unexpected ones).
const targets: {
  name: string;
  load: () => Promise<ActionModule>;
  path: string;
  as: "anonymous" | "customer" | "admin";
  fields: string[];
  params?: Record<string, string>;
}[] = [
  {
    name: "login",
    load: () => import("~/routes/login"),
    path: "/login",
    as: "anonymous",
    fields: ["email", "password", "redirectTo"],
  },
  {
    name: "register",
    load: () => import("~/routes/register"),
    path: "/register",
    as: "anonymous",
    fields: ["name", "email", "password", "confirmPassword"],
  },
  {
    name: "contact",
    load: () => import("~/routes/site/contact"),
    path: "/contact",
    as: "anonymous",
    fields: ["name", "email", "subject", "message"],
  },
  {
    name: "newsletter",
    load: () => import("~/routes/site/newsletter"),
    path: "/newsletter",
    as: "anonymous",
    fields: ["email", "redirectTo"],
  },
  {
    name: "order",
    load: () => import("~/routes/order"),
    path: "/order",
    as: "customer",
    fields: [
      "productId",
      "billingCycle",
      "location",
      "ddosProtection",
      "playerSlots",
      "backup",
      "serverName",
      "voucherCode",
      "idempotencyKey",
    ],
  },
  {
    name: "dashboard",
    load: () => import("~/routes/dashboard"),
    path: "/dashboard",
    as: "customer",
    fields: ["intent", "serviceId", "idempotencyKey", "name", "email", "sessionId"],
  },
  {
    name: "account-password",
    load: () => import("~/routes/account-password"),
    path: "/account/password",
    as: "customer",
    fields: ["currentPassword", "newPassword", "confirmPassword"],
  },
  {
    name: "support/new",
    load: () => import("~/routes/support/new"),
    path: "/support/new",
    as: "customer",
    fields: ["department", "subject", "priority", "message", "serviceId"],
  },
  {
    name: "support/:id",
    load: () => import("~/routes/support/ticket"),
    path: "/support/1",
    as: "customer",
    fields: ["intent", "message"],
    params: { id: "1" },
  },
  {
    name: "admin/orders",
    load: () => import("~/routes/admin/orders"),
    path: "/admin/orders",
    as: "admin",
    fields: ["intent", "orderId", "reason"],
  },
  {
    name: "admin/services",
    load: () => import("~/routes/admin/services"),
    path: "/admin/services",
    as: "admin",
    fields: [
      "intent",
      "serviceId",
      "userId",
      "name",
      "price",
      "productId",
      "serverName",
      "billingCycle",
    ],
  },
  {
    name: "admin/clients",
    load: () => import("~/routes/admin/clients"),
    path: "/admin/clients",
    as: "admin",
    fields: ["intent", "userId", "amount", "reason", "name", "email", "role", "password"],
  },
  {
    name: "admin/tickets/:id",
    load: () => import("~/routes/admin/ticket"),
    path: "/admin/tickets/1",
    as: "admin",
    fields: ["intent", "message", "status", "priority", "amount", "reason"],
    params: { id: "1" },
  },
  {
    name: "admin/security",
    load: () => import("~/routes/admin/security"),
    path: "/admin/security",
    as: "admin",
    fields: ["intent", "sessionId", "kind", "key"],
  },
  {
    name: "admin/announcements",
    load: () => import("~/routes/admin/announcements"),
    path: "/admin/announcements",
    as: "admin",
    fields: ["intent", "id", "title", "content", "type", "targetAudience", "isActive"],
  },
  {
    name: "admin/settings",
    load: () => import("~/routes/admin/settings"),
    path: "/admin/settings",
    as: "admin",
    fields: [
      "intent",
      "siteName",
      "siteDescription",
      "contactEmail",
      "paymentsEmail",
      "defaultLocale",
      "entryGate",
      "discord",
      "whatsapp",
      "gamePanel",
      "databaseAdmin",
      "telegram",
      "github",
      "instagram",
      "facebook",
      "maintenanceMode",
      "maintenanceMessage",
      "primaryColor",
      "secondaryColor",
      "accentColor",
      "registration",
      "coinPurchase",
      "livechat",
      "tickets",
      "title",
      "description",
      "keywords",
    ],
  },
  {
    name: "admin/contact-messages",
    load: () => import("~/routes/admin/contact-messages"),
    path: "/admin/contact-messages?q=x&show=unread",
    as: "admin",
    fields: ["intent", "id"],
  },
  {
    name: "admin/newsletter",
    load: () => import("~/routes/admin/newsletter"),
    path: "/admin/newsletter",
    as: "admin",
    fields: ["intent", "id"],
  },
  {
    name: "admin/products",
    load: () => import("~/routes/admin/products"),
    path: "/admin/products",
    as: "admin",
    fields: [
      "intent",
      "id",
      "direction",
      "name",
      "slug",
      "type",
      "category",
      "description",
      "price",
      "features",
      "ramGb",
      "storageGb",
      "cpuCores",
      "slots",
      "recommended",
      "status",
    ],
  },
  {
    name: "admin/promotions",
    load: () => import("~/routes/admin/promotions"),
    path: "/admin/promotions",
    as: "admin",
    fields: [
      "intent",
      "id",
      "code",
      "description",
      "discountType",
      "discountValue",
      "minPurchase",
      "maxUses",
      "validFrom",
      "validUntil",
      "appliesTo",
      "product-1",
      "product-2",
    ],
  },
];

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1e309",
    "NaN",
    "null",
    "[]",
    "{}",
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "\u0000",
    "😀".repeat(30),
    "approve",
    "reject",
    "add",
    "delete",
    "reply",
    "coins",
    "status",
    "priority",
    "profile",
    "end-session",
    "renew",
    "create",
    "update",
    // the settings page's forms
    "general",
    "links",
    "maintenance",
    "theme",
    "features",
    "seo",
    "on",
    "#2563eb",
    "revoke-session",
    "revoke-others",
    "lift-block",
    "address",
    "email",
    "open",
    "read",
    "unread",
    "remove",
    "move",
    "hide",
    "show",
    "activate",
    "deactivate",
  ),
  fc.string({ minLength: 5000, maxLength: 20_000 }),
  fc.integer().map(String),
);

async function tableCounts(
  app: ReturnType<Parameters<Parameters<typeof describeEachDatabase>[1]>[0]>,
) {
  const counts: Record<string, number> = {};
  for (const table of TABLES_IN_ORDER) {
    if (table === "login_attempts" || table === "sessions" || table === "notifications") continue;
    const row = await app.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    counts[table] = Number(row.n);
  }
  return counts;
}

describeEachDatabase("bad input", (app) => {
  it("never answers a malformed form with a server error, and a refused one changes nothing", async () => {
    const customer = await customerWithCoins(app(), 1000);
    const email = (
      await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", customer)
        .executeTakeFirstOrThrow()
    ).email;
    const login = async (address: string, password: string) => {
      const result = await signIn(app(), { email: address, password }, { ip: "10.30.0.1" });
      if (!result.ok) throw new Error("sign in failed");
      return cookieHeader(result.setCookies);
    };
    const cookies = {
      anonymous: undefined,
      customer: await login(email, "Buyer-pw-8842"),
      admin: await login(TEST_ADMIN.email, TEST_ADMIN.password),
    };

    for (const target of targets) {
      const module = await target.load();
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(
            fc.constantFrom(...target.fields, "extra", "__proto__", "constructor"),
            nasty,
            { maxKeys: target.fields.length + 2 },
          ),
          fc.boolean(),
          async (fields, asJson) => {
            const before = await tableCounts(app());
            const cookie = cookies[target.as];
            const headers: Record<string, string> = {
              "content-type": asJson ? "application/json" : "application/x-www-form-urlencoded",
              ...(cookie ? { cookie } : {}),
            };
            const body = asJson ? JSON.stringify(fields) : new URLSearchParams(fields).toString();
            const request = new Request(`http://localhost${target.path}`, {
              method: "POST",
              headers,
              body,
            });
            const outcome = await settle(async () =>
              module.action({
                request,
                context: await contextFor(app(), { cookie, ip: "10.31.0.1" }),
                params: target.params ?? {},
              } as never),
            );
            if (outcome instanceof Error)
              throw new Error(`${target.name} threw ${outcome.message}`);
            const status =
              outcome instanceof Response
                ? outcome.status
                : ((outcome as { init?: { status?: number } | null })?.init?.status ?? 200);
            expect(status, target.name).toBeLessThan(500);
            const text = JSON.stringify(
              outcome instanceof Response ? { status: outcome.status } : outcome,
            );
            expect(text).not.toMatch(/at .+\.(ts|js):\d+/);
            if (status >= 400)
              expect(await tableCounts(app()), `${target.name} refused but changed data`).toEqual(
                before,
              );
          },
        ),
        { numRuns: 15 },
      );
    }
  }, 180_000);
});
