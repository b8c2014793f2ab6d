import { describe, expect, it } from "vitest";
import { isResetToken, PASSWORD_RESET_LINK_SECONDS, resetLinkPath } from "./password-reset";
import { forgotPasswordSchema, resetPasswordSchema } from "./password-reset.schemas";

describe("password reset rules", () => {
  it("takes better-auth's tokens and nothing else as a link's token", () => {
    expect(isResetToken("Abc123def456ghi789jkl012")).toBe(true);
    expect(isResetToken("")).toBe(false);
    expect(isResetToken("short")).toBe(false);
    expect(isResetToken("has spaces in it, quite long")).toBe(false);
    expect(isResetToken(`${"a".repeat(24)}&next=/evil`)).toBe(false);
    expect(isResetToken(undefined)).toBe(false);
  });

  it("links to our own page, for one hour", () => {
    expect(resetLinkPath("Abc123def456ghi789jkl012")).toBe(
      "/reset-password?token=Abc123def456ghi789jkl012",
    );
    expect(PASSWORD_RESET_LINK_SECONDS).toBe(3600);
  });

  it("reads the forms with the register form's rules and messages", () => {
    expect(forgotPasswordSchema.parse({ email: " Someone@Example.COM " })).toEqual({
      email: "someone@example.com",
    });
    const refused = (form: Record<string, string>) =>
      resetPasswordSchema.safeParse(form).error?.issues.map((issue) => issue.message);
    expect(refused({ token: "t", newPassword: "abc", confirmPassword: "abc" })).toEqual([
      "errors.passwordTooShort",
    ]);
    expect(refused({ token: "t", newPassword: "abcdefgh", confirmPassword: "abcdefgi" })).toEqual([
      "errors.passwordsDoNotMatch",
    ]);
    // The first message of a field is the one shown (parseForm).
    expect(refused({ token: "t", newPassword: "abcdefgh", confirmPassword: "" })?.[0]).toBe(
      "errors.confirmRequired",
    );
  });
});
