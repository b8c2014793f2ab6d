import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { record, type DomainEvent } from "./events.server";

// Each of the game panel's events writes its reactions: the audit entries as the admin's actions wrote
// them, the customer's notice and mail of a server made ready.

describeEachDatabase("the game panel's events", (app) => {
  const recorded = (event: DomainEvent, now?: Date) =>
    inTransaction(app().db, (trx) => record(trx, event, now));
  const audited = (action: string, targetId: string) =>
    readRows(
      app().db,
      "audit_log",
      ["actor_id", "target_type", "before", "after", "reason"],
      { action, target_id: targetId },
      "id",
    );

  it("panel.connectionSaved: audits the address and the key's last four, the first save with nothing before", async () => {
    const admin = await adminId(app());
    const before = (await audited("panel.connection.save", "gamePanel")).length;
    await recorded({
      type: "panel.connectionSaved",
      actorId: admin,
      change: { before: null, after: { url: "https://panel.example", keyLast4: "abcd" } },
    });
    await recorded({
      type: "panel.connectionSaved",
      actorId: admin,
      change: {
        before: { url: "https://panel.example", keyLast4: "abcd" },
        after: { url: "https://panel.example", keyLast4: "wxyz" },
      },
    });
    expect((await audited("panel.connection.save", "gamePanel")).slice(before)).toEqual([
      {
        actor_id: admin,
        target_type: "settings",
        before: "null",
        after: JSON.stringify({ url: "https://panel.example", keyLast4: "abcd" }),
        reason: "",
      },
      {
        actor_id: admin,
        target_type: "settings",
        before: JSON.stringify({ url: "https://panel.example", keyLast4: "abcd" }),
        after: JSON.stringify({ url: "https://panel.example", keyLast4: "wxyz" }),
        reason: "",
      },
    ]);
  });

  it("service.provisioned: tells the customer once per install, and mails them while the service is active", async () => {
    const user = await customerWithCoins(app(), 0);
    const at = new Date("2026-11-20T10:00:00.000Z");
    const ready = (install: string, active: boolean): DomainEvent => ({
      type: "service.provisioned",
      service: { id: 990_001, userId: user, name: "SA-MP Starter", serverName: "Los Santos" },
      active,
      panelServerId: 77,
      install,
      address: "play.example:7777",
      ports: { game: 7777 },
      panelLink: "https://panel.example/server/abcd1234",
      secretsDrawn: true,
    });
    await recorded(ready("2026-11-20T09:50:00.000Z", true), at);
    // The same install seen again: nothing more.
    await recorded(ready("2026-11-20T09:50:00.000Z", true), at);
    // Reinstalled while suspended: told in the list, not mailed.
    await recorded(ready("2026-11-20T09:58:00.000Z", false), at);
    const notices = await readRows(
      app().db,
      "notifications",
      ["kind", "params", "link", "dedupe_key", "created_at"],
      { user_id: user },
      "id",
    );
    expect(notices.filter((notice) => notice.kind === "service_ready")).toEqual(
      ["2026-11-20T09:50:00.000Z", "2026-11-20T09:58:00.000Z"].map((install) => ({
        kind: "service_ready",
        params: JSON.stringify({ service: "SA-MP Starter (Los Santos)" }),
        link: "/dashboard/services",
        dedupe_key: `service-ready:990001:77:${install}`,
        created_at: at.toISOString(),
      })),
    );
    const mail = await readRows(app().db, "mail_outbox", ["kind", "params"], { user_id: user });
    expect(mail.map((row) => row.kind)).toEqual(["serviceReady"]);
    expect(JSON.parse(mail[0]!.params)).toMatchObject({
      address: "play.example:7777",
      ports: { game: 7777 },
      panelLink: "https://panel.example/server/abcd1234",
      secretsDrawn: true,
    });
  });

  it("provisioning.retried, reinstallRequested and relinkRequested: audit the admin's action on the service", async () => {
    const admin = await adminId(app());
    await recorded({
      type: "provisioning.retried",
      actorId: admin,
      serviceId: 990_002,
      panelState: "failed",
    });
    await recorded({ type: "provisioning.reinstallRequested", actorId: admin, serviceId: 990_002 });
    await recorded({
      type: "provisioning.relinkRequested",
      actorId: admin,
      serviceId: 990_002,
      panelServerId: 12,
      server: "abcd1234",
    });
    const entries = await readRows(
      app().db,
      "audit_log",
      ["action", "actor_id", "target_type", "before", "after"],
      { target_id: "990002" },
      "id",
    );
    expect(entries).toEqual([
      {
        action: "service.panel_retry",
        actor_id: admin,
        target_type: "hosting_service",
        before: JSON.stringify({ panelState: "failed" }),
        after: null,
      },
      {
        action: "service.panel_reinstall",
        actor_id: admin,
        target_type: "hosting_service",
        before: null,
        after: null,
      },
      {
        action: "service.panel_relink",
        actor_id: admin,
        target_type: "hosting_service",
        before: JSON.stringify({ panelServerId: 12 }),
        after: JSON.stringify({ server: "abcd1234" }),
      },
    ]);
  });
});
