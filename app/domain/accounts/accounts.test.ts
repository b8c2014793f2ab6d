import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { homeFor, safeRedirect } from "./accounts";
import { changePasswordSchema, loginSchema, registerSchema } from "./accounts.schemas";
import { firstErrorsOf } from "../../../tests/support/form-errors";

describe("registerSchema", () => {
  const valid = {
    name: "  Amine  ",
    email: " Amine@Example.COM ",
    password: "secret1",
    confirmPassword: "secret1",
  };

  it("trims the name and lower-cases the email", () => {
    expect(registerSchema.parse(valid)).toMatchObject({
      name: "Amine",
      email: "amine@example.com",
    });
  });

  it("requires every field", () => {
    expect(firstErrorsOf(registerSchema, {})).toEqual({
      name: "errors.nameRequired",
      email: "errors.emailRequired",
      password: "errors.passwordRequired",
      confirmPassword: "errors.confirmRequired",
    });
    expect(firstErrorsOf(registerSchema, { ...valid, name: "   " })).toMatchObject({
      name: "errors.nameRequired",
    });
  });

  it("checks the email format", () => {
    expect(firstErrorsOf(registerSchema, { ...valid, email: "amine@" })).toEqual({
      email: "errors.emailInvalid",
    });
  });

  it("needs at least 6 characters and matching passwords", () => {
    expect(
      firstErrorsOf(registerSchema, { ...valid, password: "12345", confirmPassword: "12345" }),
    ).toEqual({
      password: "errors.passwordTooShort",
    });
    expect(firstErrorsOf(registerSchema, { ...valid, confirmPassword: "secret2" })).toEqual({
      confirmPassword: "errors.passwordsDoNotMatch",
    });
    expect(
      registerSchema.safeParse({ ...valid, password: "123456", confirmPassword: "123456" }).success,
    ).toBe(true);
  });

  it("refuses oversized input instead of passing it on", () => {
    const long = "x".repeat(129);
    expect(
      firstErrorsOf(registerSchema, { ...valid, password: long, confirmPassword: long }),
    ).toMatchObject({
      password: "errors.passwordTooLong",
    });
    expect(firstErrorsOf(registerSchema, { ...valid, name: "n".repeat(101) })).toMatchObject({
      name: "errors.nameTooLong",
    });
  });
});

describe("loginSchema", () => {
  it("requires an email and a password", () => {
    expect(firstErrorsOf(loginSchema, { email: "", password: "" })).toEqual({
      email: "errors.emailRequired",
      password: "errors.passwordRequired",
    });
  });
});

describe("changePasswordSchema", () => {
  it("needs a new password that differs and is confirmed", () => {
    expect(
      firstErrorsOf(changePasswordSchema, {
        currentPassword: "abcdef",
        newPassword: "abcdef",
        confirmPassword: "abcdef",
      }),
    ).toEqual({ newPassword: "errors.passwordUnchanged" });
    expect(
      firstErrorsOf(changePasswordSchema, {
        currentPassword: "abcdef",
        newPassword: "ghijkl",
        confirmPassword: "x",
      }),
    ).toEqual({ confirmPassword: "errors.passwordsDoNotMatch" });
  });
});

