import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidForm, queryOf, refusal } from "./route-request.server";

describe("queryOf", () => {
  it("reads a list query from the address with the schema's defaults", () => {
    const schema = z.object({ q: z.string().optional(), page: z.coerce.number().default(1) });
    expect(queryOf(new URL("http://x/admin/list?q=abc&page=3"), schema)).toEqual({
      q: "abc",
      page: 3,
    });
    expect(queryOf(new URL("http://x/admin/list"), schema)).toEqual({ page: 1 });
  });
});

describe("invalidForm", () => {
  it("answers 400 with the first field message, else the fallback", () => {
    const first = invalidForm({ id: "orders.errors.notFound" }, "orders.errors.required");
    expect(first.init?.status).toBe(400);
    expect(first.data).toEqual({ ok: false, message: "orders.errors.notFound" });
    expect(invalidForm({}, "orders.errors.required").data.message).toBe("orders.errors.required");
  });
});

describe("refusal", () => {
  it("answers with the status of the refusal's kind and what the page needs beside it", () => {
    const answer = refusal({ kind: "conflict", error: "orders.errors.notFound" }, { intent: "a" });
    expect(answer.init?.status).toBe(409);
    expect(answer.data).toEqual({ ok: false, intent: "a", message: "orders.errors.notFound" });
  });
});
