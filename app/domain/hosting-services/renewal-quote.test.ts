import { describe, expect, it } from "vitest";
import { NO_VAT } from "~/domain/invoices/invoices";
import { renewalAmounts, renewalExpiry, renewalQuote } from "./hosting-services";

const service = {
  id: 7,
  name: "SAMP Premium",
  serverName: "Los Santos RP",
  billingCycle: "monthly" as const,
  cyclePriceCents: 1350,
};

describe("renewalExpiry", () => {
  it("adds one term to the current expiry of a service that has not expired", () => {
    const now = new Date("2026-04-01T09:00:00.000Z");
    // April has 30 days: a month from 10 April is 10 May whether a term is counted in days or months.
    expect(renewalExpiry("2026-04-10T12:00:00.000Z", "monthly", now)).toBe(
      "2026-05-10T12:00:00.000Z",
    );
  });

  it("starts an expired service's term from now, not from its old expiry", () => {
    const now = new Date("2026-04-10T12:00:00.000Z");
    const expired = "2026-03-01T12:00:00.000Z";
    expect(renewalExpiry(expired, "monthly", now)).toBe(
      renewalExpiry(now.toISOString(), "monthly", now),
    );
    expect(renewalExpiry(expired, "monthly", now)).toBe("2026-05-10T12:00:00.000Z");
  });

  it("gives a longer cycle a later expiry", () => {
    const now = new Date("2026-04-10T12:00:00.000Z");
    const from = "2026-04-10T12:00:00.000Z";
    const ends = (["monthly", "quarterly", "semiannual", "annual"] as const).map((cycle) =>
      Date.parse(renewalExpiry(from, cycle, now)),
    );
    expect([...ends].sort((a, b) => a - b)).toEqual(ends);
    expect(new Set(ends).size).toBe(4);
  });
});

describe("renewalQuote", () => {
  const now = new Date("2026-04-01T09:00:00.000Z");
  const expiresAt = "2026-04-10T12:00:00.000Z";

  it("says the price, the new expiry and the balance after", () => {
    expect(renewalQuote({ ...service, expiresAt }, 2000, now, NO_VAT)).toEqual({
      serviceId: 7,
      name: "SAMP Premium",
      serverName: "Los Santos RP",
      billingCycle: "monthly",
      priceCents: 1350,
      amounts: {
        pricesIncludeVat: true,
        vatRateBp: 0,
        subtotalCents: 1350,
        vatCents: 0,
        totalCents: 1350,
      },
      currentExpiresAt: expiresAt,
      expired: false,
      newExpiresAt: renewalExpiry(expiresAt, "monthly", now),
      balanceCents: 2000,
      balanceAfterCents: 650,
      missingCents: 0,
      endsAtTerm: false,
    });
  });

  it("says when the service is set to end at its term", () => {
    expect(renewalQuote({ ...service, expiresAt }, 2000, now, NO_VAT, true).endsAtTerm).toBe(true);
  });

  it("renews with exactly the price, down to zero", () => {
    const quote = renewalQuote({ ...service, expiresAt }, 1350, now, NO_VAT);
    expect(quote.balanceAfterCents).toBe(0);
    expect(quote.missingCents).toBe(0);
  });

  it("says what a short balance lacks, and no balance after", () => {
    const quote = renewalQuote({ ...service, expiresAt }, 914, now, NO_VAT);
    expect(quote.missingCents).toBe(436);
    expect(quote.balanceAfterCents).toBeNull();
    expect(quote.priceCents).toBe(1350);
  });

  it("costs nothing for a free service", () => {
    const quote = renewalQuote({ ...service, cyclePriceCents: 0, expiresAt }, 0, now, NO_VAT);
    expect(quote).toMatchObject({ missingCents: 0, balanceAfterCents: 0 });
  });

  it("says an expiry that has passed is past, and renews from now", () => {
    const later = new Date("2026-04-20T09:00:00.000Z");
    const quote = renewalQuote({ ...service, expiresAt }, 2000, later, NO_VAT);
    expect(quote.expired).toBe(true);
    expect(quote.currentExpiresAt).toBe(expiresAt);
    expect(quote.newExpiresAt).toBe(renewalExpiry(later.toISOString(), "monthly", later));
    // At the very moment it expires it is past, as the services list and the badge say.
    expect(renewalQuote({ ...service, expiresAt }, 2000, new Date(expiresAt), NO_VAT).expired).toBe(
      true,
    );
  });
});

describe("the one renewal price", () => {
  const now = new Date("2026-04-01T09:00:00.000Z");
  const expiresAt = "2026-04-10T12:00:00.000Z";
  const excluded = { rateBp: 2000, pricesIncludeVat: false };
  const included = { rateBp: 2000, pricesIncludeVat: true };

  it("adds the VAT when prices exclude it: the quote asks for what the charge takes", () => {
    expect(renewalAmounts(1350, excluded)).toEqual({
      pricesIncludeVat: false,
      vatRateBp: 2000,
      subtotalCents: 1350,
      vatCents: 270,
      totalCents: 1620,
    });
    const quote = renewalQuote({ ...service, expiresAt }, 2000, now, excluded);
    expect(quote.priceCents).toBe(1620);
    expect(quote.balanceAfterCents).toBe(380);
    // 13.50 covered, 16.20 not: the balance is short of the total, not of the cycle price.
    expect(renewalQuote({ ...service, expiresAt }, 1500, now, excluded)).toMatchObject({
      missingCents: 120,
      balanceAfterCents: null,
    });
  });

  it("keeps the price when prices include the VAT: the VAT is part of it", () => {
    expect(renewalAmounts(1350, included)).toMatchObject({ vatCents: 225, totalCents: 1350 });
    expect(renewalQuote({ ...service, expiresAt }, 2000, now, included).priceCents).toBe(1350);
  });
});
