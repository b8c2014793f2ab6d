import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS } from "~/domain/settings/settings";
import {
  canTakeBackTerm,
  suspensionToRestore,
  renewalTermOf,
  stopsAutoRenewByDefault,
  documentAmounts,
  documentView,
  documentViewTools,
  negatedLines,
  type DocumentLine,
  type DocumentViewTools,
  type InvoiceDocument,
  type TranslateDocument,
  documentNumber,
  DOCUMENT_NUMBER_PATTERN,
  negatedAmounts,
  receiptAmounts,
  vatIncluded,
  vatOnTop,
  vatRateFor,
  yearIn,
} from "./invoices";

describe("VAT in integer cents", () => {
  it("takes the VAT out of a price that includes it, a half cent rounding up", () => {
    expect(vatIncluded(1200, 2000)).toBe(200);
    // 999 × 2000 / 12000 = 166.5
    expect(vatIncluded(999, 2000)).toBe(167);
    // 998 × 2000 / 12000 = 166.33…
    expect(vatIncluded(998, 2000)).toBe(166);
    // 3 × 2000 / 12000 = 0.5; 1 cent: 0.1666…
    expect(vatIncluded(3, 2000)).toBe(1);
    expect(vatIncluded(1, 2000)).toBe(0);
    // 5.5%: 100 × 550 / 10550 = 5.21…
    expect(vatIncluded(100, 550)).toBe(5);
    expect(vatIncluded(0, 2000)).toBe(0);
    expect(vatIncluded(1500, 0)).toBe(0);
  });

  it("adds the VAT on a price without it, a half cent rounding up", () => {
    expect(vatOnTop(1000, 2000)).toBe(200);
    // 1234 × 0.2 = 246.8
    expect(vatOnTop(1234, 2000)).toBe(247);
    // 1 × 0.5 = 0.5; 2 × 0.25 = 0.5; 1 × 0.2 = 0.2
    expect(vatOnTop(1, 5000)).toBe(1);
    expect(vatOnTop(2, 2500)).toBe(1);
    expect(vatOnTop(1, 2000)).toBe(0);
    // 2125 bp: 399 × 0.2125 = 84.7875
    expect(vatOnTop(399, 2125)).toBe(85);
  });

  it("rounds a negative amount as its positive one, so a credit note mirrors its invoice", () => {
    expect(vatIncluded(-999, 2000)).toBe(-167);
    expect(vatOnTop(-1234, 2000)).toBe(-247);
    expect(vatIncluded(-3, 2000)).toBe(-1);
  });

  it("stays exact at the largest balance", () => {
    expect(vatIncluded(1_000_000_000, 10_000)).toBe(500_000_000);
    expect(vatOnTop(1_000_000_000, 2000)).toBe(200_000_000);
    expect(vatIncluded(999_999_999, 2000)).toBe(166_666_667);
  });

  it("always makes subtotal + VAT = total, the total being the price when prices include VAT", () => {
    for (const rate of [0, 550, 700, 1000, 2000, 2125, 10_000])
      for (let price = 0; price <= 3000; price += 7) {
        const included = documentAmounts(price, rate, true);
        expect(included.totalCents).toBe(price);
        expect(included.subtotalCents + included.vatCents).toBe(price);
        const added = documentAmounts(price, rate, false);
        expect(added.subtotalCents).toBe(price);
        expect(added.subtotalCents + added.vatCents).toBe(added.totalCents);
        // The VAT taken out of a price never differs by more than a cent from the rate applied to
        // what is left.
        expect(Math.abs(vatOnTop(included.subtotalCents, rate) - included.vatCents)).toBeLessThan(
          2,
        );
      }
  });

  it("gives a receipt no VAT and a credit note the negated figures", () => {
    expect(receiptAmounts(2500)).toEqual({
      pricesIncludeVat: true,
      vatRateBp: 0,
      subtotalCents: 2500,
      vatCents: 0,
      totalCents: 2500,
    });
    expect(negatedAmounts(documentAmounts(999, 2000, true))).toEqual({
      pricesIncludeVat: true,
      vatRateBp: 2000,
      subtotalCents: -832,
      vatCents: -167,
      totalCents: -999,
    });
  });

  it("negates a credit note's lines, and leaves a free line and a free document at 0, never -0", () => {
    const lines: DocumentLine[] = [
      {
        kind: "order",
        params: { id: 12, product: "VPS", cycle: "monthly", server: "s" },
        quantity: 1,
        unitCents: 1200,
        totalCents: 1200,
      },
      {
        kind: "discount",
        params: { code: "FREE" },
        quantity: 1,
        unitCents: -1200,
        totalCents: -1200,
      },
    ];
    expect(negatedLines(lines)).toEqual([
      { ...lines[0], unitCents: -1200, totalCents: -1200 },
      { ...lines[1], unitCents: 1200, totalCents: 1200 },
    ]);
    // A free order (a 100 % voucher): its credit note's line and figures read 0, as a JSON reader
    // and the page's "-€0.00" would otherwise tell.
    const [free] = negatedLines([{ ...lines[0]!, unitCents: 0, totalCents: 0 }]);
    expect(free!.unitCents).toBe(0);
    expect(free!.totalCents).toBe(0);
    const amounts = negatedAmounts(documentAmounts(0, 2000, true));
    expect([amounts.subtotalCents, amounts.vatCents, amounts.totalCents]).toEqual([0, 0, 0]);
    for (const cents of [amounts.subtotalCents, amounts.vatCents, amounts.totalCents])
      expect(Object.is(cents, 0)).toBe(true);
  });
});

