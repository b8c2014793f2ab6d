import { describe, expect, it } from "vitest";
import {
  BACKUP_CODE_ALPHABET,
  backupCodesFile,
  base32Encode,
  generateBackupCodes,
  groupSecret,
  isTotpCode,
  matchBackupCode,
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

describe("backup codes", () => {
  const LOOK_ALIKES = /[0O1lIiLo]/;

  it("are ten codes of two groups of five, without 0/O and 1/l/I", () => {
    const codes = generateBackupCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) {
      expect(code).toMatch(/^[2-9A-HJKMNP-Z]{5}-[2-9A-HJKMNP-Z]{5}$/);
      expect(code).not.toMatch(LOOK_ALIKES);
    }
    expect(BACKUP_CODE_ALPHABET).not.toMatch(LOOK_ALIKES);
    expect(new Set(BACKUP_CODE_ALPHABET).size).toBe(BACKUP_CODE_ALPHABET.length);
  });

  it("draws every character of the alphabet, each equally often, from any bytes", () => {
    // Every byte value in turn: the bytes past the alphabet's last whole multiple are drawn again.
    let next = 0;
    const counting = (bytes: Uint8Array) => bytes.map(() => next++ % 256);
    const seen = new Map<string, number>();
    for (const code of generateBackupCodes(248 / 2, counting))
      for (const character of code.replace("-", ""))
        seen.set(character, (seen.get(character) ?? 0) + 1);
    expect([...seen.keys()].sort().join("")).toBe([...BACKUP_CODE_ALPHABET].sort().join(""));
    expect(new Set(seen.values()).size).toBe(1);
    // Bytes that all fall past the last multiple are never used: the next ones are.
    let calls = 0;
    const highThenLow = (bytes: Uint8Array) => bytes.fill(calls++ === 0 ? 255 : 0);
    expect(generateBackupCodes(1, highThenLow)).toEqual(["22222-22222"]);
  });

  it("finds the stored code a typed one stands for, old mixed-case codes as they were shown", () => {
    const stored = ["ABCDE-23456", "aB3dE-fGh1J"];
    expect(matchBackupCode(" ABCDE-23456 ", stored)).toBe("ABCDE-23456");
    expect(matchBackupCode("abcde 23456", stored)).toBe("ABCDE-23456");
    expect(matchBackupCode("abcde23456", stored)).toBe("ABCDE-23456");
    // A code from before the alphabet keeps working as shown, and typed in other case.
    expect(matchBackupCode("aB3dE-fGh1J", stored)).toBe("aB3dE-fGh1J");
    expect(matchBackupCode("AB3DEFGH1J", stored)).toBe("aB3dE-fGh1J");
    // No match: the code as typed, for the plugin to refuse.
    expect(matchBackupCode(" ZZZZZ-99999", stored)).toBe("ZZZZZ-99999");
    expect(matchBackupCode("ABCDE-23456", [])).toBe("ABCDE-23456");
    // Two stored codes alike but for case: only the exact one.
    expect(matchBackupCode("abcde-fghjk", ["ABCDE-FGHJK", "abcde-FGHJK"])).toBe("abcde-fghjk");
  });

  it("are written one a line in the downloaded file", () => {
    expect(backupCodesFile("Hostfront backup codes", ["ABCDE-23456", "FGHJK-78923"])).toBe(
      "Hostfront backup codes\n\nABCDE-23456\nFGHJK-78923\n",
    );
  });
});
