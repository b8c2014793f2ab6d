import { describe, expect, it } from "vitest";
import {
  topUpActionSchema,
  topUpDecisionSchema,
  topUpPageQuerySchema,
  topUpQueueQuerySchema,
} from "./top-ups.schemas";

const messageOf = (result: { error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe("a customer's top-up forms", () => {
  it("names what is wrong with each field", () => {
    const paid = {
      intent: "paid",
      requestId: "4",
      payerAccount: "0612345678",
      paidOn: "2026-11-27",
    };
    const cases: [Record<string, unknown>, string][] = [
      [{ intent: "request", methodId: "x", coins: "10" }, "payments.errors.methodRequired"],
      [{ ...paid, requestId: "x" }, "payments.errors.topUpNotFound"],
      [{ ...paid, payerAccount: "a".repeat(101) }, "payments.errors.payerAccountTooLong"],
      [{ ...paid, paidOn: undefined }, "payments.errors.paidOnInvalid"],
      [{ ...paid, paidOn: "2026-1-27" }, "payments.errors.paidOnInvalid"],
      // A date to JavaScript (an extended year), not a day typed in the form.
      [{ ...paid, paidOn: "+002026-11-27" }, "payments.errors.paidOnInvalid"],
      [{ ...paid, paidOn: "2026-13-01" }, "payments.errors.paidOnInvalid"],
      [{ intent: "cancel", requestId: "0" }, "payments.errors.topUpNotFound"],
    ];
    for (const [fields, message] of cases)
      expect(messageOf(topUpActionSchema.safeParse(fields)), JSON.stringify(fields)).toBe(message);
    expect(topUpActionSchema.parse({ ...paid, paidOn: " 2026-11-27 " })).toEqual({
      intent: "paid",
      requestId: 4,
      payerAccount: "0612345678",
      paidOn: "2026-11-27",
    });
    expect(topUpActionSchema.parse({ intent: "cancel", requestId: "4" })).toEqual({
      intent: "cancel",
      requestId: 4,
    });
  });
});

describe("an admin's top-up decisions and queue", () => {
  it("approves the asked coins when the field is left empty, another number when typed", () => {
    const approve = { intent: "approve", requestId: "4" };
    for (const coins of [undefined, "", "  "])
      expect(topUpDecisionSchema.parse({ ...approve, coins }), String(coins)).toEqual({
        intent: "approve",
        requestId: 4,
      });
    expect(topUpDecisionSchema.parse({ ...approve, coins: "12" })).toEqual({
      intent: "approve",
      requestId: 4,
      coins: 12,
    });
    expect(
      messageOf(
        topUpDecisionSchema.safeParse({
          intent: "reject",
          requestId: "4",
          reason: "r".repeat(501),
        }),
      ),
    ).toBe("payments.errors.reasonTooLong");
  });

  it("keeps a method's id and a state in the queue's filter, dropping what is not one", () => {
    expect(topUpQueueQuerySchema.parse({ state: "proof_sent", method: "12", page: "2" })).toEqual({
      state: "proof_sent",
      method: "12",
      page: 2,
    });
    for (const method of ["x12", "12x", "1234567890", ""])
      expect(topUpQueueQuerySchema.parse({ method }).method, method).toBeUndefined();
  });
});

describe("the top-up page's ?coins=", () => {
  const coinsOf = (coins: unknown) => topUpPageQuerySchema.parse({ coins }).coins;

  it("reads a shortfall as the Add coins links write it, rounded up to whole coins", () => {
    expect(coinsOf("3.50")).toBe(4);
    expect(coinsOf("3.5")).toBe(4);
    expect(coinsOf("3.01")).toBe(4);
    expect(coinsOf("3.00")).toBe(3);
    expect(coinsOf("3")).toBe(3);
    expect(coinsOf("0.01")).toBe(1);
    expect(coinsOf("9999.99")).toBe(10_000);
    expect(coinsOf("10000")).toBe(10_000);
  });

  it("ignores anything else, never refusing the page", () => {
    for (const garbage of [
      undefined,
      "",
      "0",
      "0.00",
      "-3.50",
      "10000.01",
      "99999999",
      "3,50",
      "3.505",
      " 3.50",
      "3.50abc",
      "1e3",
      "Infinity",
      "NaN",
      "0x10",
      "٣",
      ["3.50", "4"],
    ])
      expect(coinsOf(garbage), JSON.stringify(garbage)).toBeUndefined();
    // Other parameters are no business of its.
    expect(topUpPageQuerySchema.parse({ coins: "2.10", lang: "fr" })).toEqual({ coins: 3 });
  });
});
