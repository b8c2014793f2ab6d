import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { expect, it } from "vitest";
import type { AppServices } from "~/context.server";
import { ADMIN_ACCOUNT_PATH, ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import {
  findUserIdByEmail,
  getCurrentSession,
  provisionAdmin,
} from "~/domain/accounts/accounts.server";
import { resetTwoFactor } from "~/domain/accounts/two-factor-reset.server";
import { saveSettingsForm } from "~/domain/settings/settings-form.server";
import * as accountRoute from "~/routes/admin/account";
import * as clientRoute from "~/routes/admin/client";
import * as layoutRoute from "~/routes/admin/layout";
import * as dashboardRoute from "~/routes/dashboard/account";
import * as logoutRoute from "~/routes/logout";
import * as settingsRoute from "~/routes/admin/settings";
import { registeredCustomer, signedInCookie } from "../support/account-fixtures";
import { trustDevice, trustedDevicesOf } from "../support/trusted-devices";
import { contextFor, postAction, routeArgs, settle } from "../support/request-context";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

type RouteModule = {
  loader?: (args: unknown) => unknown;
  action?: (args: unknown) => unknown;
};

// Every admin route module, as the admin guard's own test lists them: a new one is checked here too.
const adminModules = import.meta.glob<RouteModule>("/app/routes/admin/**/*.{ts,tsx}");

/**
 * Turns two-factor sign-in on for `userId` as the core's enable flow leaves it: a verified row in
 * two_factors (the plugin's encrypted secret and backup codes; any text here) and the account's flag.
 */
async function enableTwoFactor(app: AppServices, userId: string) {
  await app.db
    .insertInto("two_factors")
    .values({
      id: randomUUID(),
      user_id: userId,
      secret: "encrypted-secret-placeholder",
      backup_codes: "encrypted-backup-codes-placeholder",
      verified: sql<boolean>`true`,
    })
    .execute();
  await app.db
    .updateTable("users")
    .set({ two_factor_enabled: sql<boolean>`true` })
    .where("id", "=", userId)
    .execute();
}

/**
 * Requires two-factor sign-in of the Owner role (every admin these tests make is an Owner), or of no
 * role, as the settings page saves it; the coin caps stay as they are.
 */
async function requireTwoFactorOfOwners(app: AppServices, on: boolean) {
  const adminId = (await findUserIdByEmail(app.db, TEST_ADMIN.email))!;
  await saveSettingsForm(app, {
    intent: "security",
    ...(await app.settings.get()).security,
    twoFactorRoles: on ? ["owner"] : [],
    actorId: adminId,
  });
}

const ADMIN_PASSWORD = "Two-factor-admin-pw-73";
let addresses = 0;
const nextIp = () => `10.77.${Math.floor(addresses / 250)}.${(addresses++ % 250) + 1}`;

async function adminCookie(app: AppServices, options: { twoFactor: boolean }) {
  const email = `tfa-admin-${randomUUID().slice(0, 8)}@example.com`;
  const password = ADMIN_PASSWORD;
  await provisionAdmin(app, { email, password });
  const id = (await findUserIdByEmail(app.db, email))!;
  // Signed in first: the password alone opens a session while the account has no second factor.
  const cookie = await signedInCookie(app, { email, password }, { ip: nextIp() });
  if (options.twoFactor) await enableTwoFactor(app, id);
  return { id, email, cookie };
}

function expectSentToSetUp(answer: unknown, what: string) {
  expect(answer, what).toBeInstanceOf(Response);
  const response = answer as Response;
  expect(response.status, what).toBe(302);
  expect(response.headers.get("location"), what).toBe(ADMIN_TWO_FACTOR_SETUP_PATH);
  expect(response.headers.get("set-cookie"), what).toContain("twoFactorRequired");
}

describeEachDatabase("two-factor sign-in for admins", (app) => {
  it("tells the session whether the account has two-factor sign-in", async () => {
    const admin = await adminCookie(app(), { twoFactor: false });
    expect((await getCurrentSession(app(), admin.cookie))?.user.twoFactorEnabled).toBe(false);
    await enableTwoFactor(app(), admin.id);
    expect((await getCurrentSession(app(), admin.cookie))?.user.twoFactorEnabled).toBe(true);
  });

  it("sends an Owner without it to set it up from every admin loader and action while Owner is required", async () => {
    const without = await adminCookie(app(), { twoFactor: false });
    await requireTwoFactorOfOwners(app(), true);
    try {
      for (const [file, load] of Object.entries(adminModules)) {
        const module = await load();
        for (const name of ["loader", "action"] as const) {
          if (typeof module[name] !== "function") continue;
          const method = name === "loader" ? "GET" : "POST";
          const answer = await settle(async () =>
            module[name]!(
              routeArgs({
                request: new Request("http://localhost/admin/some-page", {
                  method,
                  headers: { cookie: without.cookie },
                  ...(method === "POST" ? { body: new URLSearchParams({ intent: "x" }) } : {}),
                }),
                context: await contextFor(app(), { cookie: without.cookie }),
                params: { id: without.id },
              }),
            ),
          );
          expectSentToSetUp(answer, `${file} ${name}`);
        }
      }
    } finally {
      await requireTwoFactorOfOwners(app(), false);
    }
  });

  it("keeps the account tab and signing out open to that admin, and lets admins with it through", async () => {
    const without = await adminCookie(app(), { twoFactor: false });
    const withIt = await adminCookie(app(), { twoFactor: true });
    await requireTwoFactorOfOwners(app(), true);
    try {
      const dashboard = await dashboardRoute.loader(
        routeArgs({
          request: new Request("http://localhost/dashboard/account"),
          context: await contextFor(app(), { cookie: without.cookie }),
        }),
      );
      expect(dashboard).toMatchObject({ view: { sessions: expect.any(Array) } });

      const admin = await adminModules["/app/routes/admin/dashboard.tsx"]!();
      const passed = await admin.loader!(
        routeArgs({
          request: new Request("http://localhost/admin"),
          context: await contextFor(app(), { cookie: withIt.cookie }),
        }),
      );
      expect(passed).toMatchObject({ email: withIt.email, twoFactorEnabled: true });

      const out = await postAction(app(), logoutRoute, "/logout", {}, { cookie: without.cookie });
      expect((out as Response).headers.get("location")).toBe("/");
      expect(await getCurrentSession(app(), without.cookie)).toBeNull();
    } finally {
      await requireTwoFactorOfOwners(app(), false);
    }
  });

  it("opens the admin's own page in the shell to that admin, where they set it up", async () => {
    const without = await adminCookie(app(), { twoFactor: false });
    await requireTwoFactorOfOwners(app(), true);
    try {
      const at = async (path: string) =>
        routeArgs({
          request: new Request(`http://localhost${path}`, { headers: { cookie: without.cookie } }),
          context: await contextFor(app(), { cookie: without.cookie }),
        });
      // The shell around it, and the page itself, answer; any other admin page still sends them there.
      expect(await layoutRoute.loader(await at(ADMIN_ACCOUNT_PATH))).toMatchObject({
        email: without.email,
      });
      expect(await accountRoute.loader(await at(ADMIN_ACCOUNT_PATH))).toMatchObject({
        twoFactor: { status: "off" },
      });
      expectSentToSetUp(
        await settle(async () => layoutRoute.loader(await at("/admin/orders"))),
        "another admin page",
      );
      expectSentToSetUp(
        await settle(async () => accountRoute.loader(await at("/admin/account-not"))),
        "a path that only starts like it",
      );
      // The card's forms post to the page: the password starts the set-up, with its own message.
      const missing = await postAction(
        app(),
        accountRoute,
        ADMIN_ACCOUNT_PATH,
        { intent: "two-factor-start", currentPassword: "" },
        { cookie: without.cookie },
      );
      expect(missing).toMatchObject({
        data: {
          ok: false,
          form: "two-factor",
          message: "dashboard.twoFactor.errors.passwordToStart",
        },
        init: { status: 400 },
      });
      const started = await postAction(
        app(),
        accountRoute,
        ADMIN_ACCOUNT_PATH,
        { intent: "two-factor-start", currentPassword: ADMIN_PASSWORD },
        { cookie: without.cookie, ip: nextIp() },
      );
      expect(started).toMatchObject({
        data: { ok: true, form: "two-factor", message: "dashboard.twoFactor.started" },
      });
      expect(await accountRoute.loader(await at(ADMIN_ACCOUNT_PATH))).toMatchObject({
        twoFactor: { status: "pending" },
      });
    } finally {
      await requireTwoFactorOfOwners(app(), false);
    }
  });

  it("lets an Owner without it through while no role is required, the dashboard asking them to set it up", async () => {
    const without = await adminCookie(app(), { twoFactor: false });
    const admin = await adminModules["/app/routes/admin/dashboard.tsx"]!();
    const passed = await admin.loader!(
      routeArgs({
        request: new Request("http://localhost/admin"),
        context: await contextFor(app(), { cookie: without.cookie }),
      }),
    );
    expect(passed).toMatchObject({ email: without.email, twoFactorEnabled: false });
  });

  it("saves the roles from /admin/settings, audited, and then sends the Owner who saved them without 2FA to set it up", async () => {
    const without = await adminCookie(app(), { twoFactor: false });
    const page = await settle(async () =>
      settingsRoute.loader(
        routeArgs({
          request: new Request("http://localhost/admin/settings"),
          context: await contextFor(app(), { cookie: without.cookie }),
        }),
      ),
    );
    expect(page).toMatchObject({
      settings: { security: { twoFactorRoles: [] } },
      adminTwoFactor: false,
    });
    try {
      // The form as the page sends it: a checkbox per ticked role, the caps as typed.
      const saved = await postAction(
        app(),
        settingsRoute,
        "/admin/settings",
        {
          intent: "security",
          "twoFactorRole-owner": "on",
          "twoFactorRole-billing": "on",
          billingCoinCap: "500",
          supportDailyCoinCap: "20",
          freshProofCoinThreshold: "100",
        },
        { cookie: without.cookie },
      );
      expect(saved).toMatchObject({ ok: true, form: "security", message: "admin-settings.saved" });
      expect((await app().settings.get()).security.twoFactorRoles).toEqual(["owner", "billing"]);
      const audit = await app()
        .db.selectFrom("audit_log")
        .select(["actor_id", "target_id", "before", "after"])
        .where("action", "=", "settings.update")
        .where("target_id", "=", "security")
        .orderBy("id", "desc")
        .executeTakeFirstOrThrow();
      expect(audit.actor_id).toBe(without.id);
      expect(JSON.parse(audit.before!)).toEqual({ twoFactorRoles: [] });
      expect(JSON.parse(audit.after!)).toEqual({ twoFactorRoles: ["owner", "billing"] });
      const next = await settle(async () =>
        settingsRoute.loader(
          routeArgs({
            request: new Request("http://localhost/admin/settings"),
            context: await contextFor(app(), { cookie: without.cookie }),
          }),
        ),
      );
      expectSentToSetUp(next, "the settings page after saving");
    } finally {
      await requireTwoFactorOfOwners(app(), false);
    }
    expect((await app().settings.get()).security.twoFactorRoles).toEqual([]);
  });

  it("resets another user's two-factor from the client page: gone, audited, mailed, trusted devices forgotten", async () => {
    const admin = await adminCookie(app(), { twoFactor: true });
    const email = `tfa-client-${randomUUID().slice(0, 8)}@example.com`;
    const userId = await registeredCustomer(app(), {
      name: "Two Factor Client",
      email,
      password: "Client-two-factor-pw-58",
    });
    await enableTwoFactor(app(), userId);
    await trustDevice(app().db, userId);
    // Another user's trusted device stays.
    await trustDevice(app().db, admin.id);

    const page = await clientRoute.loader(
      routeArgs({
        request: new Request(`http://localhost/admin/clients/${userId}`),
        context: await contextFor(app(), { cookie: admin.cookie }),
        params: { id: userId },
      }),
    );
    expect(page).toMatchObject({
      found: true,
      own: false,
      client: { profile: { twoFactorEnabled: true } },
    });

    const answer = await postAction(
      app(),
      clientRoute,
      `/admin/clients/${userId}`,
      { intent: "reset-two-factor" },
      { cookie: admin.cookie, params: { id: userId } },
    );
    expect(answer).toEqual({
      ok: true,
      form: "twoFactor",
      message: "admin-clients.twoFactor.resetDone",
    });
    const db = app().db;
    expect(
      await db.selectFrom("two_factors").select("id").where("user_id", "=", userId).execute(),
    ).toEqual([]);
    const user = await db
      .selectFrom("users")
      .select("two_factor_enabled")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
    expect(Boolean(user.two_factor_enabled)).toBe(false);
    expect(await trustedDevicesOf(db, userId)).toBe(0);
    expect(await trustedDevicesOf(db, admin.id)).toBe(1);

    const audit = await db
      .selectFrom("audit_log")
      .selectAll()
      .where("action", "=", "user.two_factor_reset")
      .where("target_id", "=", userId)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_id: admin.id, target_type: "user" });
    expect(JSON.parse(audit[0]!.before!)).toEqual({ twoFactorEnabled: true });
    expect(JSON.parse(audit[0]!.after!)).toEqual({ twoFactorEnabled: false, secretsRemoved: 1 });

    // Queued with the reset, in its transaction, and the worker's job to send it.
    const mail = await db
      .selectFrom("mail_outbox")
      .select(["id", "kind", "to_address", "state", "params"])
      .where("user_id", "=", userId)
      .execute();
    expect(mail).toEqual([
      expect.objectContaining({ kind: "twoFactorReset", to_address: email, state: "queued" }),
    ]);
    expect(Object.keys(JSON.parse(mail[0]!.params))).toEqual(["resetAt"]);
    const jobs = await db
      .selectFrom("jobs")
      .select("payload")
      .where("type", "=", "mail.send")
      .execute();
    expect(jobs.map((job) => JSON.parse(job.payload))).toContainEqual({
      outboxId: Number(mail[0]!.id),
    });

    // Once off, there is nothing to reset: refused, and nothing more is audited or mailed.
    const again = await postAction(
      app(),
      clientRoute,
      `/admin/clients/${userId}`,
      { intent: "reset-two-factor" },
      { cookie: admin.cookie, params: { id: userId } },
    );
    expect(again).toMatchObject({
      data: { ok: false, form: "twoFactor", message: "admin-clients.twoFactor.errors.notOn" },
      init: { status: 409 },
    });
    expect(
      await db.selectFrom("mail_outbox").select("id").where("user_id", "=", userId).execute(),
    ).toHaveLength(1);
  });

  it("refuses an admin resetting their own two-factor on the client page, changing nothing", async () => {
    const admin = await adminCookie(app(), { twoFactor: true });
    const page = await clientRoute.loader(
      routeArgs({
        request: new Request(`http://localhost/admin/clients/${admin.id}`),
        context: await contextFor(app(), { cookie: admin.cookie }),
        params: { id: admin.id },
      }),
    );
    expect(page).toMatchObject({ found: true, own: true });
    const answer = await postAction(
      app(),
      clientRoute,
      `/admin/clients/${admin.id}`,
      { intent: "reset-two-factor" },
      { cookie: admin.cookie, params: { id: admin.id } },
    );
    expect(answer).toMatchObject({
      data: { ok: false, message: "admin-clients.twoFactor.errors.own" },
      init: { status: 403 },
    });
    expect((await getCurrentSession(app(), admin.cookie))?.user.twoFactorEnabled).toBe(true);
    const rows = await app()
      .db.selectFrom("two_factors")
      .select("id")
      .where("user_id", "=", admin.id)
      .execute();
    expect(rows).toHaveLength(1);
    const audit = await app()
      .db.selectFrom("audit_log")
      .select("id")
      .where("action", "=", "user.two_factor_reset")
      .where("target_id", "=", admin.id)
      .execute();
    expect(audit).toEqual([]);
  });

  it("refuses an account that is not there, or deleted", async () => {
    const admin = await adminCookie(app(), { twoFactor: true });
    expect(await resetTwoFactor(app().db, { userId: "nobody-here", actorId: admin.id })).toEqual({
      ok: false,
      kind: "notFound",
      error: "admin-clients.errors.notFound",
    });
    const userId = await registeredCustomer(app(), {
      name: "Gone",
      email: `tfa-gone-${randomUUID().slice(0, 8)}@example.com`,
      password: "Client-two-factor-pw-58",
    });
    await enableTwoFactor(app(), userId);
    await app()
      .db.updateTable("users")
      .set({ status: "deleted" })
      .where("id", "=", userId)
      .execute();
    expect(await resetTwoFactor(app().db, { userId, actorId: admin.id })).toMatchObject({
      ok: false,
      kind: "conflict",
      error: "admin-clients.twoFactor.errors.deleted",
    });
  });
});
