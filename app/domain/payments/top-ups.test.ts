import { describe, expect, it } from "vitest";
import {
  isOpenTopUp,
  isReference,
  makeReference,
  paidOnProblem,
  REFERENCE_ALPHABET,
  shortfallParam,
  startingTopUpCoins,
  TOP_UP_STATES,
} from "./top-ups";
import { topUpActionSchema, topUpDecisionSchema } from "./top-ups.schemas";

describe("top-up references", () => {
  it("are TU- and five letters that cannot be read as others", () => {
    for (const ambiguous of ["0", "O", "1", "I", "L"])
      expect(REFERENCE_ALPHABET).not.toContain(ambiguous);
    for (let i = 0; i < 200; i++) expect(isReference(makeReference())).toBe(true);
    expect(makeReference(() => new Uint8Array(10))).toBe("TU-22222");
    expect(makeReference(() => new Uint8Array(10).fill(255))).toMatch(/^TU-[A-Z2-9]{5}$/);
    expect(isReference("TU-7K3Q9")).toBe(true);
    expect(isReference("TU-7K3Q0")).toBe(false);
    expect(isReference("tu-7k3q9")).toBe(false);
    expect(isReference("TU-7K3Q99")).toBe(false);
  });

  it("take two bytes a letter, high byte first, in order", () => {
    const asked: number[] = [];
    const random = (n: number) => {
      asked.push(n);
      return Uint8Array.from([0, 1, 0, 30, 1, 0, 0x12, 0x34, 0xff, 0xff].slice(0, n));
    };
    // 1, 30, 256, 4660 and 65535, each modulo the 31 letters: 1, 30, 8, 10 and 1.
    expect(makeReference(random)).toBe("TU-3ZAC3");
    expect(asked).toEqual([10]);
  });
});

describe("top-up states", () => {
  it("are open while waiting for payment or proof checked", () => {
    expect(TOP_UP_STATES.filter(isOpenTopUp)).toEqual(["waiting_payment", "proof_sent"]);
  });
});

describe("the date paid", () => {
  it("is not after tomorrow, nor more than 60 days ago", () => {
    expect(paidOnProblem("2026-11-24", "2026-11-24")).toBeNull();
    expect(paidOnProblem("2026-11-25", "2026-11-24")).toBeNull();
    expect(paidOnProblem("2026-11-26", "2026-11-24")).toBe("payments.errors.paidOnFuture");
    expect(paidOnProblem("2026-09-25", "2026-11-24")).toBeNull();
    expect(paidOnProblem("2026-09-24", "2026-11-24")).toBe("payments.errors.paidOnTooOld");
  });
});

describe("the forms", () => {
  it("read whole coins and refuse the rest with a message key", () => {
    expect(topUpActionSchema.parse({ intent: "request", methodId: "3", coins: " 10 " })).toEqual({
      intent: "request",
      methodId: 3,
      coins: 10,
    });
    // Typed on an Arabic keyboard.
    expect(topUpActionSchema.parse({ intent: "request", methodId: "3", coins: "٣٠" })).toEqual({
      intent: "request",
      methodId: 3,
      coins: 30,
    });
    for (const coins of ["", "1.5", "-2", "abc", "1e3"]) {
      const result = topUpActionSchema.safeParse({ intent: "request", methodId: "3", coins });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("payments.errors.coinsNotWhole");
    }
    // A whole number, out of the site's range: the message gives the range.
    for (const coins of ["0", "10001", "2000000", "99999999999999999999"]) {
      const result = topUpActionSchema.safeParse({ intent: "request", methodId: "3", coins });
      expect(result.success).toBe(false);
      expect(result.error?.issues[0]?.message).toBe("payments.errors.coinsInvalid");
    }
    const paid = topUpActionSchema.safeParse({
      intent: "paid",
      requestId: "1",
      payerAccount: " ",
      paidOn: "24/11/2026",
    });
    expect([...new Set(paid.error?.issues.map((issue) => issue.message))].sort()).toEqual([
      "payments.errors.paidOnInvalid",
      "payments.errors.payerAccountRequired",
    ]);
  });

  it("approve with the asked coins when none are typed, and need a reason to reject", () => {
    expect(topUpDecisionSchema.parse({ intent: "approve", requestId: "4", coins: "" })).toEqual({
      intent: "approve",
      requestId: 4,
      coins: undefined,
    });
    expect(
      topUpDecisionSchema.parse({ intent: "approve", requestId: "4", coins: "8" }),
    ).toMatchObject({
      coins: 8,
    });
    expect(
      topUpDecisionSchema.parse({ intent: "approve", requestId: "4", coins: "٥٠" }),
    ).toMatchObject({
      coins: 50,
    });
    // Each refusal with the coins field's own message, never zod's "Invalid input".
    for (const [coins, message] of [
      ["2000000", "payments.errors.coinsInvalid"],
      ["0", "payments.errors.coinsInvalid"],
      ["abc", "payments.errors.coinsNotWhole"],
      ["-5", "payments.errors.coinsNotWhole"],
    ]) {
      const result = topUpDecisionSchema.safeParse({ intent: "approve", requestId: "4", coins });
      expect(result.error?.issues.map((issue) => [issue.path, issue.message])).toEqual([
        [["coins"], message],
      ]);
    }
    expect(
      topUpDecisionSchema.safeParse({ intent: "reject", requestId: "4", reason: "  " }).error
        ?.issues[0]?.message,
    ).toBe("payments.errors.reasonRequired");
  });
});

describe("a shortfall carried to the top-up form", () => {
  it("is written in coins with two decimals", () => {
    expect(shortfallParam(350)).toBe("3.50");
    expect(shortfallParam(5)).toBe("0.05");
    expect(shortfallParam(1_000_000)).toBe("10000.00");
    expect(shortfallParam(0)).toBe("0.00");
  });

  it("starts the form at the method's minimum at least and its maximum at most", () => {
    const method = { minCoins: 5, maxCoins: 50 };
    expect(startingTopUpCoins(4, method)).toBe(5);
    expect(startingTopUpCoins(12, method)).toBe(12);
    expect(startingTopUpCoins(80, method)).toBe(50);
    expect(startingTopUpCoins(4, { minCoins: 1, maxCoins: 1000 })).toBe(4);
  });
});