describe("the rate of a buyer", () => {
  const invoicing = DEFAULT_SETTINGS.invoicing;
  it("is the country's rate while VAT is on, 0 otherwise", () => {
    expect(vatRateFor(invoicing, "MA")).toBe(2000);
    expect(vatRateFor(invoicing, "FR")).toBe(0);
    expect(vatRateFor(invoicing, null)).toBe(0);
    expect(vatRateFor({ ...invoicing, vatEnabled: false }, "MA")).toBe(0);
    expect(vatRateFor({ ...invoicing, vatRates: {} }, "MA")).toBe(0);
  });
});

describe("numbers", () => {
  it("writes the series, the year and six digits", () => {
    expect(documentNumber("HF", 2026, 123)).toBe("HF-2026-000123");
    expect(documentNumber("HFR", 2026, 1)).toBe("HFR-2026-000001");
    expect(documentNumber("HFC", 2027, 1_234_567)).toBe("HFC-2027-1234567");
    for (const number of ["HF-2026-000123", "HFR-2026-000001", "HFC-2027-1234567"])
      expect(DOCUMENT_NUMBER_PATTERN.test(number), number).toBe(true);
    for (const number of ["HF-26-000123", "HX-2026-000001", "HF-2026-12", "hf-2026-000001"])
      expect(DOCUMENT_NUMBER_PATTERN.test(number), number).toBe(false);
  });

  it("counts the year in the site's time zone", () => {
    // 23:30 UTC on 31 December is already the new year in Paris (UTC+1 in winter).
    const at = new Date("2026-12-31T23:30:00Z");
    expect(yearIn("UTC", at)).toBe(2026);
    expect(yearIn("Europe/Paris", at)).toBe(2027);
  });
});

