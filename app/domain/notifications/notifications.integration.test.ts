import { expect, it } from "vitest";
import type { Db } from "~/db/transaction";
import { runLifecycle } from "~/domain/lifecycle/lifecycle.server";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { defaultSettings } from "~/domain/settings/settings";
import { customerWithCoins } from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { listNotifications } from "./notification-reads.server";

const DAY = 86_400_000;

async function serviceExpiringIn(db: Db, userId: string, days: number, now: Date) {
  const at = now.toISOString();
  return db
    .insertInto("hosting_services")
    .values({
      user_id: userId,
      product_id: null,
      name: `Server in ${days} days`,
      monthly_price_cents: 500,
      cycle_price_cents: 500,
      expires_at: new Date(now.getTime() + days * DAY).toISOString(),
      created_at: at,
      updated_at: at,
    })
    .returning(["id", "expires_at"])
    .executeTakeFirstOrThrow();
}

async function expiryReminders(db: Db, userId: string) {
  const { items } = await listNotifications(db, userId, 50);
  return items
    .filter((item) => item.kind === "service_expiry_reminder")
    .map((item) => `${item.params.service} (${item.params.count})`)
    .reverse();
}

// Before the service lifecycle the 3-day warning was written lazily when a customer's notifications were
// read; the lifecycle's reminders replace it (app/domain/lifecycle), so reading writes nothing and a
// customer is never told twice.
describeEachDatabase("service expiry notifications", (app) => {
  it("reminds once per service, expiry date and reminder day, never on reading, and again after a new expiry date", async () => {
    const db = app().db;
    await updateSettingsSection(db, "lifecycle", { ...defaultSettings().lifecycle, enabled: true });
    const now = new Date();
    const customer = await customerWithCoins(app(), 0);
    const soon = await serviceExpiringIn(db, customer, 2.5, now);
    await serviceExpiringIn(db, customer, 10, now);

    // Reading the notifications (every page a customer opens) writes nothing.
    expect(await expiryReminders(db, customer)).toEqual([]);

    expect((await runLifecycle(db, { now })).counts.reminded).toBe(1);
    expect(await expiryReminders(db, customer)).toEqual(["Server in 2.5 days (3)"]);
    // Run again (the same day, or a process that missed it): still one reminder.
    expect((await runLifecycle(db, { now })).counts.reminded).toBe(0);
    expect(await expiryReminders(db, customer)).toEqual(["Server in 2.5 days (3)"]);

    // The 1-day reminder of the same expiry date comes once, two days on.
    const later = new Date(now.getTime() + 2 * DAY);
    expect((await runLifecycle(db, { now: later })).counts.reminded).toBe(1);
    expect((await runLifecycle(db, { now: later })).counts.reminded).toBe(0);

    // Renewed, then close to its new expiry date: a new reminder for the new date.
    const renewedAt = new Date(now.getTime() + 40 * DAY);
    await db
      .updateTable("hosting_services")
      .set({ expires_at: new Date(renewedAt.getTime() + 2 * DAY).toISOString() })
      .where("id", "=", soon.id)
      .execute();
    expect((await runLifecycle(db, { now: renewedAt })).counts.reminded).toBe(1);
    expect((await runLifecycle(db, { now: renewedAt })).counts.reminded).toBe(0);
    expect(await expiryReminders(db, customer)).toEqual([
      "Server in 2.5 days (3)",
      "Server in 2.5 days (1)",
      "Server in 2.5 days (3)",
    ]);
  });
});
