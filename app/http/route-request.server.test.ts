import { describe, expect, it } from "vitest";
import { z } from "zod";
import { invalidForm, permissionForIntent, queryOf, refusal } from "./route-request.server";

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

describe("permissionForIntent", () => {
  it("asks one permission of every intent when the access names one", () => {
    for (const intent of ["approve", "reject", "", undefined, null, 12, "constructor"])
      expect(permissionForIntent("orders.decide", intent)).toBe("orders.decide");
  });

  it("asks nothing more than being staff when the access is null", () => {
    for (const intent of ["approve", undefined])
      expect(permissionForIntent(null, intent)).toBeNull();
  });

  it("asks a named intent's own permission, and any other intent the default's", () => {
    const access = { "*": "clients.edit", coins: "coins.adjust", note: "clients.view" } as const;
    expect(permissionForIntent(access, "coins")).toBe("coins.adjust");
    expect(permissionForIntent(access, "note")).toBe("clients.view");
    expect(permissionForIntent(access, "delete")).toBe("clients.edit");
    expect(permissionForIntent(access, "matrix-probe")).toBe("clients.edit");
  });

  it("reads a missing or crafted intent as the default's, never as a free pass", () => {
    const access = { "*": "topups.decide", refund: "invoices.refund" } as const;
    for (const intent of [undefined, null, "", 7, ["refund"], { refund: true }])
      expect(permissionForIntent(access, intent), JSON.stringify(intent)).toBe("topups.decide");
    // Names an object has of its own prototype are no intent of the access.
    for (const intent of ["constructor", "toString", "__proto__", "hasOwnProperty"])
      expect(permissionForIntent(access, intent), intent).toBe("topups.decide");
    // "*" sent as an intent asks what "*" names: the default, nothing less.
    expect(permissionForIntent(access, "*")).toBe("topups.decide");
  });

  it("lets a named intent ask nothing more than being staff when the access says so", () => {
    const access = { "*": "settings.manage", ping: null } as const;
    expect(permissionForIntent(access, "ping")).toBeNull();
    expect(permissionForIntent(access, "save")).toBe("settings.manage");
    expect(permissionForIntent({ "*": null }, "anything")).toBeNull();
  });
});
