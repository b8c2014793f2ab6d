import { directionOf, type Locale } from "~/i18n/locales";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import { renderDocumentPdf } from "~/domain/invoices/document-pdf.server";
import {
  documentView,
  documentViewTools,
  type DocumentView,
  type InvoiceDocument,
} from "~/domain/invoices/invoices";

/** An invoice of €12.00 including 20% VAT, for a customer in Morocco with an Arabic name. */
export const invoice: InvoiceDocument = {
  id: 1,
  number: "HF-2026-000123",
  kind: "invoice",
  state: "paid",
  userId: "user-1",
  orderId: 42,
  hostingServiceId: null,
  currency: "EUR",
  pricesIncludeVat: true,
  vatRateBp: 2000,
  subtotalCents: 1000,
  vatCents: 200,
  totalCents: 1200,
  seller: {
    name: "Hostfront SARL",
    address: "12 bd Zerktouni\nCasablanca",
    taxId: "ICE 001234567000089",
  },
  buyer: {
    name: "شركة الأطلس",
    email: "salma@example.com",
    address: "12 rue des Oudayas\nRabat",
    country: "MA",
  },
  lines: [
    {
      kind: "order",
      params: { id: 42, product: "SA-MP 100 slots", cycle: "monthly", server: "Atlas RP" },
      quantity: 1,
      unitCents: 1200,
      totalCents: 1200,
    },
  ],
  reason: null,
  refundMethod: null,
  issuedAt: "2026-03-04T10:00:00.000Z",
  creditsNumber: null,
  creditedBy: null,
};

/**
 * The receipt of a top-up of 10 coins paid 110.00 MAD by Orange Money, as the approval issues it: the
 * money sent, the method, the reference, the account that paid and the day, beside the coins.
 */
export const topUpReceipt: InvoiceDocument = {
  ...invoice,
  id: 2,
  number: "HFR-2026-000001",
  kind: "receipt",
  orderId: null,
  pricesIncludeVat: true,
  vatRateBp: 0,
  subtotalCents: 1000,
  vatCents: 0,
  totalCents: 1000,
  lines: [
    {
      kind: "topUp",
      params: {
        reference: "TU-7K2M3",
        method: "Orange Money",
        currency: "MAD",
        sent: 11000,
        asked: 10,
        payer: "0612345678",
        paidOn: "2026-03-03",
      },
      quantity: 1,
      unitCents: 1000,
      totalCents: 1000,
    },
  ],
};

/** `doc` as its reader in `locale` reads it: the server's catalogues, the site's time zone. */
export async function viewOf(doc: InvoiceDocument, locale: Locale): Promise<DocumentView> {
  const i18n = await sharedI18n(locale);
  const t = i18n.getFixedT(null, "invoices");
  const tOrders = i18n.getFixedT(null, "orders");
  return documentView(
    doc,
    documentViewTools({
      t: (key, values) => t(key, values),
      tOrders: (key) => tOrders(key),
      locale,
      timeZone: "Africa/Casablanca",
    }),
  );
}

/** `doc` as a PDF in `locale`, as the route makes it (the server's catalogues, the site's time zone). */
export async function pdfOf(doc: InvoiceDocument, locale: Locale): Promise<Uint8Array> {
  return renderDocumentPdf(await viewOf(doc, locale), {
    locale,
    direction: directionOf(locale),
    issuedAt: doc.issuedAt,
    state: doc.state,
    author: doc.seller.name,
  });
}
