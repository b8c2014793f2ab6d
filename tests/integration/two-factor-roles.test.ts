import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import { ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import { findUserIdByEmail, provisionAdmin } from "~/domain/accounts/accounts.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import type { StaffRole } from "~/domain/staff/permissions";
import * as dashboardRoute from "~/routes/admin/dashboard";
import * as settingsRoute from "~/routes/admin/settings";
import * as ticketRoute from "~/routes/admin/ticket";
import * as ticketsRoute from "~/routes/admin/tickets";
import { signedInCookie } from "../support/account-fixtures";
import { appFetch } from "../support/app-harness";
import { contextFor, postAction, routeArgs, settle } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

// Two-factor sign-in required per staff role: the admin guard sends a member of a required role who has
// no second factor to set one up, and lets every other member through; the settings page's form of the
// roles and the coin caps refuses what is not a role or a whole number of coins, saving nothing.

const PASSWORD = "Two-factor-roles-pw-61";
let addresses = 0;
const nextIp = () => `10.78.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

/** A signed-in member of the staff in `role`, without two-factor sign-in. */
async function member(app: AppServices, role: StaffRole) {
  const email = `tfr-${role}-${randomUUID().slice(0, 8)}@example.com`;
  await provisionAdmin(app, { email, password: PASSWORD });
  const id = (await findUserIdByEmail(app.db, email))!;
  await app.db.updateTable("users").set({ staff_role: role }).where("id", "=", id).execute();
  const cookie = await signedInCookie(app, { email, password: PASSWORD }, { ip: nextIp() });
  return { id, email, cookie };
}

async function requireTwoFactorOf(app: AppServices, twoFactorRoles: StaffRole[]) {
  await saveSettingsForm(app, {
    intent: "security",
    ...(await app.settings.get()).security,
    twoFactorRoles,
    actorId: (await findUserIdByEmail(app.db, TEST_ADMIN.email))!,
  });
}

/** What a member's visit to an admin page answers: "setup" when sent to set up two-factor, else "page". */
async function visit(app: AppServices, cookie: string, route: { loader: unknown }, path: string) {
  const answer = await settle(async () =>
    (route.loader as (args: unknown) => unknown)(
      routeArgs({
        request: new Request(`http://localhost${path}`, { headers: { cookie } }),
        context: await contextFor(app, { cookie }),
      }),
    ),
  );
  if (answer instanceof Response && answer.status === 302) {
    expect(answer.headers.get("location")).toBe(ADMIN_TWO_FACTOR_SETUP_PATH);
    return "setup";
  }
  expect(answer, path).toMatchObject({ meta: { title: expect.any(String) } });
  return "page";
}

