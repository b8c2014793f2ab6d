import { afterAll, beforeAll, expect, it } from "vitest";
import { savePanelConnection } from "~/domain/provisioning/panel-connection.server";
import { statusJobKey } from "~/domain/servers/server-job-types";
import { appFetch, type AppFetch } from "../support/app-harness";
import { signedInCookie } from "../support/account-fixtures";
import { startFakePanel, type FakePanel } from "../support/fake-pterodactyl";
import { adminId, customerWithRunningService } from "../support/money-fixtures";
import { allowLocalPanel } from "../support/panel-snapshot";
import { readRows } from "../support/read-column";
import { describeEachDatabase } from "../support/test-database";

/**
 * A slow panel never slows a page (ADR 56): with the game panel taking 10 s over every request, a
 * customer's services tab, their server's page and its refresh answer from the cache, the last known
 * state with its age, and leave the fresh read to the worker (a job queued, no request sent by the page).
 * Were a page to call the panel, its answer would wait the 10 s and the panel would have the request.
 */
/** The pages' clock, injected: the state was last read two minutes before it. */
const NOW = new Date("2031-03-12T12:00:00.000Z");

describeEachDatabase(
  "a server's pages while the panel is slow",
  (app) => {
    let fetchApp: AppFetch;
    let panel: FakePanel;
    const secret = () => app().env.AUTH_SECRET;

    beforeAll(async () => {
      fetchApp = appFetch(app());
      panel = await startFakePanel({ answerDelayMs: 10_000 });
      await allowLocalPanel(app());
      await app().db.deleteFrom("panel_connections").execute();
      const saved = await savePanelConnection(
        app().db,
        {
          url: panel.url,
          apiKey: panel.apiKey,
          clientKey: panel.clientApiKey,
          locationMap: {},
          actorId: await adminId(app()),
        },
        { secret: secret() },
      );
      expect(saved.ok).toBe(true);
    });
    afterAll(async () => {
      await app().db.deleteFrom("panel_connections").execute();
      await panel.close();
    });

    it("shows the last known state with its age, and asks the worker, not the panel", async () => {
      const { user, serviceId } = await customerWithRunningService(app(), 100_000);
      const read = new Date(NOW.getTime() - 2 * 60_000).toISOString();
      await app()
        .db.updateTable("hosting_services")
        .set({
          panel_state: "ready",
          panel_server_id: 1,
          panel_identifier: "a1b2c3d4",
          panel_address: "127.0.0.1:7777",
          panel_ports: JSON.stringify({ game: 7777 }),
        })
        .where("id", "=", serviceId)
        .execute();
      await app()
        .db.insertInto("server_status")
        .values({
          hosting_service_id: serviceId,
          state: "running",
          cpu_tenths: 125,
          memory_mib: 512,
          disk_mib: 900,
          uptime_seconds: 3_600,
          read_at: read,
          game_name: "Slow Panel RP",
          players_online: 4,
          players_max: 50,
          players_read_at: read,
          access: JSON.stringify({ host: "127.0.0.1", port: 2022, username: "buyer.a1b2c3d4" }),
          variables: "[]",
          updated_at: read,
        })
        .execute();
      const email = await app()
        .db.selectFrom("users")
        .select("email")
        .where("id", "=", user)
        .executeTakeFirstOrThrow();
      const cookie = await signedInCookie(
        app(),
        { email: email.email, password: "Buyer-pw-8842" },
        { ip: "10.64.0.1" },
      );

      const tab = await fetchApp("/dashboard/services", { cookie });
      expect(tab.status).toBe(200);
      expect(await tab.text()).toContain(`/dashboard/services/${serviceId}`);

      const page = await fetchApp(`/dashboard/services/${serviceId}`, { cookie });
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain("Running");
      expect(html).toContain("Updated 2 min ago");
      expect(html).toContain("Slow Panel RP");
      expect(html).toMatch(/>4(<!-- -->)? \/ (<!-- -->)?50</);

      const status = await fetchApp(`/dashboard/services/${serviceId}/status`, { cookie });
      expect(status.status).toBe(200);
      const json = (await status.json()) as {
        state: string;
        ageSeconds: number;
        refreshing: boolean;
      };
      expect(json.state).toBe("running");
      expect(json.ageSeconds).toBe(120);
      // The fresh read is the worker's: one job queued, and not one request reached the panel.
      expect(json.refreshing).toBe(true);
      expect(
        await readRows(app().db, "jobs", ["state"], { unique_key: statusJobKey(serviceId) }),
      ).toHaveLength(1);
      expect(panel.requests).toHaveLength(0);
    });
  },
  { clock: () => NOW },
);
