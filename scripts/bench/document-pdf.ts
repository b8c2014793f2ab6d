/**
 * node --import tsx scripts/bench/document-pdf.ts [count] — what a document's PDF costs (ADR 40): an
 * invoice of two lines (an Arabic server name, a voucher) rendered `count` times (100 by default) in each
 * language after a warm-up, as /invoices/:number/pdf renders it (the server's catalogues, the site's time
 * zone), without the database read. Prints the mean wall and CPU time a PDF and its size. The CPU time
 * is the process's, so it counts the garbage collector's threads too.
 */
import type { InvoiceDocument } from "../../app/domain/invoices/invoices";
import { SUPPORTED_LOCALES } from "../../app/i18n/locales";
import { pdfOf } from "../../tests/support/invoice-documents";

const count = Number(process.argv[2] ?? 100);

const invoice: InvoiceDocument = {
  id: 1,
  number: "HF-2026-000123",
  kind: "invoice",
  state: "paid",
  userId: "bench",
  orderId: 4821,
  hostingServiceId: null,
  currency: "EUR",
  pricesIncludeVat: true,
  vatRateBp: 2000,
  subtotalCents: 900,
  vatCents: 180,
  totalCents: 1080,
  seller: {
    name: "Hostfront SARL",
    address: "12 bd Zerktouni\nCasablanca 20000\nMaroc",
    taxId: "ICE 001234567000089",
  },
  buyer: {
    name: "شركة الأطلس للألعاب",
    email: "salma@example.com",
    address: "12 rue des Oudayas\nRabat",
    country: "MA",
  },
  lines: [
    {
      kind: "order",
      params: { id: 4821, product: "SA-MP 100 slots", cycle: "monthly", server: "خادم الأطلس RP" },
      quantity: 1,
      unitCents: 1200,
      totalCents: 1200,
    },
    {
      kind: "discount",
      params: { code: "RAMADAN10" },
      quantity: 1,
      unitCents: -120,
      totalCents: -120,
    },
  ],
  reason: null,
  refundMethod: null,
  issuedAt: "2026-03-04T10:00:00.000Z",
  creditsNumber: null,
  creditedBy: null,
};

for (const locale of SUPPORTED_LOCALES) {
  // As the PDF tests make it (the translator is the process's, read once).
  const render = () => pdfOf(invoice, locale);
  for (let warmUp = 0; warmUp < 5; warmUp++) await render();
  const cpu = process.cpuUsage();
  const started = performance.now();
  let bytes = 0;
  for (let run = 0; run < count; run++) bytes = (await render()).length;
  const wall = (performance.now() - started) / count;
  const used = process.cpuUsage(cpu);
  console.log(
    `${locale}: ${wall.toFixed(1)} ms a PDF (CPU ${((used.user + used.system) / 1000 / count).toFixed(1)} ms), ${(bytes / 1024).toFixed(1)} KiB, ${count} PDFs`,
  );
}