describeEachDatabase("two-factor sign-in required per staff role", (app) => {
  it("sends a member to set it up only while their own role is required", async () => {
    const support = await member(app(), "support");
    const owner = await member(app(), "owner");
    const billing = await member(app(), "billing");
    const technician = await member(app(), "technician");
    // What each member's dashboard answers, for each list of required roles.
    const cases: [StaffRole[], Record<string, "setup" | "page">][] = [
      [[], { support: "page", owner: "page", billing: "page", technician: "page" }],
      [["support"], { support: "setup", owner: "page", billing: "page", technician: "page" }],
      [["owner"], { support: "page", owner: "setup", billing: "page", technician: "page" }],
      [
        ["owner", "billing"],
        { support: "page", owner: "setup", billing: "setup", technician: "page" },
      ],
      [
        ["owner", "billing", "support", "technician"],
        { support: "setup", owner: "setup", billing: "setup", technician: "setup" },
      ],
    ];
    try {
      for (const [roles, expected] of cases) {
        await requireTwoFactorOf(app(), roles);
        const seen: Record<string, string> = {};
        for (const [name, who] of Object.entries({ support, owner, billing, technician }))
          seen[name] = await visit(app(), who.cookie, dashboardRoute, "/admin");
        expect(seen, roles.join(",") || "none").toEqual(expected);
      }

      // Support's own page too, and its posts: sent away while Support is required, not before.
      await requireTwoFactorOf(app(), ["owner", "billing"]);
      expect(await visit(app(), support.cookie, ticketsRoute, "/admin/tickets")).toBe("page");
      await requireTwoFactorOf(app(), ["support"]);
      expect(await visit(app(), support.cookie, ticketsRoute, "/admin/tickets")).toBe("setup");
      const post = await postAction(
        app(),
        ticketRoute,
        "/admin/tickets/1",
        { intent: "reply", body: "Hello" },
        { cookie: support.cookie, params: { id: "1" } },
      );
      expect(post).toBeInstanceOf(Response);
      expect((post as Response).headers.get("location")).toBe(ADMIN_TWO_FACTOR_SETUP_PATH);

      // With a second factor the member passes whatever is required.
      await app()
        .db.updateTable("users")
        .set({ two_factor_enabled: sql<boolean>`true` })
        .where("id", "=", support.id)
        .execute();
      expect(await visit(app(), support.cookie, ticketsRoute, "/admin/tickets")).toBe("page");
      expect(await visit(app(), support.cookie, dashboardRoute, "/admin")).toBe("page");
    } finally {
      await requireTwoFactorOf(app(), []);
    }
  });
});

