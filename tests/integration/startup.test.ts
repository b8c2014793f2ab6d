import { expect, it } from "vitest";
import { prepareDatabase } from "~/context.server";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { describeEachDatabase } from "../support/test-database";

describeEachDatabase("start-up", (app) => {
  it("seeds once: a second start keeps every row and every admin edit", async () => {
    const { db } = app();
    await updateSettingsSection(db, "general", { siteName: "Atlas Hosting" });
    await db
      .updateTable("products")
      .set({ price_cents: 275 })
      .where("slug", "=", "samp-starter")
      .execute();
    await db
      .updateTable("announcements")
      .set({ title: "Hello gamers" })
      .where("seed_key", "=", "welcome")
      .execute();

    const snapshot = async () => ({
      users: await db.selectFrom("users").selectAll().orderBy("id").execute(),
      settings: await db.selectFrom("settings").select(["key", "value"]).orderBy("key").execute(),
      products: await db.selectFrom("products").selectAll().orderBy("id").execute(),
      vouchers: await db.selectFrom("vouchers").selectAll().orderBy("id").execute(),
      announcements: await db.selectFrom("announcements").selectAll().orderBy("id").execute(),
      ledger: await db.selectFrom("coin_ledger").selectAll().orderBy("id").execute(),
    });
    const before = await snapshot();
    await prepareDatabase(app());
    await prepareDatabase(app());
    expect(await snapshot()).toEqual(before);
    expect(before.settings.find((s) => s.key === "general")?.value).toContain("Atlas Hosting");
    expect(before.products).toHaveLength(12);
    expect(before.vouchers.map((v) => v.code)).toEqual(["WELCOME10"]);
    expect(before.announcements).toHaveLength(1);
  });
});
