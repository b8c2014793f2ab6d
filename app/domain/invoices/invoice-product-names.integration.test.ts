import { afterEach, expect, it } from "vitest";
import { setUserLocale } from "~/domain/accounts/accounts.server";
import { placeOrder } from "~/domain/orders/orders.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import {
  customerWithCoins,
  expectLedgerIntactAfterEach,
  orderInput,
  productId,
} from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";

// An order's invoice names the plan in the customer's language as it is issued (the seed's "VPS Entry" is
// "VPS Essentiel" in French, "باقة VPS الأساسية" in Arabic), and keeps that name: a document is frozen.
// The order itself keeps the English name, which the admin panel shows.

describeEachDatabase("the plan's name on an order's invoice", (app) => {
  expectLedgerIntactAfterEach(app);
  afterEach(async () => {
    await updateSettingsSection(app().db, "general", defaultSettings().general);
  });

  /** `userId` orders the seed's VPS Entry; its invoice line's product and the order's own name. */
  async function order(userId: string) {
    const placed = await placeOrder(
      app().db,
      userId,
      orderInput({ productId: await productId(app(), "vps-entry") }),
    );
    if (!placed.ok) throw new Error(placed.error);
    const [invoice] = await readRows(app().db, "invoices", ["lines"], {
      order_id: placed.order.id,
    });
    const [line] = JSON.parse(invoice!.lines) as { params: { product: string } }[];
    return { billed: line!.params.product, ordered: placed.order.productName };
  }

  it("is the customer's saved language's name, the order keeping the English one", async () => {
    const french = await customerWithCoins(app(), 10_000);
    await setUserLocale(app().db, french, "fr");
    expect(await order(french)).toEqual({ billed: "VPS Essentiel", ordered: "VPS Entry" });

    const arabic = await customerWithCoins(app(), 10_000);
    await setUserLocale(app().db, arabic, "ar");
    expect((await order(arabic)).billed).toBe("باقة VPS الأساسية");

    const english = await customerWithCoins(app(), 10_000);
    await setUserLocale(app().db, english, "en");
    expect((await order(english)).billed).toBe("VPS Entry");
  });

  it("is the site's default language's for a customer who saved none", async () => {
    await updateSettingsSection(app().db, "general", {
      ...defaultSettings().general,
      defaultLocale: "fr",
    });
    const customer = await customerWithCoins(app(), 10_000);
    await app().db.updateTable("users").set({ locale: null }).where("id", "=", customer).execute();
    expect((await order(customer)).billed).toBe("VPS Essentiel");
  });

  it("stays on an issued invoice when the admin empties the French name, which then falls back to English", async () => {
    const customer = await customerWithCoins(app(), 20_000);
    await setUserLocale(app().db, customer, "fr");
    const first = await order(customer);
    expect(first.billed).toBe("VPS Essentiel");
    const product = await productId(app(), "vps-entry");
    // The French name left empty: that language falls back to English (ADR 19).
    await app()
      .db.updateTable("product_texts")
      .set({ name: "" })
      .where("product_id", "=", product)
      .where("locale", "=", "fr")
      .execute();
    expect((await order(customer)).billed).toBe("VPS Entry");
    const lines = await readRows(app().db, "invoices", ["lines"], { user_id: customer }, "id");
    expect(lines.map((row) => JSON.parse(row.lines)[0].params.product)).toEqual([
      first.billed,
      "VPS Entry",
    ]);
    await app()
      .db.updateTable("product_texts")
      .set({ name: "VPS Essentiel" })
      .where("product_id", "=", product)
      .where("locale", "=", "fr")
      .execute();
  });
});
