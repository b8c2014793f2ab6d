import { existsSync, readFileSync } from "node:fs";
import { symmetricEncrypt } from "better-auth/crypto";
import { sql } from "kysely";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { sqliteFilePath } from "~/db/database.server";
import { approveOrder } from "~/domain/orders/orders.server";
import {
  panelClientApiFor,
  PanelClientKeyMissing,
  PanelKeyNotForUrl,
  runPanelCheck,
} from "~/domain/provisioning/panel-connection.server";
import { appFetch, type AppFetch } from "../support/app-harness";
import { signedInCookie } from "../support/account-fixtures";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import { adminId, customerWithCoins, placedOrder, productId } from "../support/money-fixtures";
import { allowLocalPanel } from "../support/panel-snapshot";
import { latestRow } from "../support/read-column";
import { describeEachDatabase, TEST_ADMIN } from "../support/test-database";

/**
 * The game panel's pages as people reach them: /admin/settings/game-panel (save, refuse, the
 * key never shown nor stored in clear, Check connection), a service's panel page, and what a customer's
 * dashboard shows of a provisioned service.
 */
describeEachDatabase("game panel pages", (app, dialect) => {
  let fetchApp: AppFetch;
  let adminCookie: string;
  let panel: FakePanel;
  beforeAll(async () => {
    fetchApp = appFetch(app());
    adminCookie = await signedInCookie(app(), TEST_ADMIN, { ip: "10.62.0.1" });
    panel = await startFakePanel();
    // The fake panel is on 127.0.0.1.
    await allowLocalPanel(app());
  });
  afterAll(async () => {
    await panel.close();
  });
  afterEach(async () => {
    await app().db.deleteFrom("jobs").where("type", "like", "provisioning.%").execute();
  });

  const save = (fields: Record<string, string>) =>
    fetchApp("/admin/settings/game-panel", {
      cookie: adminCookie,
      form: { intent: "save", ...fields },
    });

  it("refuses what is not a panel's address or key, keeping what was typed but the key", async () => {
    for (const [fields, text] of [
      [
        { url: "ftp://panel.example.com", apiKey: "ptla_abcdefghijklmnop" },
        "starting with https://",
      ],
      [{ url: "https://user:pw@panel.example.com", apiKey: "" }, "starting with https://"],
      [{ url: "https://panel.example.com", apiKey: "not a key" }, "starts with ptla_"],
      [
        {
          url: "https://panel.example.com",
          apiKey: "ptla_abcdefghijklmnop",
          "location.Frankfurt": "x",
        },
        "Choose one of the panel&#x27;s locations",
      ],
    ] as const) {
      const refused = await save(fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      const html = await refused.text();
      expect(html).toContain(text);
      if (fields.apiKey) expect(html).not.toContain(fields.apiKey);
    }
    // No key saved yet, and none typed: the key is asked for.
    const noKey = await save({ url: "https://panel.example.com", apiKey: "" });
    expect(noKey.status).toBe(400);
    expect(await noKey.text()).toContain("Enter the panel&#x27;s Application API key");
  });

  it("saves the connection, shows only the key's last four, and keeps it encrypted", async () => {
    const saved = await save({
      url: `${panel.url}/`,
      apiKey: panel.apiKey,
      "location.Frankfurt": "1",
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain("Game panel saved.");
    const page = await fetchApp("/admin/settings/game-panel", { cookie: adminCookie });
    const html = await page.text();
    expect(html).toContain(`A key ending in ${panel.apiKey.slice(-4)} is saved.`);
    expect(html).not.toContain(panel.apiKey);
    // Saved again without a key: the key stays.
    expect((await save({ url: panel.url, apiKey: "", "location.Frankfurt": "1" })).status).toBe(
      200,
    );
    const row = await app()
      .db.selectFrom("panel_connections")
      .select(["url", "api_key_last4", "location_map"])
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      url: panel.url,
      api_key_last4: panel.apiKey.slice(-4),
      location_map: JSON.stringify({ Frankfurt: [1] }),
    });

    // The stored bytes never hold the key: the file (SQLite) or every row (PostgreSQL).
    let stored: string;
    if (dialect === "sqlite") {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(app().db);
      const file = sqliteFilePath(app().env.DATABASE_URL);
      stored = readFileSync(file).toString("latin1");
      if (existsSync(`${file}-wal`)) stored += readFileSync(`${file}-wal`).toString("latin1");
    } else {
      const rows = await sql<{ row: string }>`
        select row_to_json(t)::text as row from panel_connections t
        union all select row_to_json(a)::text from audit_log a`.execute(app().db);
      stored = rows.rows.map((each) => each.row).join("\n");
    }
    // The check reads what it means to: the address is there in clear.
    expect(stored).toContain(panel.url);
    expect(stored).not.toContain(panel.apiKey);
    expect(stored).not.toContain(panel.apiKey.slice(5));
  });

  it("checks the connection in a job and shows what the panel has", async () => {
    expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    const asked = await fetchApp("/admin/settings/game-panel", {
      cookie: adminCookie,
      form: { intent: "check" },
    });
    expect(asked.status).toBe(200);
    expect(await asked.text()).toContain("Checking the panel");
    const job = await app()
      .db.selectFrom("jobs")
      .select("type")
      .where("type", "=", "provisioning.check")
      .executeTakeFirst();
    expect(job).toBeDefined();
    // What the job does (the worker's own tests run it through the worker).
    await runPanelCheck(app().db, { secret: app().env.AUTH_SECRET }, new Date());
    const html = await (
      await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
    ).text();
    expect(html).toContain("de-fsn-1");
    expect(html).toContain("Multi Theft Auto");
    expect(html).not.toContain("Checking the panel");
    // A wrong key: the check says so.
    await app()
      .db.updateTable("panel_connections")
      .set({ url: `${panel.url}/nowhere` })
      .execute();
    await save({ url: panel.url, apiKey: "ptla_wrongwrongwrongwrong" });
    await runPanelCheck(app().db, { secret: app().env.AUTH_SECRET }, new Date());
    const refused = await (
      await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
    ).text();
    expect(refused).toContain("The panel refused the key.");
  });

  const savedRow = () =>
    app()
      .db.selectFrom("panel_connections")
      .select(["url", "api_key_encrypted", "api_key_last4", "updated_at"])
      .executeTakeFirstOrThrow();

  it("refuses a new address without its key typed again, and keeps the saved key", async () => {
    expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    const before = await savedRow();
    const page = await (
      await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
    ).text();
    expect(page).toContain("It is only ever sent to the address it was saved with");
    for (const url of [
      "https://attacker.example.test",
      `${panel.url}/elsewhere`,
      panel.url.replace("http://", "https://"),
      panel.url.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`),
    ]) {
      const refused = await save({ url, apiKey: "" });
      expect(refused.status, url).toBe(400);
      expect(await refused.text()).toContain(
        "The address changed: type the panel&#x27;s key again.",
      );
      expect(await savedRow()).toEqual(before);
    }
    // Another spelling of the same address keeps the key; the new address with its key is saved.
    expect((await save({ url: `${panel.url.toUpperCase()}//`, apiKey: "" })).status).toBe(200);
    expect((await savedRow()).api_key_encrypted).toBe(before.api_key_encrypted);
    expect(
      (await save({ url: `${panel.url}/elsewhere`, apiKey: "ptla_anotherkey1234" })).status,
    ).toBe(200);
    expect(await savedRow()).toMatchObject({
      url: `${panel.url}/elsewhere`,
      api_key_last4: "1234",
    });
  });

  it("refuses a panel on the local network unless the setting allows it", async () => {
    await allowLocalPanel(app(), false);
    try {
      for (const url of [
        panel.url,
        "http://localhost:4400",
        "http://2130706433",
        "http://[::ffff:127.0.0.1]",
        "http://[fe80::1]",
        "http://10.0.0.1",
        "http://100.64.0.1",
        "http://169.254.169.254",
      ]) {
        const refused = await save({ url, apiKey: panel.apiKey });
        expect(refused.status, url).toBe(400);
        expect(await refused.text()).toContain("This address is on the local network");
      }
      // A fragment or a query, even empty, is no panel's address whatever the setting.
      for (const url of ["https://panel.example.test/#", "https://panel.example.test/?"])
        expect(await (await save({ url, apiKey: panel.apiKey })).text()).toContain(
          "without a user name, ? or #",
        );
      const page = await (
        await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
      ).text();
      expect(page).toContain("Allow a game panel on the local network");
      expect(page).not.toMatch(/name="allowLocalNetwork"[^>]*checked/);
      const allowed = await fetchApp("/admin/settings/game-panel", {
        cookie: adminCookie,
        form: { intent: "network", allowLocalNetwork: "on" },
      });
      expect(allowed.status).toBe(200);
      expect(await allowed.text()).toContain("The local network setting is saved.");
      expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    } finally {
      await allowLocalPanel(app());
    }
  });

  it("sends the key to no address but the one it was saved with, whatever changed the row", async () => {
    const other = await startFakePanel({ apiKey: panel.apiKey });
    try {
      expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
      const asked = panel.requests.length;
      const check = async () => {
        await runPanelCheck(app().db, { secret: app().env.AUTH_SECRET }, new Date());
        return (
          await app()
            .db.selectFrom("panel_connections")
            .select("check_error")
            .executeTakeFirstOrThrow()
        ).check_error;
      };
      // The row's address changed by hand (or by anything but a save with the key).
      await app().db.updateTable("panel_connections").set({ url: other.url }).execute();
      expect(await check()).toBe("provisioning.errors.keyNotForUrl");
      const html = await (
        await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
      ).text();
      expect(html).toContain("The saved key was not saved for this address");
      // A key saved on its own, as before keys were bound to their address: not sent anywhere.
      await app()
        .db.updateTable("panel_connections")
        .set({
          url: panel.url,
          api_key_encrypted: await symmetricEncrypt({
            key: app().env.AUTH_SECRET,
            data: panel.apiKey,
          }),
        })
        .execute();
      expect(await check()).toBe("provisioning.errors.keyNotForUrl");
      expect(other.requests).toEqual([]);
      expect(panel.requests.length).toBe(asked);
      // Saved again with its key, it is the panel's again.
      expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
      expect(await check()).toBeNull();
      expect(other.requests).toEqual([]);
    } finally {
      await other.close();
    }
  });

  const clientKey = "ptlc_clientkeyofarootadmin9876";
  const clientRow = () =>
    app()
      .db.selectFrom("panel_connections")
      .select(["url", "api_key_encrypted", "client_key_encrypted", "client_key_last4"])
      .executeTakeFirstOrThrow();

  it("saves an optional client key beside the application key, never shows it, and keeps it encrypted", async () => {
    await app().db.deleteFrom("panel_connections").execute();
    const refused = await save({
      url: panel.url,
      apiKey: panel.apiKey,
      clientKey: "ptla_notaclientkey",
    });
    expect(refused.status).toBe(400);
    const refusedHtml = await refused.text();
    expect(refusedHtml).toContain("A Client API key starts with ptlc_ and has no spaces.");
    expect(refusedHtml).not.toContain("ptla_notaclientkey");
    // Optional: saved without one, the page says what it is for and no key is kept.
    expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    expect(await clientRow()).toMatchObject({ client_key_encrypted: null, client_key_last4: null });
    const without = await (
      await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
    ).text();
    expect(without).toContain("Client API key (optional)");
    expect(without).not.toContain("Remove the client key");
    await expect(panelClientApiFor(app().db, app().env.AUTH_SECRET)).rejects.toBeInstanceOf(
      PanelClientKeyMissing,
    );

    expect((await save({ url: panel.url, apiKey: "", clientKey })).status).toBe(200);
    const html = await (
      await fetchApp("/admin/settings/game-panel", { cookie: adminCookie })
    ).text();
    expect(html).toContain("A client key ending in 9876 is saved.");
    expect(html).toContain("Remove the client key");
    expect(html).not.toContain(clientKey);
    const saved = await clientRow();
    expect(saved.client_key_last4).toBe("9876");
    expect(saved.client_key_encrypted).not.toContain(clientKey.slice(5));
    // The audit names the last four, never the key.
    const audit = await latestRow(app().db, "audit_log", ["before", "after"], {
      action: "panel.connection.save",
    });
    expect(JSON.parse(audit.after!)).toMatchObject({ clientKeyLast4: "9876" });
    expect(JSON.stringify(audit)).not.toContain(clientKey.slice(5));
    // A blank field keeps it; the application key typed again keeps it too.
    expect((await save({ url: panel.url, apiKey: "", clientKey: "" })).status).toBe(200);
    expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    expect((await clientRow()).client_key_encrypted).toBe(saved.client_key_encrypted);
    expect(await panelClientApiFor(app().db, app().env.AUTH_SECRET)).toBeDefined();

    // The stored bytes never hold it (SQLite's file, PostgreSQL's rows).
    let stored: string;
    if (dialect === "sqlite") {
      await sql`pragma wal_checkpoint(TRUNCATE)`.execute(app().db);
      const file = sqliteFilePath(app().env.DATABASE_URL);
      stored = readFileSync(file).toString("latin1");
      if (existsSync(`${file}-wal`)) stored += readFileSync(`${file}-wal`).toString("latin1");
    } else {
      const rows = await sql<{ row: string }>`
        select row_to_json(t)::text as row from panel_connections t
        union all select row_to_json(a)::text from audit_log a`.execute(app().db);
      stored = rows.rows.map((each) => each.row).join("\n");
    }
    expect(stored).toContain(panel.url);
    expect(stored).not.toContain(clientKey.slice(5));
  });

  it("refuses a new address without the client key typed again, and sends it to no other address", async () => {
    await app().db.deleteFrom("panel_connections").execute();
    expect((await save({ url: panel.url, apiKey: panel.apiKey, clientKey })).status).toBe(200);
    const before = await clientRow();
    // The application key typed again is not enough: the client key is bound to the old address too.
    const refused = await save({ url: `${panel.url}/elsewhere`, apiKey: panel.apiKey });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("The address changed: type the client key again");
    expect(await clientRow()).toEqual(before);
    // The row's address changed by hand: the client key is not for it.
    await app()
      .db.updateTable("panel_connections")
      .set({ url: `${panel.url}/elsewhere` })
      .execute();
    await expect(panelClientApiFor(app().db, app().env.AUTH_SECRET)).rejects.toBeInstanceOf(
      PanelKeyNotForUrl,
    );
    // Both typed again for the new address: saved.
    expect(
      (
        await save({
          url: `${panel.url}/elsewhere`,
          apiKey: panel.apiKey,
          clientKey: "ptlc_anotherclientkey1234",
        })
      ).status,
    ).toBe(200);
    expect(await clientRow()).toMatchObject({ client_key_last4: "1234" });
    expect(await panelClientApiFor(app().db, app().env.AUTH_SECRET)).toBeDefined();
  });

  it("removes the client key, audited, and lets the address move without it afterwards", async () => {
    await app().db.deleteFrom("panel_connections").execute();
    const remove = () =>
      fetchApp("/admin/settings/game-panel", {
        cookie: adminCookie,
        form: { intent: "removeClientKey" },
      });
    // No panel yet: nothing to remove it from.
    expect((await remove()).status).toBe(400);
    expect((await save({ url: panel.url, apiKey: panel.apiKey, clientKey })).status).toBe(200);
    const removed = await remove();
    expect(removed.status).toBe(200);
    const html = await removed.text();
    expect(html).toContain("The client key is removed.");
    expect(html).not.toContain("A client key ending in");
    expect(await clientRow()).toMatchObject({ client_key_encrypted: null, client_key_last4: null });
    const audit = await latestRow(app().db, "audit_log", ["before", "after"], {
      action: "panel.connection.save",
    });
    expect(JSON.parse(audit.before!)).toMatchObject({ clientKeyLast4: "9876" });
    expect(JSON.parse(audit.after!)).toMatchObject({ clientKeyLast4: null });
    await expect(panelClientApiFor(app().db, app().env.AUTH_SECRET)).rejects.toBeInstanceOf(
      PanelClientKeyMissing,
    );
    // Again: nothing to remove, nothing changes.
    expect(await (await remove()).text()).toContain("No client key was saved: nothing changed.");
    // Without a client key, a new address needs only the application key.
    expect((await save({ url: `${panel.url}/elsewhere`, apiKey: panel.apiKey })).status).toBe(200);
  });

  it("answers 404 for no service, tells a manual one, and refuses a Retry out of turn", async () => {
    expect((await fetchApp("/admin/services/999999/panel", { cookie: adminCookie })).status).toBe(
      404,
    );
    expect((await fetchApp("/admin/services/abc/panel", { cookie: adminCookie })).status).toBe(404);
    // A service of a product set up by hand has no panel side: the page says so, and Retry is refused.
    const user = await customerWithCoins(app(), 100_000);
    const placed = await placedOrder(app(), user, {
      productId: await productId(app(), "vps-entry"),
    });
    const approved = await approveOrder(app().db, {
      orderId: placed.id,
      actorId: await adminId(app()),
    });
    if (!approved.ok) throw new Error(approved.error);
    const id = approved.order.hostingServiceId!;
    const manual = await fetchApp(`/admin/services/${id}/panel`, { cookie: adminCookie });
    expect(manual.status).toBe(200);
    expect(await manual.text()).toContain("Set up by hand");
    const notNow = await fetchApp(`/admin/services/${id}/panel`, {
      cookie: adminCookie,
      form: { intent: "retry" },
    });
    expect(notNow.status).toBe(409);
    // One on the panel, ready: Retry is not for it, Re-link needs a server.
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_state: "ready", panel_server_id: 7, panel_identifier: "abcd1234" })
      .where("id", "=", id)
      .execute();
    const page = await fetchApp(`/admin/services/${id}/panel`, { cookie: adminCookie });
    expect(page.status).toBe(200);
    const retry = await fetchApp(`/admin/services/${id}/panel`, {
      cookie: adminCookie,
      form: { intent: "retry" },
    });
    expect(retry.status).toBe(409);
    expect(await retry.text()).toContain("This cannot be done while the service is in this state.");
    const relink = await fetchApp(`/admin/services/${id}/panel`, {
      cookie: adminCookie,
      form: { intent: "relink", server: "" },
    });
    expect(relink.status).toBe(400);
    expect(await relink.text()).toContain("Enter the panel server&#x27;s id");
    // A customer is not an admin.
    const customerCookie = await signedInCookie(
      app(),
      { email: (await emailOf(user))!, password: "Buyer-pw-8842" },
      { ip: "10.62.0.2" },
    );
    const denied = await fetchApp(`/admin/services/${id}/panel`, { cookie: customerCookie });
    expect([302, 403, 404]).toContain(denied.status);
  });

  it("shows the customer their server's address and the panel link once it is ready", async () => {
    expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    const user = await customerWithCoins(app(), 100_000);
    const placed = await placedOrder(app(), user, {
      productId: await productId(app(), "vps-entry"),
    });
    const approved = await approveOrder(app().db, {
      orderId: placed.id,
      actorId: await adminId(app()),
    });
    if (!approved.ok) throw new Error(approved.error);
    const id = approved.order.hostingServiceId!;
    const cookie = await signedInCookie(
      app(),
      { email: (await emailOf(user))!, password: "Buyer-pw-8842" },
      { ip: "10.62.0.3" },
    );
    await app()
      .db.updateTable("hosting_services")
      .set({ panel_state: "installing" })
      .where("id", "=", id)
      .execute();
    expect(await (await fetchApp("/dashboard/services", { cookie })).text()).toContain(
      "Setting up your server",
    );
    await app()
      .db.updateTable("hosting_services")
      .set({
        panel_state: "ready",
        panel_identifier: "abcd1234",
        panel_address: "10.0.1.10:22003",
        panel_ports: JSON.stringify({ game: 22003, announce: 22126, http: 22004 }),
      })
      .where("id", "=", id)
      .execute();
    const html = await (await fetchApp("/dashboard/services", { cookie })).text();
    expect(html).toContain("10.0.1.10:22003");
    expect(html).toContain("22126");
    expect(html).toContain(`href="${panel.url}/server/abcd1234"`);
    expect(html).toContain("Open game panel");
    // The panel is another site, opened in a new tab; the card says what the "ready" mail says.
    expect(html).toMatch(
      new RegExp(
        `<a [^>]*href="${panel.url}/server/abcd1234" target="_blank" rel="noopener noreferrer"`,
      ),
    );
    expect(html).toContain(
      "The first time, choose your password with the link the panel emailed you",
    );
    expect(html).toContain("are on its Startup page in the game panel.");
    // The footer's "Game Panel" goes to the connected panel, not the placeholder of the links setting.
    expect(html).toMatch(gamePanelLink(panel.url));
    expect(html).not.toMatch(gamePanelLink("https://panel.hostfront.example"));
  });

  /** The footer's game-panel link to `url`. */
  const gamePanelLink = (url: string) =>
    new RegExp(`<a [^>]*href="${url.replace(/[.]/g, "\\.")}" [^>]*>Game Panel</a>`);

  it("points the footer's game-panel link at the panel the admin connects", async () => {
    await app().db.deleteFrom("panel_connections").execute();
    app().settings.invalidate();
    // No panel connected: the link the links setting holds.
    const before = await (await fetchApp("/about")).text();
    expect(before).toMatch(gamePanelLink("https://panel.hostfront.example"));
    // Saving the connection moves it at once, for visitors' pages too.
    expect((await save({ url: panel.url, apiKey: panel.apiKey })).status).toBe(200);
    const after = await (await fetchApp("/about")).text();
    expect(after).toMatch(gamePanelLink(panel.url));
    expect(after).not.toMatch(gamePanelLink("https://panel.hostfront.example"));
  });

  async function emailOf(userId: string) {
    return (
      await app().db.selectFrom("users").select("email").where("id", "=", userId).executeTakeFirst()
    )?.email;
  }
});
