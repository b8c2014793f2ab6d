import { describe, expect, it } from "vitest";
import enCoins from "~/i18n/locales/en/coins.json";
import { adminTicketActionSchema } from "~/domain/tickets/tickets.schemas";
import {
  MAX_ADJUSTMENT_CENTS,
  MAX_BALANCE_CENTS,
  coinAmountFault,
  parseCoinAmount,
  previewAdjustment,
} from "./coins";
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

describe("an admin's coin form at its edges", () => {
  const key = "0123456789abcdef";
  const form = { userId: "u1", amount: "5", reason: "r", idempotencyKey: key };
  const refusal = (input: Record<string, unknown>) =>
    adjustCoinsSchema.safeParse(input).error?.issues[0]?.message;

  it("says which field is wrong, with the message of that field", () => {
    expect(refusal({ ...form, amount: undefined })).toBe("coins.errors.amountInvalid");
    expect(refusal({ ...form, userId: undefined })).toBe("coins.errors.userRequired");
    expect(refusal({ ...form, userId: "  " })).toBe("coins.errors.userRequired");
    expect(refusal({ ...form, reason: " " })).toBe("coins.errors.reasonRequired");
    expect(refusal({ ...form, reason: "r".repeat(501) })).toBe("coins.errors.reasonTooLong");
    expect(adjustCoinsSchema.safeParse({ ...form, reason: "r".repeat(500) }).success).toBe(true);
  });

  it("takes a form key of 16 to 100 characters, and calls any other an expired form", () => {
    // Spaces around a key are not part of it: 15 characters padded to 17 are still too short.
    for (const idempotencyKey of [
      undefined,
      "0123456789abcde",
      " 0123456789abcde ",
      "k".repeat(101),
    ])
      expect(refusal({ ...form, idempotencyKey }), String(idempotencyKey)).toBe(
        "coins.errors.formExpired",
      );
    for (const idempotencyKey of [key, "k".repeat(100)])
      expect(adjustCoinsSchema.safeParse({ ...form, idempotencyKey }).success).toBe(true);
  });

  it("reads a comma as the decimal point, spaces around the amount, and a one-digit fraction", () => {
    expect(parseCoinAmount(" 12,5 ")).toBe(1250);
    expect(parseCoinAmount("7.5")).toBe(750);
    expect(parseCoinAmount("+3")).toBe(300);
  });

  it("calls an amount too large only past the limit, and only when all of it is a number", () => {
    expect(coinAmountFault("1000000")).toBe("invalid");
    expect(coinAmountFault(" 1000000,01 ")).toBe("tooLarge");
    expect(coinAmountFault("1,001")).toBe("tooPrecise");
    for (const text of ["x1000001", "1000001x"])
      expect(coinAmountFault(text), text).toBe("invalid");
  });
});

describe("previewAdjustment", () => {
  it("clamps only below zero: a removal of the whole balance is not clamped", () => {
    expect(previewAdjustment(500, -500)).toMatchObject({ newTotalCents: 0, clamped: false });
    expect(previewAdjustment(500, -501)).toMatchObject({ newTotalCents: 0, clamped: true });
  });

  it("says when a change would take the balance past the maximum", () => {
    expect(previewAdjustment(MAX_BALANCE_CENTS - 100, 100).overMaximum).toBe(false);
    expect(previewAdjustment(MAX_BALANCE_CENTS - 100, 101).overMaximum).toBe(true);
    expect(previewAdjustment(MAX_BALANCE_CENTS + 500, -100).overMaximum).toBe(false);
    // Over the maximum already (set before it existed), a change that adds nothing is not refused.
    expect(previewAdjustment(MAX_BALANCE_CENTS + 500, 0).overMaximum).toBe(false);
  });

  it("names the maximum in its message", () => {
    const coins = (MAX_BALANCE_CENTS / 100).toLocaleString("en-US");
    expect(enCoins.errors.balanceTooHigh).toContain(coins);
    expect(enCoins.errors.creditInvalid).toContain(
      (MAX_ADJUSTMENT_CENTS / 100).toLocaleString("en-US"),
    );
  });
});
