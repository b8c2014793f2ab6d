import { MAX_EMAIL_LENGTH } from "~/domain/accounts/accounts";
import { z } from "~/lib/zod";
import { bad, describeJsonValue, isMissing, ok, shown, type Read } from "./field-basics";

/** Ids were timestamps as text in the registration flow and numbers elsewhere: both are the same id. */
export function readLegacyId(value: unknown): Read<string | null> {
  if (isMissing(value)) return ok(null);
  if (typeof value === "string") return ok(value.trim());
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
  return bad(`expected an id (text or a number), found ${describeJsonValue(value)}`);
}

export function readText(value: unknown): Read<string | null> {
  if (isMissing(value)) return ok(null);
  if (typeof value === "string") return ok(value.trim());
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
  return bad(`expected text, found ${describeJsonValue(value)}`);
}

export function readRequiredText(value: unknown): Read<string> {
  if (isMissing(value)) return bad("required, and missing or empty");
  const text = readText(value);
  return text.ok ? ok(text.value!) : text;
}

export function readEmail(value: unknown): Read<string> {
  if (isMissing(value)) return bad("required: every user needs an email address");
  if (typeof value !== "string")
    return bad(`expected an email address, found ${describeJsonValue(value)}`);
  const email = value.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !z.email().safeParse(email).success)
    return bad(`${shown(value)} is not an email address`);
  return ok(email);
}

/** A password is taken exactly as typed (not trimmed); its value never appears in a message. */
export function readPassword(value: unknown): Read<string | null> {
  if (value === undefined || value === null || value === "") return ok(null);
  if (typeof value === "string") return ok(value);
  if (typeof value === "number" && Number.isFinite(value)) return ok(String(value));
  return bad(`expected text, found ${describeJsonValue(value)}`);
}

export const TRUE_WORDS = ["true", "yes", "on", "1"];
export const FALSE_WORDS = ["false", "no", "off", "0"];

export function readFlag(value: unknown): Read<boolean | null> {
  if (isMissing(value)) return ok(null);
  if (typeof value === "boolean") return ok(value);
  if (value === 1 || value === 0) return ok(value === 1);
  if (typeof value === "string") {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.includes(word)) return ok(true);
    if (FALSE_WORDS.includes(word)) return ok(false);
  }
  return bad(`expected true or false, found ${shown(value)}`);
}

/** A whole number (uses, counts): a number or numeric text. */
export function readCount(value: unknown): Read<number | null> {
  if (isMissing(value)) return ok(null);
  const n = typeof value === "string" ? Number(value.trim()) : value;
  if (typeof n === "number" && Number.isSafeInteger(n) && n >= 0 && n <= 1_000_000_000)
    return ok(n);
  return bad(`expected a whole number of 0 or more, found ${shown(value)}`);
}
