import { createHmac } from "node:crypto";

/**
 * The current code of an authenticator app for a two-factor secret, for tests, benchmarks and soaks.
 * `secret` is what the account tab shows as its setup key (base32, spaces allowed) or the whole
 * `otpauth://` URI. RFC 6238 with the app defaults better-auth's plugin uses: SHA-1, 6 digits,
 * 30 seconds.
 */
export function totpCode(secret: string, at: number = Date.now()): string {
  const key = base32Decode(secretOf(secret));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const digest = createHmac("sha1", key).update(counter).digest();
  const offset = digest[digest.length - 1]! & 15;
  const value = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(value % 1_000_000).padStart(6, "0");
}

/**
 * A code that stays valid for a few seconds more: right at the end of a 30-second step the server may
 * already be in the next one (it accepts the previous step too, never the next).
 */
export async function freshTotpCode(secret: string): Promise<string> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < 3_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
  return totpCode(secret);
}

/**
 * The code of the step before the current one, which the server still accepts (a code typed as it
 * changed). Used once and the current code after it: two sign-ins with codes within one step, each code
 * used once, as the server requires.
 */
export async function previousTotpCode(secret: string): Promise<string> {
  await freshTotpCode(secret);
  return totpCode(secret, Date.now() - 30_000);
}

/** A six-digit code that is not the current one (nor the step before or after). */
export function wrongTotpCode(secret: string): string {
  const now = Date.now();
  const near = new Set([-30_000, 0, 30_000].map((shift) => totpCode(secret, now + shift)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, "0");
    if (!near.has(code)) return code;
  }
}

function secretOf(text: string): string {
  const trimmed = text.trim();
  if (trimmed.startsWith("otpauth://"))
    return new URL(trimmed.replace(/^otpauth:/, "http:")).searchParams.get("secret") ?? "";
  return trimmed;
}

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  const clean = text.replace(/[\s=-]/g, "").toUpperCase();
  const out: number[] = [];
  let buffer = 0;
  let bits = 0;
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not a base32 secret: ${text}`);
    buffer = (buffer << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((buffer >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}
