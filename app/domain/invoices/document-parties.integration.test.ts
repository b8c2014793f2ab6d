import { afterEach, expect, it } from "vitest";
import { placeOrder } from "~/domain/orders/orders.server";
import { defaultSettings } from "~/domain/settings/settings";
import { updateSettingsSection } from "~/domain/settings/settings.server";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import {
  customerWithCoins,
  expectLedgerIntactAfterEach,
  orderInput,
  productId,
} from "../../../tests/support/money-fixtures";
import { readPdf } from "../../../tests/support/pdf-text";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import { saveBillingDetails } from "./billing-details.server";
import { documentPdf } from "./document-pdf.server";
import { documentViewTools } from "./invoices";

/** An Arabic letter with a shadda, forced left to right and closed by a right-to-left mark. */
const STEERED_NAME = "\u202Dعّ \u200F";

describeEachDatabase("a document's parties, typed with directional controls", (app) => {
  expectLedgerIntactAfterEach(app);
  afterEach(() => updateSettingsSection(app().db, "invoicing", defaultSettings().invoicing));

  /** Document `number` as its owner's PDF in `locale`, as /invoices/:number/pdf makes it. */
  async function pdfFor(number: string, userId: string, locale: "en" | "ar") {
    const i18n = await sharedI18n(locale);
    const t = i18n.getFixedT(null, "invoices");
    const tOrders = i18n.getFixedT(null, "orders");
    return documentPdf(app().db, {
      number,
      reader: { userId, isAdmin: false },
      locale,
      direction: locale === "ar" ? "rtl" : "ltr",
      tools: documentViewTools({
        t: (key, values) => t(key, values),
        tOrders: (key) => tOrders(key),
        locale,
        timeZone: "Africa/Casablanca",
      }),
    });
  }

  it("keeps none in the document, and its PDF draws the name", async () => {
    const user = await customerWithCoins(app(), 100_000);
    // Saved before such texts were refused: the account's name, its address, the seller's details.
    await app()
      .db.updateTable("users")
      .set({ name: STEERED_NAME })
      .where("id", "=", user)
      .execute();
    await saveBillingDetails(app().db, {
      userId: user,
      billingName: "",
      billingAddress: "\u202e12 rue des Oudayas\u202c\nRabat\u2067",
      billingCountry: "MA",
    });
    await updateSettingsSection(app().db, "invoicing", {
      ...defaultSettings().invoicing,
      sellerName: "\u2066Hostfront SARL\u2069",
      sellerAddress: "\u200e12 bd Zerktouni",
      sellerTaxId: "ICE\u061c 001234567000089",
    });
    const placed = await placeOrder(
      app().db,
      user,
      orderInput({ productId: await productId(app(), "samp-premium") }),
    );
    if (!placed.ok) throw new Error(placed.error);
    const [invoice] = await readRows(app().db, "invoices", "*", { order_id: placed.order.id });
    expect(JSON.parse(invoice!.buyer)).toMatchObject({
      name: "عّ ",
      address: "12 rue des Oudayas\nRabat",
    });
    expect(JSON.parse(invoice!.seller)).toEqual({
      name: "Hostfront SARL",
      address: "12 bd Zerktouni",
      taxId: "ICE 001234567000089",
    });

    for (const locale of ["en", "ar"] as const) {
      const pdf = await pdfFor(invoice!.number, user, locale);
      const read = await readPdf(pdf!.bytes);
      const drawn = read.items.map((item) => item.text.normalize("NFKC")).join(" ");
      // The letter and its shadda (a text layer gives a mark as an item of its own).
      expect(drawn).toContain("ع");
      expect(drawn).toContain("\u0651");
      expect(drawn).toContain("Hostfront SARL");
    }
  });
});
