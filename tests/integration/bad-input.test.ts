import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { signIn } from "~/domain/accounts/accounts.server";
import {
  appFetch,
  dataUrl,
  flattenRoutes,
  routeModule,
  type AppFetch,
} from "../support/app-harness";
import { databaseFingerprint } from "../support/database-fingerprint";
import { customerWithCoins } from "../support/money-fixtures";
import { cookieHeader } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/**
 * Generated malformed, oversized, wrong-type, unicode and injection input for every route of
 * app/routes.ts: its path parameters, its query string (every loader), and its form (every action), sent
 * as a form, JSON, multipart or garbage, through React Router's own handler with the page rendered
 * (tests/support/app-harness.ts). Never a 5xx, never a stack trace, and a refused request (4xx, or sent
 * to log in) changes no table; a GET changes no table at all.
 */

type Role = "anonymous" | "customer" | "admin";

// The fields each form sends (the generator also adds unexpected ones). A route with an action that is
// not listed here is still fuzzed, with GENERIC_FIELDS.
const FORM_FIELDS: Record<string, string[]> = {
  "/login": ["email", "password", "redirectTo"],
  "/register": ["name", "email", "password", "confirmPassword"],
  "/contact": ["name", "email", "subject", "message"],
  "/newsletter": ["email", "redirectTo"],
  "/language": ["lang", "redirectTo"],
  "/notifications": ["intent"],
  "/logout": ["redirectTo"],
  "/order": [
    "productId",
    "billingCycle",
    "location",
    "ddosProtection",
    "playerSlots",
    "backup",
    "serverName",
    "voucherCode",
    "idempotencyKey",
    "shownPrices",
  ],
  "/dashboard": ["intent", "tab"],
  "/dashboard/services": ["intent", "serviceId", "idempotencyKey", "shownPrice", "autoRenew"],
  "/dashboard/services/:id": ["intent", "signal", "confirm", "env", "value", "notice"],
  "/dashboard/account": [
    "intent",
    "name",
    "email",
    "sessionId",
    "currentPassword",
    "code",
    "billingName",
    "billingAddress",
    "billingCountry",
    "receive",
  ],
  "/account/password": ["currentPassword", "newPassword", "confirmPassword"],
  "/support/new": ["department", "subject", "priority", "message", "serviceId"],
  "/support/:id": ["intent", "message"],
  "/admin/orders": ["intent", "orderId", "reason"],
  "/admin/services/:id/panel": ["intent", "server", "signal", "env", "value"],
  "/admin/services": [
    "intent",
    "serviceId",
    "userId",
    "name",
    "price",
    "productId",
    "serverName",
    "billingCycle",
    "expiresOn",
    "adminNote",
  ],
  "/admin/clients": ["intent", "userId", "amount", "reason", "name", "email", "role", "password"],
  "/admin/users": ["intent", "userId", "amount", "reason", "name", "email", "role", "password"],
  "/admin/clients/:id": ["intent", "note"],
  "/admin/tickets/:id": ["intent", "message", "status", "priority", "amount", "reason"],
  "/admin/announcements": [
    "intent",
    "id",
    "title",
    "content",
    "type",
    "targetAudience",
    "isActive",
  ],
  "/admin/products": [
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
    // The provisioning block: its fields, a panel location's and node's checkbox, a variable.
    "provisioner",
    "nestId",
    "eggId",
    "dockerImage",
    "memoryMb",
    "portLayout",
    "httpPortVariable",
    "slotsVariable",
    "location-1",
    "node-1",
    "env.MAX_PLAYERS",
  ],
  "/admin/promotions": [
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
  "/admin/settings": [
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
    "en",
    "fr",
    "ar",
  ],
  "/admin/security": ["intent", "sessionId", "kind", "key"],
  "/admin/automation": ["intent", "id", "schedule"],
  "/admin/contact-messages": ["intent", "id"],
  "/admin/newsletter": ["intent", "id"],
};
const GENERIC_FIELDS = ["intent", "id", "userId", "name", "email", "amount", "reason", "status"];

// Every query parameter a loader reads (lists' filters, paging, redirects, language, ...).
const QUERY_KEYS = [
  "tab",
  "before",
  "page",
  "status",
  "id",
  "q",
  "user",
  "customer",
  "kind",
  "from",
  "to",
  "action",
  "actor",
  "target",
  "targetType",
  "department",
  "priority",
  "role",
  "sort",
  "dir",
  "product",
  "topic",
  "redirectTo",
  "lang",
  "opened",
  "type",
  "edit",
  "notice",
  "code",
  "show",
  "open",
  "email",
  "address",
  "renew",
  "confirm",
];

const INTENTS = [
  "approve",
  "reject",
  "add",
  "delete",
  "reply",
  "close",
  "reopen",
  "coins",
  "status",
  "priority",
  "profile",
  "end-session",
  "renew",
  "create",
  "update",
  "suspend",
  "reactivate",
  "terminate",
  "save",
  "move",
  "hide",
  "show",
  "activate",
  "deactivate",
  "general",
  "links",
  "maintenance",
  "theme",
  "features",
  "seo",
  "privacy",
  "request-deletion",
  "cancel-deletion",
  "complete-deletion",
  "revoke-session",
  "revoke-others",
  "lift-block",
  "open",
  "read",
  "unread",
  "remove",
  "power",
  "reinstall",
  "variable",
  "password",
  "notice",
];

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: "grapheme", maxLength: 50 }),
  // Lone surrogates and every other code point.
  fc.string({ unit: "binary", maxLength: 30 }),
  fc.constantFrom(
    "",
    " ",
    "0",
    "-1",
    "1.5",
    "1e309",
    "-0",
    "9007199254740993",
    "99999999999999999999999",
    "0x1f",
    "NaN",
    "Infinity",
    "null",
    "undefined",
    "true",
    "[]",
    "{}",
    '{"__proto__":{"admin":true}}',
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "' OR 1=1 --",
    "'; DROP TABLE users; --",
    "{{constructor.constructor('return 1')()}}",
    "${7*7}",
    "../../../../etc/passwd",
    "//evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "\u0000",
    "a\u0000b",
    "\u202e\u200f\u200b",
    "\ufeff",
    "%00",
    "%",
    "%E0%A4%A",
    "😀".repeat(30),
    "ä".repeat(300),
    "مرحبا بالعالم",
    "admin@hostfront.test",
    ...INTENTS,
  ),
  fc.string({ minLength: 5000, maxLength: 20_000 }),
  fc.integer().map(String),
  fc.double().map(String),
);

