import { westernDigits } from "~/lib/western-digits";

/**
 * Two-factor sign-in (ADR 0033): the rules both the server and the pages read. better-auth's
 * twoFactor plugin keeps the secret and the backup codes (encrypted); these are the numbers it was set
 * up with (auth.server.ts) and how the pages show what it hands out.
 */

/** Digits of a code from an authenticator app (the plugin's default). */
export const TOTP_DIGITS = 6;

/** One-time backup codes handed out when two-factor is turned on or the codes are renewed. */
export const BACKUP_CODE_COUNT = 10;

/** How long the code step of a sign-in stays open after the password (the plugin's two_factor cookie). */
export const TWO_FACTOR_STEP_MINUTES = 10;

/** How long "trust this device" skips the code (customers only). */
export const TRUST_DEVICE_DAYS = 30;

/** Longest code a form accepts: a backup code is 11 characters ("ABCDE-23456"); room for spaces. */
export const MAX_CODE_LENGTH = 32;

/** Whether an account of this role may be offered "trust this device" (never an admin, ADR 0033). */
export function mayTrustDevice(role: string): boolean {
  return role !== "admin";
}

/**
 * A code as typed: spaces and dashes an app or a reader adds around the digits taken out, and digits
 * typed on an Arabic keyboard read as 0 to 9.
 */
export function normalizeTotpCode(code: string): string {
  return westernDigits(code).replace(/[\s-]/g, "");
}

/** A backup code as typed: surrounding spaces taken out (the dash in its middle is part of it). */
export function normalizeBackupCode(code: string): string {
  return code.trim();
}

/**
 * The characters of a backup code: digits and capital letters without those read or typed as another
 * (0 and O, 1 and I, and L, whose small form is l). Codes are often copied from paper or read out.
 */
export const BACKUP_CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** Characters of a backup code, shown as two groups of five ("ABCDE-23456"). */
export const BACKUP_CODE_LENGTH = 10;

/**
 * New backup codes (better-auth's plugin stores what this returns). `randomBytes` fills an array with
 * random bytes (the Web Crypto API's getRandomValues); a byte at or above the largest multiple of the
 * alphabet's size is drawn again, so every character is equally likely.
 */
export function generateBackupCodes(
  count: number = BACKUP_CODE_COUNT,
  randomBytes: (bytes: Uint8Array<ArrayBuffer>) => Uint8Array = (bytes) =>
    crypto.getRandomValues(bytes),
): string[] {
  const size = BACKUP_CODE_ALPHABET.length;
  const ceiling = 256 - (256 % size);
  const nextCharacter = (() => {
    let pool: Uint8Array = new Uint8Array(0);
    let at = 0;
    return () => {
      for (;;) {
        if (at >= pool.length) {
          pool = randomBytes(new Uint8Array(64));
          at = 0;
        }
        const byte = pool[at++]!;
        if (byte < ceiling) return BACKUP_CODE_ALPHABET[byte % size]!;
      }
    };
  })();
  return Array.from({ length: count }, () => {
    let code = "";
    for (let i = 0; i < BACKUP_CODE_LENGTH; i++) code += nextCharacter();
    return `${code.slice(0, 5)}-${code.slice(5)}`;
  });
}

/** A code reduced to what tells codes apart: no spaces or dashes, in capitals. */
function backupCodeKey(code: string): string {
  return code.replace(/[\s-]/g, "").toUpperCase();
}

/**
 * Which of the account's stored codes a typed code is, for the plugin's exact check: the stored code
 * itself when the typed one differs only in case, spaces or the dash ("abcde 23456" for "ABCDE-23456").
 * Codes made before the alphabet above (mixed case, with look-alikes) are stored as they were shown and
 * still match when typed as shown. A code matching no stored one is returned as typed, to be refused.
 */
export function matchBackupCode(typed: string, stored: readonly string[]): string {
  const code = normalizeBackupCode(typed);
  if (stored.includes(code)) return code;
  const key = backupCodeKey(code);
  const matches = stored.filter((candidate) => backupCodeKey(candidate) === key);
  return matches.length === 1 ? matches[0]! : code;
}

/** The text file of backup codes offered for download: a heading line, then one code a line. */
export function backupCodesFile(heading: string, codes: readonly string[]): string {
  return `${heading}\n\n${codes.join("\n")}\n`;
}

export function isTotpCode(code: string): boolean {
  return new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(normalizeTotpCode(code));
}

/** The base32 secret of an `otpauth://` URI (what an app asks for when the QR code cannot be read). */
export function secretOfTotpUri(uri: string): string {
  const query = uri.indexOf("?");
  if (query < 0) return "";
  return new URLSearchParams(uri.slice(query + 1)).get("secret") ?? "";
}

/** A base32 secret in groups of four, easier to read and type; apps ignore the spaces. */
export function groupSecret(secret: string): string {
  return (secret.match(/.{1,4}/g) ?? []).join(" ");
}

/** What the account tab shows of the account's two-factor sign-in. */
export type TwoFactorState =
  | { status: "off" }
  /** The password was confirmed and a secret made; a code from the app turns it on. */
  | { status: "pending"; qrSvg: string; secret: string }
  | { status: "on"; backupCodesLeft: number };

/** The issuer an authenticator app shows beside the account (auth.server.ts's appName). */
export const TOTP_ISSUER = "Hostfront";

const BASE32_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

/** RFC 4648 base32 without padding, as `otpauth://` URIs carry a secret. */
export function base32Encode(bytes: Uint8Array): string {
  let out = "";
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32_ALPHABET[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32_ALPHABET[(buffer << (5 - bits)) & 31];
  return out;
}

/**
 * The `otpauth://` URI of a secret as better-auth's plugin keeps it (its text, whose UTF-8 bytes are the
 * key), written as the plugin writes it when it hands one out (@better-auth/utils/otp).
 */
export function totpUri(secret: string, account: string): string {
  const params = new URLSearchParams({
    secret: base32Encode(new TextEncoder().encode(secret)),
    issuer: TOTP_ISSUER,
  });
  params.set("digits", String(TOTP_DIGITS));
  params.set("period", "30");
  return `otpauth://totp/${encodeURIComponent(TOTP_ISSUER)}:${encodeURIComponent(account)}?${params}`;
}