describe("redirects", () => {
  it("sends admins to /admin and everyone else to /dashboard", () => {
    expect(homeFor("admin")).toBe("/admin");
    expect(homeFor("user")).toBe("/dashboard");
  });

  it("only follows same-site paths", () => {
    expect(safeRedirect("/dashboard?tab=billing", "/x")).toBe("/dashboard?tab=billing");
    expect(safeRedirect("https://evil.example", "/x")).toBe("/x");
    expect(safeRedirect("//evil.example", "/x")).toBe("/x");
    expect(safeRedirect("/\\evil.example", "/x")).toBe("/x");
    expect(safeRedirect(undefined, "/x")).toBe("/x");
  });

  // Each target a browser (or a layer that decodes first) could read as another site, or as nothing of ours.
  const shown = (target: string) => JSON.stringify(target).slice(0, 40);
  for (const [target, why] of [
    ["/\t/evil.example", "a tab, which browsers drop: //evil.example"],
    ["/\n/evil.example", "a line feed"],
    ["/\r/evil.example", "a carriage return"],
    ["/\r\n/evil.example", "CR LF (header splitting)"],
    ["/dashboard\t", "a tab at the end"],
    ["\t//evil.example", "a tab in front"],
    ["/da\u0000shboard", "NUL"],
    ["/\u007f/evil.example", "DEL"],
    ["/\u0085/evil.example", "a C1 control (NEL)"],
    ["/\\evil.example", "a backslash, read as a slash"],
    ["/\\/evil.example", "backslash then slash"],
    ["\\\\evil.example", "two backslashes"],
    ["/dashboard\\x", "a backslash anywhere"],
    ["/%09/evil.example", "an encoded tab"],
    ["/%0a/evil.example", "an encoded line feed"],
    ["/%2F%2Fevil.example", "encoded slashes"],
    ["/%2f/evil.example", "an encoded slash after the first"],
    ["/%5Cevil.example", "an encoded backslash"],
    ["/%5c%5cevil.example", "encoded backslashes"],
    ["/.//evil.example", "a dot segment that normalises to //"],
    ["/./\\evil.example", "a dot segment then a backslash"],
    ["/%2e//evil.example", "an encoded dot segment that normalises to //"],
    ["/a/..//evil.example", "a parent segment that normalises to //"],
    ["//evil.example", "protocol-relative"],
    ["///evil.example", "three slashes"],
    ["////evil.example", "four slashes"],
    ["https://evil.example", "another origin"],
    ["http:evil.example", "a scheme without slashes"],
    ["javascript:alert(1)", "javascript:"],
    ["JaVaScRiPt:alert(1)", "javascript: in mixed case"],
    ["data:text/html,<script>alert(1)</script>", "data:"],
    ["dashboard", "a relative path"],
    ["?tab=billing", "a bare query"],
    ["#top", "a bare hash"],
    ["", "empty"],
    [" /dashboard", "leading space"],
    ["/%E0%A4%A", "a malformed escape"],
    [`/${"a".repeat(2000)}`, "over-long"],
    [`/${"é".repeat(800)}`, "over-long once percent-encoded"],
  ] as const) {
    it(`refuses ${shown(target)} (${why})`, () => {
      expect(safeRedirect(target, "/fallback")).toBe("/fallback");
    });
  }

  it("refuses what is not a string", () => {
    for (const target of [undefined, null, 42, ["/dashboard"], { toString: () => "/dashboard" }])
      expect(safeRedirect(target, "/fallback")).toBe("/fallback");
  });

  it.each([
    ["/", "/"],
    ["/dashboard", "/dashboard"],
    ["/dashboard?tab=billing&page=2", "/dashboard?tab=billing&page=2"],
    ["/admin/clients?q=a%20b#row-3", "/admin/clients?q=a%20b#row-3"],
    ["/support/12?opened=1#reply", "/support/12?opened=1#reply"],
    ["/services/vps?redirectTo=//evil.example", "/services/vps?redirectTo=//evil.example"],
    ["/a/../dashboard", "/dashboard"],
    ["/./dashboard", "/dashboard"],
    ["/café?q=été#à", "/caf%C3%A9?q=%C3%A9t%C3%A9#%C3%A0"],
    ["/%D8%B9%D8%B1%D8%A8%D9%8A", "/%D8%B9%D8%B1%D8%A8%D9%8A"],
    ["/dashboard?q=a b", "/dashboard?q=a%20b"],
  ])("keeps %j as %j", (target, expected) => {
    expect(safeRedirect(target, "/fallback")).toBe(expected);
  });

  it("never gives a target that leaves the origin or that a browser would rewrite", () => {
    const origin = "https://shop.example";
    const alphabet = [
      "/",
      "\\",
      ".",
      "%",
      "2",
      "f",
      "F",
      "5",
      "c",
      "0",
      "9",
      "a",
      "\t",
      "\n",
      ":",
      "?",
      "#",
      "@",
      "é",
      "e",
    ];
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: fc.constantFrom(...alphabet), maxLength: 12 }),
          fc.string({ unit: "grapheme", maxLength: 30 }),
        ),
        (target) => {
          const result = safeRedirect(target, "/fallback");
          expect(result.startsWith("/") && !result.startsWith("//")).toBe(true);
          // eslint-disable-next-line no-control-regex -- no control character may come out
          expect(/[\u0000-\u0020\u007f-\uffff\\]/.test(result)).toBe(false);
          expect(new URL(result, origin).origin).toBe(origin);
          expect(decodeURIComponent(new URL(result, origin).pathname)).not.toMatch(/^\/\//);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