/** How a generated form travels: a normal form, JSON, multipart, or bytes that are none of those. */
const encoding = fc.constantFrom("form", "json", "multipart", "garbage", "wrong-type");

function encode(
  fields: Record<string, string>,
  how: string,
): { body: BodyInit; headers: Record<string, string> } {
  switch (how) {
    case "json":
      return { body: JSON.stringify(fields), headers: { "content-type": "application/json" } };
    case "multipart": {
      const form = new FormData();
      for (const [key, value] of Object.entries(fields)) form.append(key, value);
      form.append("file", new Blob(["x".repeat(100)]), "upload.bin");
      return { body: form, headers: {} };
    }
    case "garbage":
      return {
        body: "%%%&&&==%zz&\u0000&a=%E0%A4%A&" + JSON.stringify(fields),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      };
    case "wrong-type":
      return {
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "multipart/form-data; boundary=nothing-here" },
      };
    default:
      return {
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      };
  }
}

const STACK_TRACE = /\bat [^\s]+ \(?[^\s)]+\.(?:ts|tsx|js|mjs):\d+/;

/** A path parameter's value: junk, or a real-looking id. */
const param = fc.oneof(
  nasty.filter((s) => s.length > 0 && s.length < 2000),
  fc.nat().map(String),
);

function fillPattern(pattern: string, values: string[]): string {
  let i = 0;
  return pattern
    .replace(/:[a-zA-Z]+/g, () => encodeURIComponent(values[i++] ?? "1"))
    .replace(/\*$/, () => encodeURIComponent(values[i++] ?? "x"));
}

const routes = flattenRoutes().filter((route) => !route.layout);