describeEachDatabase("the sign-in security form on /admin/settings", (app) => {
  const VALID = {
    intent: "security",
    billingCoinCap: "500",
    supportDailyCoinCap: "20",
    freshProofCoinThreshold: "100",
  };
  const securityAudits = async () =>
    (
      await app()
        .db.selectFrom("audit_log")
        .select("id")
        .where("action", "=", "settings.update")
        .where("target_id", "=", "security")
        .execute()
    ).length;

  it("refuses a role that does not exist and caps that are not whole numbers of coins, with a message, saving nothing", async () => {
    const cookie = await signedInCookie(app(), TEST_ADMIN, { ip: nextIp() });
    const before = (await app().settings.get()).security;
    const audits = await securityAudits();
    const cases: [Record<string, string>, string, string][] = [
      [
        { "twoFactorRole-owner": "on", "twoFactorRole-janitor": "on" },
        "twoFactorRoles",
        "Tick only the roles listed: one of the roles sent does not exist.",
      ],
      [{ billingCoinCap: "-5" }, "billingCoinCap", "Enter a whole number of coins, 0 or more"],
      [{ supportDailyCoinCap: "1000001" }, "supportDailyCoinCap", "Enter at most 1,000,000 coins."],
      [
        { freshProofCoinThreshold: "99999999999999999999" },
        "freshProofCoinThreshold",
        "Enter at most 1,000,000 coins.",
      ],
      [{ billingCoinCap: "ten" }, "billingCoinCap", "Enter a whole number of coins, 0 or more"],
      [{ supportDailyCoinCap: "2.5" }, "supportDailyCoinCap", "Enter a whole number of coins"],
      [{ freshProofCoinThreshold: "" }, "freshProofCoinThreshold", "Enter a whole number of coins"],
    ];
    for (const [change, field, text] of cases) {
      const what = JSON.stringify(change);
      // The page as a browser without JavaScript gets it: 400, the message under its field.
      const response = await appFetch(app())("/admin/settings", {
        cookie,
        form: { ...VALID, "twoFactorRole-billing": "on", ...change },
      });
      expect(response.status, what).toBe(400);
      const html = await response.text();
      expect(html, what).toContain(`id="security-${field}-error"`);
      expect(html, what).toContain(text);
      // The route's answer: the field's message key, the form's own message.
      const answer = await postAction(
        app(),
        settingsRoute,
        "/admin/settings",
        { ...VALID, ...change },
        { cookie },
      );
      expect(answer, what).toMatchObject({
        data: { ok: false, form: "security", message: "admin-settings.saveFailed" },
        init: { status: 400 },
      });
      expect(Object.keys((answer as { data: { fieldErrors: object } }).data.fieldErrors)).toEqual([
        field,
      ]);
    }
    // A cap left out of the post is refused too.
    const withoutCap = {
      intent: "security",
      supportDailyCoinCap: "20",
      freshProofCoinThreshold: "100",
    };
    const missing = await appFetch(app())("/admin/settings", { cookie, form: withoutCap });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Enter a whole number of coins, 0 or more");

    expect((await app().settings.get()).security).toEqual(before);
    expect(await securityAudits()).toBe(audits);
  });

  it("saves the ticked roles and the caps, reading the list from the checkboxes alone", async () => {
    const cookie = await signedInCookie(app(), TEST_ADMIN, { ip: nextIp() });
    await app()
      .db.updateTable("users")
      .set({ two_factor_enabled: sql<boolean>`true` })
      .where("email", "=", TEST_ADMIN.email)
      .execute();
    try {
      // A field named like the list itself is no checkbox: it changes nothing.
      const crafted = await postAction(
        app(),
        settingsRoute,
        "/admin/settings",
        { ...VALID, twoFactorRoles: "owner" },
        { cookie },
      );
      expect(crafted).toMatchObject({ ok: true, message: "admin-settings.unchanged" });
      expect((await app().settings.get()).security.twoFactorRoles).toEqual([]);

      const saved = await postAction(
        app(),
        settingsRoute,
        "/admin/settings",
        {
          intent: "security",
          "twoFactorRole-technician": "on",
          "twoFactorRole-owner": "on",
          billingCoinCap: " 2500 ",
          supportDailyCoinCap: "0",
          freshProofCoinThreshold: "1000000",
        },
        { cookie },
      );
      expect(saved).toMatchObject({ ok: true, message: "admin-settings.saved" });
      expect((await app().settings.get()).security).toEqual({
        twoFactorRoles: ["owner", "technician"],
        billingCoinCap: 2500,
        supportDailyCoinCap: 0,
        freshProofCoinThreshold: 1_000_000,
      });
      const audit = await app()
        .db.selectFrom("audit_log")
        .select(["before", "after"])
        .where("action", "=", "settings.update")
        .where("target_id", "=", "security")
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(JSON.parse(audit.before!)).toEqual({
        twoFactorRoles: [],
        billingCoinCap: 500,
        supportDailyCoinCap: 20,
        freshProofCoinThreshold: 100,
      });
      expect(JSON.parse(audit.after!)).toEqual({
        twoFactorRoles: ["owner", "technician"],
        billingCoinCap: 2500,
        supportDailyCoinCap: 0,
        freshProofCoinThreshold: 1_000_000,
      });

      // The page shows what is stored: the ticked roles and the caps.
      const html = await (await appFetch(app())("/admin/settings", { cookie })).text();
      const box = (role: string) => {
        const input = new RegExp(`<input id="security-twoFactorRole-${role}"[^>]*>`).exec(html);
        expect(input?.[0], role).toContain(`name="twoFactorRole-${role}"`);
        return input![0].includes('checked=""');
      };
      expect(["owner", "billing", "support", "technician"].map(box)).toEqual([
        true,
        false,
        false,
        true,
      ]);
      expect(html).toMatch(/name="billingCoinCap"[^>]*value="2500"/);
      expect(html).toContain("Support: goodwill coins a day");
    } finally {
      await saveSettingsForm(app(), {
        intent: "security",
        twoFactorRoles: [],
        billingCoinCap: 500,
        supportDailyCoinCap: 20,
        freshProofCoinThreshold: 100,
        actorId: (await findUserIdByEmail(app().db, TEST_ADMIN.email))!,
      });
      await app()
        .db.updateTable("users")
        .set({ two_factor_enabled: sql<boolean>`false` })
        .where("email", "=", TEST_ADMIN.email)
        .execute();
    }
  });
});
