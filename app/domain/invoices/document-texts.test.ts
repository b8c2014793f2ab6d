import { describe, expect, it } from "vitest";
import { invoice, topUpReceipt, viewOf } from "../../../tests/support/invoice-documents";
import type { InvoiceDocument } from "./invoices";

// A document's texts as each language's catalogue writes them (the view of invoices.ts, with the
// server's catalogues): what a reader of the page and of the PDF reads.

/** The payment block's rows as "label: value". */
const paymentRows = async (doc: InvoiceDocument, locale: "en" | "fr" | "ar") =>
  (await viewOf(doc, locale)).payment?.rows.map((row) => `${row.label}: ${row.value}`);

describe("a top-up's receipt", () => {
  it("says the money sent in the method's currency, the method, the reference, who paid and when, beside the coins", async () => {
    expect(await paymentRows(topUpReceipt, "en")).toEqual([
      "Amount sent: MAD\u00a0110.00",
      "Method: Orange Money",
      "Reference: TU-7K2M3",
      "Phone number or account that paid: 0612345678",
      "Date paid: 3 March 2026",
      "Coins credited: 10",
    ]);
    const english = await viewOf(topUpReceipt, "en");
    expect(english.payment?.heading).toBe("Payment");
    // The coins themselves stay in the line and the totals.
    expect(english.lines[0]).toMatchObject({ unit: "€10.00", total: "€10.00" });
    expect(english.totals.at(-1)).toMatchObject({ amount: "€10.00" });
  });

  it("writes the amount and the day as the reader's language does", async () => {
    expect(await paymentRows(topUpReceipt, "fr")).toEqual([
      "Montant envoyé: 110,00\u00a0MAD",
      "Moyen de paiement: Orange Money",
      "Référence: TU-7K2M3",
      "Numéro ou compte qui a payé: 0612345678",
      "Date du paiement: 3 mars 2026",
      "Coins crédités: 10",
    ]);
    const arabic = await paymentRows(topUpReceipt, "ar");
    expect(arabic?.[0]).toBe("المبلغ المرسل: \u200f110,00\u00a0د.م.\u200f");
    expect(arabic?.[4]).toBe("تاريخ الدفع: 3 مارس 2026");
  });

  it("says the amount asked, not sent, when the admin credited another number of coins", async () => {
    const other: InvoiceDocument = {
      ...topUpReceipt,
      ...{ subtotalCents: 800, totalCents: 800 },
      lines: [{ ...topUpReceipt.lines[0]!, unitCents: 800, totalCents: 800 }],
    };
    const rows = await paymentRows(other, "en");
    expect(rows?.[0]).toBe("Amount asked for the 10 coins requested: MAD\u00a0110.00");
    expect(rows?.at(-1)).toBe("Coins credited: 8");
  });

  it("reads a receipt issued before it kept the payment: its method and reference, and the coins", async () => {
    const old: InvoiceDocument = {
      ...topUpReceipt,
      lines: [
        {
          ...topUpReceipt.lines[0]!,
          params: { reference: "TU-7K2M3", method: "Orange Money" },
        },
      ],
    };
    expect(await paymentRows(old, "en")).toEqual([
      "Method: Orange Money",
      "Reference: TU-7K2M3",
      "Coins credited: 10",
    ]);
    // An invoice and a ticket's payment have no such block.
    expect((await viewOf(invoice, "en")).payment).toBeNull();
    const ticket: InvoiceDocument = {
      ...topUpReceipt,
      lines: [{ ...topUpReceipt.lines[0]!, kind: "ticketPayment", params: { id: 4 } }],
    };
    expect((await viewOf(ticket, "en")).payment).toBeNull();
  });
});

describe("an online top-up's documents", () => {
  const paidOnline: InvoiceDocument = {
    ...topUpReceipt,
    lines: [
      {
        ...topUpReceipt.lines[0]!,
        params: {
          reference: "TU-7K2M3",
          method: "Card",
          currency: "MAD",
          sent: 11000,
          asked: 10,
          provider: "youcanpay",
          providerRef: "tx-42",
        },
      },
    ],
  };

  it("a receipt says the provider that took the money and its reference", async () => {
    expect(await paymentRows(paidOnline, "en")).toEqual([
      "Amount sent: MAD\u00a0110.00",
      "Method: Card",
      "Reference: TU-7K2M3",
      "Paid through: YouCan Pay",
      "Provider's reference: tx-42",
      "Coins credited: 10",
    ]);
    expect((await paymentRows(paidOnline, "fr"))?.slice(3, 5)).toEqual([
      "Payé via: YouCan Pay",
      "Référence du prestataire: tx-42",
    ]);
  });

  it("a refund's credit note names the receipt it corrects and the coins that could not be taken back", async () => {
    const credit: InvoiceDocument = {
      ...paidOnline,
      kind: "credit_note",
      number: "HFC-2026-000002",
      refundMethod: "outside",
      totalCents: -1000,
      lines: [
        {
          kind: "topUp",
          params: { reference: "TU-7K2M3", receipt: "HFR-2026-000001", shortCents: 350 },
          quantity: 1,
          unitCents: -1000,
          totalCents: -1000,
        },
      ],
    };
    const notes = (await viewOf(credit, "en")).notes;
    expect(notes).toContain("Credit note for HFR-2026-000001");
    expect(notes).toContain("3.5 coins could not be taken back: the balance ran out.");
    expect((await viewOf(credit, "ar")).notes.join(" ")).toContain("نفد الرصيد");
  });
});

describe("a document's state", () => {
  it("agrees with its kind in French and Arabic: une facture payée, un reçu payé, un avoir payé", async () => {
    const credit: InvoiceDocument = { ...invoice, kind: "credit_note", number: "HFC-2026-000001" };
    const states = async (locale: "en" | "fr" | "ar") =>
      Promise.all(
        [invoice, topUpReceipt, credit].map(async (doc) => (await viewOf(doc, locale)).state),
      );
    expect(await states("fr")).toEqual(["Payée", "Payé", "Payé"]);
    expect(await states("ar")).toEqual(["مدفوعة", "مدفوع", "مدفوع"]);
    expect(await states("en")).toEqual(["Paid", "Paid", "Paid"]);
    // A credited invoice (feminine in French).
    expect((await viewOf({ ...invoice, state: "credited" }, "fr")).state).toBe("Annulée par avoir");
  });
});
