import { createHmac, timingSafeEqual } from "node:crypto";

// The campaigns' signed tokens (docs/mail.md#campaigns): a campaign's unsubscribe link names the
// recipient and the campaign; the newsletter's confirmation link names the address and when it stops
// working. Each is its JSON in base64url and an HMAC-SHA256 of it with the app's secret (AUTH_SECRET),
// so nothing is stored to check one and a changed byte is refused.

export type CampaignToken =
  | { purpose: "unsubscribe"; email: string; campaignId: number }
  | { purpose: "confirm"; email: string; expiresAt: string };

/** Keeps these signatures apart from anything else signed with the same secret. */
const DOMAIN = "hostfront.campaigns.v1";

function mac(secret: string, payload: string): Buffer {
  return createHmac("sha256", secret).update(`${DOMAIN}\n${payload}`).digest();
}

/** A token for `value`, signed with `secret`. */
export function signCampaignToken(secret: string, value: CampaignToken): string {
  const payload = Buffer.from(JSON.stringify(value)).toString("base64url");
  return `${payload}.${mac(secret, payload).toString("base64url")}`;
}

/** What a token says, when `secret` signed it and it is well made; null for anything else. */
export function verifyCampaignToken(secret: string, token: unknown): CampaignToken | null {
  if (typeof token !== "string" || token.length > 2048) return null;
  const [payload, signature, extra] = token.split(".");
  if (!payload || !signature || extra !== undefined) return null;
  const given = Buffer.from(signature, "base64url");
  const expected = mac(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  return tokenOf(value);
}

function tokenOf(value: unknown): CampaignToken | null {
  if (!value || typeof value !== "object") return null;
  const { purpose, email, campaignId, expiresAt } = value as Record<string, unknown>;
  if (typeof email !== "string" || !email.includes("@")) return null;
  if (purpose === "unsubscribe" && Number.isSafeInteger(campaignId) && (campaignId as number) > 0)
    return { purpose, email, campaignId: campaignId as number };
  if (
    purpose === "confirm" &&
    typeof expiresAt === "string" &&
    !Number.isNaN(Date.parse(expiresAt))
  )
    return { purpose, email, expiresAt };
  return null;
}
