import { describe, expect, it, vi } from "vitest";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import { documentView, documentViewTools, type InvoiceDocument } from "./invoices";

// Counts the times pdfkit is loaded, and then loads the real one.
const loads = vi.hoisted(() => ({ pdfkit: 0 }));
vi.mock("pdfkit", async (importOriginal) => {
  loads.pdfkit++;
  return importOriginal();
});

const receipt: InvoiceDocument = {
  id: 7,
  number: "HF-2026-000007",
  kind: "invoice",
  state: "paid",
  userId: "user-7",
  orderId: 7,
  hostingServiceId: null,
  currency: "EUR",
  pricesIncludeVat: true,
  vatRateBp: 0,
  subtotalCents: 250,
  vatCents: 0,
  totalCents: 250,
  seller: { name: "Hostfront", address: "Casablanca", taxId: "" },
  buyer: { name: "Yassine", email: "yassine@example.com", address: "Rabat", country: "MA" },
  lines: [
    {
      kind: "order",
      params: { id: 7, product: "SAMP Starter", cycle: "monthly", server: "Atlas" },
      quantity: 1,
      unitCents: 250,
      totalCents: 250,
    },
  ],
  reason: null,
  refundMethod: null,
  issuedAt: "2026-11-26T10:00:00.000Z",
  creditsNumber: null,
  creditedBy: null,
};

describe("the PDF library", () => {
  it("is loaded with the first PDF, not with the server, and once", async () => {
    const { renderDocumentPdf } = await import("./document-pdf.server");
    // Importing the module (as the server's build does at start) does not load pdfkit.
    expect(loads.pdfkit).toBe(0);
    const i18n = await sharedI18n("en");
    const t = i18n.getFixedT(null, "invoices");
    const tOrders = i18n.getFixedT(null, "orders");
    const view = documentView(
      receipt,
      documentViewTools({
        t: (key, values) => t(key, values),
        tOrders: (key) => tOrders(key),
        locale: "en",
        timeZone: "Africa/Casablanca",
      }),
    );
    const options = {
      locale: "en",
      direction: "ltr" as const,
      issuedAt: receipt.issuedAt,
      state: receipt.state,
      author: receipt.seller.name,
    };
    const [first, second] = await Promise.all([
      renderDocumentPdf(view, options),
      renderDocumentPdf(view, options),
    ]);
    expect(loads.pdfkit).toBe(1);
    expect(new TextDecoder().decode(first.subarray(0, 5))).toBe("%PDF-");
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });
});