describe("a document's view", () => {
  /** A `t` that writes the key and its values, so the test reads what was asked for. */
  const t: TranslateDocument = (key, values) => (values ? `${key} ${JSON.stringify(values)}` : key);
  const tools: DocumentViewTools = {
    t,
    locale: "en",
    money: (cents) => `€${(cents / 100).toFixed(2)}`,
    date: (iso) => iso.slice(0, 10),
    cycleName: (cycle) => `<${cycle}>`,
    countryName: (code) => `[${code}]`,
    day: (day) => `<${day}>`,
    amountIn: (minor, currency) => `${currency} ${(minor / 100).toFixed(2)}`,
    coins: (cents) => String(cents / 100),
  };
  const invoice: InvoiceDocument = {
    id: 1,
    number: "HF-2026-000007",
    kind: "invoice",
    state: "credited",
    userId: "u",
    orderId: 12,
    hostingServiceId: null,
    currency: "EUR",
    ...documentAmounts(1200, 2000, true),
    seller: { name: "Hostfront", address: "1 rue X\n\nCasablanca", taxId: "ICE 1" },
    buyer: { name: "Atlas", email: "a@example.com", address: "", country: "MA" },
    lines: [
      {
        kind: "order",
        params: { id: 12, product: "VPS", cycle: "quarterly", server: "s" },
        quantity: 1,
        unitCents: 1200,
        totalCents: 1200,
      },
    ],
    reason: null,
    refundMethod: null,
    issuedAt: "2026-11-24T10:00:00.000Z",
    creditsNumber: null,
    creditedBy: "HFC-2026-000002",
  };

  it("writes an invoice's parties, lines and totals in the reader's words", () => {
    const view = documentView(invoice, tools);
    expect(view.title).toBe("document.titles.invoice");
    expect(view.issued).toBe('document.issued {"date":"2026-11-24"}');
    expect(view.state).toBe("states.credited");
    expect(view.notes).toEqual(['document.creditedBy {"number":"HFC-2026-000002"}']);
    expect(view.seller.lines).toEqual([
      "Hostfront",
      "1 rue X",
      "Casablanca",
      'document.taxId {"id":"ICE 1"}',
    ]);
    expect(view.buyer.lines).toEqual(["Atlas", "a@example.com", "[MA]"]);
    expect(view.lines).toEqual([
      {
        description: 'lines.order {"id":12,"product":"VPS","cycle":"<quarterly>","server":"s"}',
        quantity: "1",
        unit: "€12.00",
        total: "€12.00",
      },
    ]);
    expect(view.columns.unit).toBe("document.unitWithVat");
    expect(view.totals).toEqual([
      { label: "document.subtotal", amount: "€10.00" },
      { label: 'document.vatAt {"rate":"20"}', amount: "€2.00" },
      { label: "document.total", amount: "€12.00", strong: true },
    ]);
    expect(view.footer).toEqual(["document.paidWithCoins"]);
  });

  it("draws the parties of a document kept with directional controls without them", () => {
    const view = documentView(
      {
        ...invoice,
        seller: {
          name: "\u2066Hostfront\u2069",
          address: "\u202e1 rue X\u202c",
          taxId: "ICE\u200f 1",
        },
        buyer: { ...invoice.buyer, name: "\u202dعّ \u200f", address: "Rabat\u061c\n\u200e" },
      },
      tools,
    );
    expect(view.seller.lines).toEqual(["Hostfront", "1 rue X", 'document.taxId {"id":"ICE 1"}']);
    expect(view.buyer.lines).toEqual(["عّ ", "a@example.com", "Rabat", "[MA]"]);
  });

  it("says what a credit note corrects and how the money went back; a receipt carries no VAT", () => {
    const credit = documentView(
      {
        ...invoice,
        ...negatedAmounts(invoice),
        kind: "credit_note",
        state: "paid",
        lines: negatedLines(invoice.lines),
        creditsNumber: invoice.number,
        creditedBy: null,
        reason: "Out of stock",
        refundMethod: "coins",
      },
      tools,
    );
    expect(credit.notes).toEqual([
      'document.creditsNote {"number":"HF-2026-000007"}',
      "refundMethods.coins",
      'document.reason {"reason":"Out of stock"}',
    ]);
    expect(credit.totals.map((row) => row.amount)).toEqual(["€-10.00", "€-2.00", "€-12.00"]);
    const receipt = documentView(
      { ...invoice, ...receiptAmounts(2500), kind: "receipt", state: "paid", creditedBy: null },
      tools,
    );
    expect(receipt.footer).toEqual(["document.receiptNoVat"]);
    expect(receipt.columns.unit).toBe("document.unit");
    expect(receipt.totals[1]).toEqual({ label: "document.vat", amount: "€0.00" });
  });

  it("says that no VAT applies at 0 %, and leaves out an empty tax ID and an address's blank lines", () => {
    const untaxed = {
      ...invoice,
      ...documentAmounts(1200, 0, true),
      state: "paid" as const,
      creditedBy: null,
      seller: { name: "Hostfront", address: "1 rue X\n   \nCasablanca", taxId: "" },
    };
    const view = documentView(untaxed, tools);
    expect(view.footer).toEqual(["document.noVat", "document.paidWithCoins"]);
    expect(view.totals[1]).toEqual({ label: "document.vat", amount: "€0.00" });
    expect(view.seller.lines).toEqual(["Hostfront", "1 rue X", "Casablanca"]);
    // Its credit note says so too, and is not "paid with coins".
    const credit = documentView(
      {
        ...untaxed,
        ...negatedAmounts(untaxed),
        kind: "credit_note",
        creditsNumber: untaxed.number,
        refundMethod: "outside",
      },
      tools,
    );
    expect(credit.footer).toEqual(["document.noVat"]);
  });

  it("writes each line from its own values: a renewal's dates and cycle as the reader reads them", () => {
    const view = documentView(
      {
        ...invoice,
        lines: [
          {
            kind: "renewal",
            params: {
              id: 7,
              service: "My server",
              cycle: "monthly",
              from: "2026-11-01T10:00:00.000Z",
              until: "2026-12-01T10:00:00.000Z",
              renewal: 3,
            },
            quantity: 1,
            unitCents: 950,
            totalCents: 950,
          },
          {
            kind: "topUp",
            params: { reference: "TU-7K2M", method: "Orange Money" },
            quantity: 1,
            unitCents: 500,
            totalCents: 500,
          },
        ],
      },
      tools,
    );
    expect(view.lines.map((line) => line.description)).toEqual([
      'lines.renewal {"id":7,"service":"My server","cycle":"<monthly>","from":"2026-11-01","until":"2026-12-01","renewal":3}',
      'lines.topUp {"reference":"TU-7K2M","method":"Orange Money"}',
    ]);
  });

  it("gives the page a long date in the reader's language, and the PDF the same in the site's time zone", () => {
    const tOrders = (key: string) => `orders:${key}`;
    // Midday UTC: the same day in the browser's zone, whichever it is.
    const page = documentViewTools({ t, tOrders, locale: "en" });
    expect(page.date("2026-11-24T12:00:00.000Z")).toBe("24 November 2026");
    // 20:00 UTC is already the next day in Tokyo (UTC+9).
    const pdf = documentViewTools({ t, tOrders, locale: "fr", timeZone: "Asia/Tokyo" });
    expect(pdf.date("2026-11-24T20:00:00.000Z")).toBe("25 novembre 2026");
  });
});

