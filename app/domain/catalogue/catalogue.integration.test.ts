import { expect, it } from "vitest";
import { prepareDatabase } from "~/context.server";
import { readRow } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { findActiveProduct, listActiveProducts, seedCatalogue } from "./catalogue.server";

describeEachDatabase("catalogue", (app) => {
  it("seeds the twelve plans of the spec once, in euro cents", async () => {
    const { db } = app();
    await seedCatalogue(db);
    await prepareDatabase(app());
    const all = await listActiveProducts(db);
    expect(all).toHaveLength(12);
    const samp = await listActiveProducts(db, "samp");
    expect(samp.map((p) => [p.name, p.priceCents, p.recommended])).toEqual([
      ["SAMP Starter", 250, false],
      ["SAMP Premium", 450, true],
      ["SAMP Ultimate", 850, false],
    ]);
    const game = await listActiveProducts(db, "game");
    expect(game.map((p) => p.priceCents)).toEqual([399, 799, 1499]);
    const vps = await listActiveProducts(db, "vps");
    expect(vps.every((p) => p.features.includes("10 Gbps uplink") && p.specs.slots === null)).toBe(
      true,
    );
  });

  it("keeps an admin's edit and hides hidden products everywhere", async () => {
    const { db } = app();
    const [starter] = await listActiveProducts(db, "mta");
    await db
      .updateTable("products")
      .set({ price_cents: 333, status: "hidden" })
      .where("id", "=", starter!.id)
      .execute();
    await seedCatalogue(db);
    expect(await findActiveProduct(db, starter!.id)).toBeUndefined();
    expect((await listActiveProducts(db, "mta")).map((p) => p.name)).toEqual([
      "MTA Advanced",
      "MTA Pro",
    ]);
    const row = await readRow(db, "products", ["price_cents"], { id: starter!.id });
    expect(row.price_cents).toBe(333);
    expect(await findActiveProduct(db, 999_999)).toBeUndefined();
    expect(await findActiveProduct(db, Number.NaN)).toBeUndefined();
  });
});
