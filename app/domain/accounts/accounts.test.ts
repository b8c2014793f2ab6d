import { describe, expect, it } from "vitest";
import {
  changePasswordSchema,
  homeFor,
  loginSchema,
  registerSchema,
  safeRedirect,
} from "./accounts";

function errorsOf(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries(
    (result.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]),
  );
}

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
    expect(errorsOf(registerSchema.safeParse({}))).toEqual({
      name: "errors.nameRequired",
      email: "errors.emailRequired",
      password: "errors.passwordRequired",
      confirmPassword: "errors.confirmRequired",
    });
    expect(errorsOf(registerSchema.safeParse({ ...valid, name: "   " }))).toMatchObject({
      name: "errors.nameRequired",
    });
  });

  it("checks the email format", () => {
    expect(errorsOf(registerSchema.safeParse({ ...valid, email: "amine@" }))).toEqual({
      email: "errors.emailInvalid",
    });
  });

  it("needs at least 6 characters and matching passwords", () => {
    expect(
      errorsOf(registerSchema.safeParse({ ...valid, password: "12345", confirmPassword: "12345" })),
    ).toEqual({
      password: "errors.passwordTooShort",
    });
    expect(errorsOf(registerSchema.safeParse({ ...valid, confirmPassword: "secret2" }))).toEqual({
      confirmPassword: "errors.passwordsDoNotMatch",
    });
    expect(
      registerSchema.safeParse({ ...valid, password: "123456", confirmPassword: "123456" }).success,
    ).toBe(true);
  });

  it("refuses oversized input instead of passing it on", () => {
    const long = "x".repeat(129);
    expect(
      errorsOf(registerSchema.safeParse({ ...valid, password: long, confirmPassword: long })),
    ).toMatchObject({
      password: "errors.passwordTooLong",
    });
    expect(errorsOf(registerSchema.safeParse({ ...valid, name: "n".repeat(101) }))).toMatchObject({
      name: "errors.nameTooLong",
    });
  });
});

describe("loginSchema", () => {
  it("requires an email and a password", () => {
    expect(errorsOf(loginSchema.safeParse({ email: "", password: "" }))).toEqual({
      email: "errors.emailRequired",
      password: "errors.passwordRequired",
    });
  });
});

describe("changePasswordSchema", () => {
  it("needs a new password that differs and is confirmed", () => {
    expect(
      errorsOf(
        changePasswordSchema.safeParse({
          currentPassword: "abcdef",
          newPassword: "abcdef",
          confirmPassword: "abcdef",
        }),
      ),
    ).toEqual({ newPassword: "errors.passwordUnchanged" });
    expect(
      errorsOf(
        changePasswordSchema.safeParse({
          currentPassword: "abcdef",
          newPassword: "ghijkl",
          confirmPassword: "x",
        }),
      ),
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
});