describeEachDatabase("bad input", (app) => {
  let fetchApp: AppFetch;
  const cookies = {} as Record<Role, string | undefined>;
  let customerEmail = "";

  async function login(email: string, password: string) {
    const result = await signIn(
      app(),
      { email, password },
      { ip: "10.30.0.1" },
      { ipPerMinute: 1_000_000 },
    );
    if (!result.ok) throw new Error("sign in failed");
    return cookieHeader(result.setCookies);
  }

  beforeAll(async () => {
    fetchApp = appFetch(app());
    const customer = await customerWithCoins(app(), 1000);
    customerEmail = (
      await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", customer)
        .executeTakeFirstOrThrow()
    ).email;
    cookies.anonymous = undefined;
    cookies.customer = await login(customerEmail, "Buyer-pw-8842");
    cookies.admin = await login(TEST_ADMIN.email, TEST_ADMIN.password);
  });

  // Logging in and out are what those two routes are for; every other table must stay as it was.
  const fingerprint = () => databaseFingerprint(app().db, { skip: ["login_attempts", "sessions"] });

  async function expectNoServerError(response: Response, what: string) {
    expect(response.status, `${what}: server error`).toBeLessThan(500);
    const body = await response.text();
    expect(body, `${what}: stack trace in the answer`).not.toMatch(STACK_TRACE);
  }

  const paramCount = (pattern: string) => (pattern.match(/:[a-zA-Z]+|\*$/g) ?? []).length;

  for (const route of routes) {
    it(`GET ${route.pattern}: junk in the path and the query string`, async () => {
      const before = await fingerprint();
      await fc.assert(
        fc.asyncProperty(
          fc.array(param, {
            minLength: paramCount(route.pattern),
            maxLength: paramCount(route.pattern),
          }),
          fc.dictionary(fc.oneof(fc.constantFrom(...QUERY_KEYS), fc.string()), nasty, {
            maxKeys: 6,
          }),
          fc.constantFrom<Role>("anonymous", "customer", "admin"),
          fc.boolean(),
          async (values, query, role, asData) => {
            const path = fillPattern(route.pattern, values);
            const search = new URLSearchParams(query).toString();
            const target = asData ? dataUrl(path) : path;
            const url = `${target}${search ? `?${search}` : ""}`;
            const response = await fetchApp(url, { cookie: cookies[role] });
            await expectNoServerError(response, `GET ${url} as ${role}`);
          },
        ),
        { numRuns: 4, endOnFailure: true },
      );
      expect(await fingerprint(), `a GET of ${route.pattern} changed the database`).toEqual(before);
    });
  }

  for (const route of routes) {
    it(`POST ${route.pattern}: malformed forms`, async () => {
      const module = await routeModule(route.file);
      if (typeof module.action !== "function") return;
      const fields = FORM_FIELDS[route.pattern] ?? GENERIC_FIELDS;
      const role: Role = route.pattern.startsWith("/admin")
        ? "admin"
        : ["/login", "/register", "/contact", "/newsletter"].includes(route.pattern)
          ? "anonymous"
          : "customer";
      // One fingerprint per request: each refusal is compared with the state the last request left.
      let known = await fingerprint();
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.constantFrom(...fields, "extra", "__proto__", "constructor"), nasty, {
            maxKeys: fields.length + 2,
          }),
          encoding,
          fc.array(param, {
            minLength: paramCount(route.pattern),
            maxLength: paramCount(route.pattern),
          }),
          async (form, how, values) => {
            // /logout ends the session it is given: it gets one of its own each time.
            const cookie =
              route.pattern === "/logout"
                ? await login(customerEmail, "Buyer-pw-8842")
                : cookies[role];
            const path = fillPattern(route.pattern, values);
            const { body, headers } = encode(form, how);
            const response = await fetchApp(path, { method: "POST", cookie, body, headers });
            const what = `POST ${path} (${how}) ${JSON.stringify(form).slice(0, 300)} as ${role}`;
            const location = response.headers.get("location") ?? "";
            await expectNoServerError(response, what);
            const now = await fingerprint();
            if (response.status >= 400 || location.startsWith("/login?"))
              expect(now, `${what} was refused but changed the database`).toEqual(known);
            known = now;
          },
        ),
        { numRuns: 12, endOnFailure: true },
      );
    });
  }

  it("refuses an oversized body without a server error", async () => {
    const huge = "x".repeat(2_000_000);
    const before = await fingerprint();
    for (const [path, role] of [
      ["/contact", "anonymous"],
      ["/order", "customer"],
      ["/admin/announcements", "admin"],
    ] as const) {
      const response = await fetchApp(path, {
        method: "POST",
        cookie: cookies[role],
        body: new URLSearchParams({ name: huge, message: huge, title: huge }).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      await expectNoServerError(response, `2 MB POST ${path}`);
      expect(response.status, path).toBeGreaterThanOrEqual(400);
    }
    expect(await fingerprint()).toEqual(before);
  });
});
