import { describe, expect, it } from "vitest";
import {
  adminInvoicesQuerySchema,
  documentNumberSchema,
  refundFormSchema,
} from "./invoices.schemas";

describe("the invoices' inputs", () => {
  it("reads the admin list's filters, ignoring what does not parse", () => {
    expect(
      adminInvoicesQuerySchema.parse({
        kind: "receipt",
        state: "credited",
        q: "HF-2026",
        page: "2",
      }),
    ).toEqual({ kind: "receipt", state: "credited", q: "HF-2026", page: 2 });
    expect(
      adminInvoicesQuerySchema.parse({ kind: "bill", state: "void", page: "x" }),
    ).toMatchObject({
      kind: undefined,
      state: undefined,
      page: 1,
    });
  });

  it("reads a document's number from its address in any case, and nothing else as one", () => {
    expect(documentNumberSchema.parse(" hfr-2026-000012 ")).toBe("HFR-2026-000012");
    expect(documentNumberSchema.parse("HF-2026-000001")).toBe("HF-2026-000001");
    for (const bad of ["HFX-2026-000001", "HF-2026-12", "x HF-2026-000001", ""])
      expect(documentNumberSchema.safeParse(bad).success, bad).toBe(false);
  });

  it("reads the refund form: a method, a reason of at most 500 characters, two boxes", () => {
    const form = { intent: "refund", method: "coins", reason: " Double charge " };
    expect(refundFormSchema.parse({ ...form, takeBackTerm: "on" })).toEqual({
      intent: "refund",
      method: "coins",
      reason: "Double charge",
      takeBackTerm: true,
      stopAutoRenew: false,
    });
    const message = (fields: Record<string, unknown>) =>
      refundFormSchema.safeParse({ ...form, ...fields }).error?.issues[0]?.message;
    expect(message({ method: "cash" })).toBe("invoices.errors.refundMethodRequired");
    expect(message({ reason: "  " })).toBe("invoices.errors.refundReasonRequired");
    expect(message({ reason: "r".repeat(501) })).toBe("invoices.errors.refundReasonTooLong");
    expect(message({ intent: "void" })).toBeDefined();
  });
});