describe("the term a renewal's invoice paid for", () => {
  const renewal = {
    kind: "invoice" as const,
    hostingServiceId: 7,
    lines: [
      {
        kind: "renewal" as const,
        params: {
          id: 7,
          service: "My server",
          cycle: "monthly",
          from: "2026-11-01T10:00:00.000Z",
          until: "2026-12-01T10:00:00.000Z",
        },
        quantity: 1,
        unitCents: 950,
        totalCents: 950,
      },
    ],
  };

  it("is read from the renewal's line, and only from a renewal's invoice", () => {
    expect(renewalTermOf(renewal)).toEqual({
      serviceId: 7,
      service: "My server",
      from: "2026-11-01T10:00:00.000Z",
      until: "2026-12-01T10:00:00.000Z",
      renewalId: null,
    });
    // A line that names its renewal (since 2026-11-27); anything but a whole number is not a name.
    const named = (value: string | number) => ({
      ...renewal,
      lines: [{ ...renewal.lines[0]!, params: { ...renewal.lines[0]!.params, renewal: value } }],
    });
    expect(renewalTermOf(named(12))?.renewalId).toBe(12);
    for (const value of ["12", 1.5, -0.5])
      expect(renewalTermOf(named(value))?.renewalId).toBeNull();
    expect(renewalTermOf({ ...renewal, kind: "credit_note" })).toBeNull();
    expect(renewalTermOf({ ...renewal, hostingServiceId: null })).toBeNull();
    const order = { ...renewal.lines[0]!, kind: "order" as const, params: { product: "x" } };
    expect(renewalTermOf({ ...renewal, lines: [order] })).toBeNull();
  });

  it("is read from the renewal's line wherever it stands, and needs both its dates", () => {
    const line = renewal.lines[0]!;
    const discount = {
      kind: "discount" as const,
      params: { code: "LOYAL" },
      quantity: 1,
      unitCents: -50,
      totalCents: -50,
    };
    expect(renewalTermOf({ ...renewal, lines: [discount, line] })).toEqual({
      serviceId: 7,
      service: "My server",
      from: "2026-11-01T10:00:00.000Z",
      until: "2026-12-01T10:00:00.000Z",
      renewalId: null,
    });
    const withParams = (params: Record<string, string | number>) => ({
      ...renewal,
      lines: [{ ...line, params }],
    });
    const { from, until } = line.params;
    expect(renewalTermOf(withParams({ id: 7, service: "My server", until }))).toBeNull();
    expect(renewalTermOf(withParams({ id: 7, service: "My server", from }))).toBeNull();
    expect(renewalTermOf(withParams({ id: 7, service: "My server" }))).toBeNull();
    // A line without the service's name still gives the term, under no name.
    expect(renewalTermOf(withParams({ id: 7, from, until }))?.service).toBe("");
  });

  it("can be taken back while it ends the service, which is not terminated", () => {
    const term = renewalTermOf(renewal)!;
    // The same moment written another way (compared as a moment, not as text).
    expect(canTakeBackTerm(term, { expiresAt: "2026-12-01T10:00:00Z", status: "active" })).toBe(
      true,
    );
    expect(canTakeBackTerm(term, { expiresAt: term.until, status: "suspended" })).toBe(true);
    expect(canTakeBackTerm(term, { expiresAt: term.until, status: "terminated" })).toBe(false);
    expect(canTakeBackTerm(term, { expiresAt: "2027-01-01T10:00:00.000Z", status: "active" })).toBe(
      false,
    );
    expect(canTakeBackTerm(term, undefined)).toBe(false);
  });

  it("restores the suspension a renewal lifted, with the time it had left, only on a service running since", () => {
    const renewal = {
      reactivatedSuspendedAt: "2026-01-10T08:00:00.000Z",
      renewedAt: "2026-01-15T08:00:00.000Z",
    };
    // Renewed five days into its suspension, refunded six days later: suspended again as if for five
    // days, not eleven (the termination and its warning as far off as when it was renewed).
    const refundAt = new Date("2026-01-21T08:00:00.000Z");
    expect(suspensionToRestore(renewal, "active", refundAt)).toBe("2026-01-16T08:00:00.000Z");
    expect(suspensionToRestore(renewal, "active", new Date(renewal.renewedAt))).toBe(
      renewal.reactivatedSuspendedAt,
    );
    // An admin suspended it since: that suspension stays.
    expect(suspensionToRestore(renewal, "suspended", refundAt)).toBeNull();
    // The renewal lifted none, is from before what it lifted was kept, or has no row.
    expect(
      suspensionToRestore({ ...renewal, reactivatedSuspendedAt: null }, "active", refundAt),
    ).toBeNull();
    expect(suspensionToRestore(undefined, "active", refundAt)).toBeNull();
  });

  describe("switching its automatic renewal off, as the refund form ticks it", () => {
    const byTheCustomer = { automatic: false, renewsAtNextRun: false, suspendsAgain: false };

    it("is ticked for a renewal the lifecycle made, which the customer did not ask for", () => {
      expect(stopsAutoRenewByDefault({ ...byTheCustomer, automatic: true })).toBe(true);
      expect(
        stopsAutoRenewByDefault({ ...byTheCustomer, automatic: true, renewsAtNextRun: true }),
      ).toBe(true);
    });

    it("is ticked for the customer's renewal when the expiry it goes back to is due at the next run", () => {
      expect(stopsAutoRenewByDefault({ ...byTheCustomer, renewsAtNextRun: true })).toBe(true);
    });

    it("is left unticked for the customer's renewal not due yet (renewed twice by mistake)", () => {
      expect(stopsAutoRenewByDefault(byTheCustomer)).toBe(false);
    });

    it("is left unticked for a service suspended again, whoever renewed it and whenever it is due", () => {
      for (const automatic of [false, true])
        for (const renewsAtNextRun of [false, true])
          expect(stopsAutoRenewByDefault({ automatic, renewsAtNextRun, suspendsAgain: true })).toBe(
            false,
          );
    });
  });
});
