import { describe, expect, it } from "vitest";
import enCoins from "~/i18n/locales/en/coins.json";
import { adminTicketActionSchema } from "~/domain/tickets/tickets.schemas";
import { MAX_ADJUSTMENT_CENTS, MAX_BALANCE_CENTS, previewAdjustment } from "./coins";
import { adjustCoinsSchema, coinAmountSchema } from "./coins.schemas";

describe("coin amounts", () => {
  it("admits a change of up to MAX_ADJUSTMENT_CENTS either way, and a credit only upwards", () => {
    const change = coinAmountSchema();
    const credit = coinAmountSchema({ credit: true });
    expect(change.parse("-2.50")).toBe(-250);
    // Typed on an Arabic keyboard: Arabic-Indic digits and the Arabic decimal separator.
    expect(change.parse("٥٠")).toBe(5000);
    expect(change.parse("-٢٫٥٠")).toBe(-250);
    expect(credit.parse("۱۲")).toBe(1200);
    expect(change.safeParse("٠٫٠٠١").error?.issues[0]?.message).toBe(
      "coins.errors.amountTooPrecise",
    );
    expect(change.parse("1000000")).toBe(MAX_ADJUSTMENT_CENTS);
    expect(credit.parse("1000000")).toBe(MAX_ADJUSTMENT_CENTS);
    for (const text of ["0", "abc", "1e9", "-0", "1.2.3", ""])
      expect(change.safeParse(text).error?.issues[0]?.message, text).toBe(
        "coins.errors.amountInvalid",
      );
    // Beyond the limit, or finer than a cent: the message says which, not "enter a non-zero amount".
    for (const text of ["1000000.01", "999999999", "-1000000.01", "1000000000", "999999999999"])
      expect(change.safeParse(text).error?.issues[0]?.message, text).toBe(
        "coins.errors.amountTooLarge",
      );
    for (const text of ["0.001", "-2.505", "1,999"])
      expect(change.safeParse(text).error?.issues[0]?.message, text).toBe(
        "coins.errors.amountTooPrecise",
      );
    for (const text of ["-5", "0", "1000000.01", "999999999"])
      expect(credit.safeParse(text).error?.issues[0]?.message, text).toBe(
        "coins.errors.creditInvalid",
      );
  });

  it("makes both admin coin forms carry a key", () => {
    const form = { userId: "u1", amount: "5", reason: "r" };
    expect(adjustCoinsSchema.safeParse(form).error?.issues[0]?.message).toBe(
      "coins.errors.formExpired",
    );
    expect(
      adjustCoinsSchema.safeParse({ ...form, idempotencyKey: "0123456789abcdef" }).success,
    ).toBe(true);
    const ticket = { intent: "coins", amount: "5" };
    expect(adminTicketActionSchema.safeParse(ticket).error?.issues[0]?.message).toBe(
      "coins.errors.formExpired",
    );
    expect(
      adminTicketActionSchema.safeParse({ ...ticket, idempotencyKey: "0123456789abcdef" }).data,
    ).toMatchObject({ amount: 500 });
  });
});

describe("previewAdjustment", () => {
  it("says when a change would take the balance past the maximum", () => {
    expect(previewAdjustment(MAX_BALANCE_CENTS - 100, 100).overMaximum).toBe(false);
    expect(previewAdjustment(MAX_BALANCE_CENTS - 100, 101).overMaximum).toBe(true);
    expect(previewAdjustment(MAX_BALANCE_CENTS + 500, -100).overMaximum).toBe(false);
  });

  it("names the maximum in its message", () => {
    const coins = (MAX_BALANCE_CENTS / 100).toLocaleString("en-US");
    expect(enCoins.errors.balanceTooHigh).toContain(coins);
    expect(enCoins.errors.creditInvalid).toContain(
      (MAX_ADJUSTMENT_CENTS / 100).toLocaleString("en-US"),
    );
  });
});
