import { expect, it } from "vitest";
import type { Db } from "~/db/transaction";
import { customerWithCoins } from "../../../tests/support/money-fixtures";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { ensureExpiryNotifications, listNotifications } from "./notifications.server";

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

async function expiryWarnings(db: Db, userId: string) {
  const { items } = await listNotifications(db, userId, 50);
  return items
    .filter((item) => item.kind === "service_expiring")
    .map((item) => item.params.service);
}

describeEachDatabase("service expiry notifications", (app) => {
  it("warns once per service and expiry date, only within 3 days, and again after a new expiry date", async () => {
    const db = app().db;
    const now = new Date();
    const customer = await customerWithCoins(app(), 0);
    const soon = await serviceExpiringIn(db, customer, 2, now);
    await serviceExpiringIn(db, customer, 10, now);

    expect(await expiryWarnings(db, customer)).toEqual(["Server in 2 days"]);
    // Read again (every page a customer opens): still one warning, and nothing left to write, so a page
    // view takes no write lock.
    expect(await ensureExpiryNotifications(db, customer, now)).toBe(0);
    expect(await expiryWarnings(db, customer)).toEqual(["Server in 2 days"]);

    // Renewed, then close to its new expiry date: a new warning for the new date.
    const later = new Date(now.getTime() + 40 * DAY);
    await db
      .updateTable("hosting_services")
      .set({ expires_at: new Date(later.getTime() + DAY).toISOString() })
      .where("id", "=", soon.id)
      .execute();
    expect(await ensureExpiryNotifications(db, customer, later)).toBe(1);
    expect(await ensureExpiryNotifications(db, customer, later)).toBe(0);
    expect(await expiryWarnings(db, customer)).toEqual(["Server in 2 days", "Server in 2 days"]);
  });
});
