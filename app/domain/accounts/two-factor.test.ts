import { describe, expect, it } from "vitest";
import {
  base32Encode,
  groupSecret,
  isTotpCode,
  mayTrustDevice,
  normalizeTotpCode,
  secretOfTotpUri,
  totpUri,
} from "./two-factor";

describe("two-factor rules", () => {
  it("reads the base32 secret out of an otpauth URI", () => {
    expect(
      secretOfTotpUri("otpauth://totp/Hostfront:a%40b.c?secret=JBSWY3DPEHPK3PXP&issuer=Hostfront"),
    ).toBe("JBSWY3DPEHPK3PXP");
    expect(secretOfTotpUri("not a uri")).toBe("");
  });

  it("groups a secret by four for reading", () => {
    expect(groupSecret("JBSWY3DPEHPK3PXPA")).toBe("JBSW Y3DP EHPK 3PXP A");
    expect(groupSecret("")).toBe("");
  });

  it("accepts six digits, with the spaces an app shows", () => {
    expect(isTotpCode("123456")).toBe(true);
    expect(isTotpCode("123 456")).toBe(true);
    expect(normalizeTotpCode(" 123-456 ")).toBe("123456");
    expect(normalizeTotpCode("١٢٣ ٤٥٦")).toBe("123456");
    expect(isTotpCode("12345")).toBe(false);
    expect(isTotpCode("abcde-12345")).toBe(false);
  });

  it("offers trusting a device to customers only", () => {
    expect(mayTrustDevice("user")).toBe(true);
    expect(mayTrustDevice("admin")).toBe(false);
  });
});

describe("the otpauth URI", () => {
  it("is the one better-auth's plugin writes", async () => {
    const { createOTP } = await import("@better-auth/utils/otp");
    const secret = "k3J9xQ2mP7vL0aZ8tR5wY1uE6iO4pS3d";
    expect(totpUri(secret, "ann@example.com")).toBe(
      createOTP(secret).url("Hostfront", "ann@example.com"),
    );
    expect(base32Encode(new TextEncoder().encode("foobar"))).toBe("MZXW6YTBOI");
  });
});
