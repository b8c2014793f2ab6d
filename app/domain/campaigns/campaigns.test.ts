import { describe, expect, it } from "vitest";
import { signCampaignToken, verifyCampaignToken } from "./campaign-tokens.server";
import {
  campaignHeaders,
  campaignTextFor,
  EMPTY_TEXTS,
  listUnsubscribeHeaders,
  sendSlot,
  unsubscribeUrl,
} from "./campaigns";

const SECRET = "a-secret-of-at-least-thirty-two-characters";
const OTHER = "another-secret-of-at-least-thirty-two-chars";

describe("campaign tokens", () => {
  const unsubscribe = {
    purpose: "unsubscribe",
    email: "reader@example.com",
    campaignId: 7,
  } as const;

  it("reads back what it signed, for either purpose", () => {
    expect(verifyCampaignToken(SECRET, signCampaignToken(SECRET, unsubscribe))).toEqual(
      unsubscribe,
    );
    const confirm = {
      purpose: "confirm",
      email: "new@example.com",
      expiresAt: "2031-03-19T10:00:00.000Z",
    } as const;
    expect(verifyCampaignToken(SECRET, signCampaignToken(SECRET, confirm))).toEqual(confirm);
  });

  it("refuses a token signed with another secret", () => {
    expect(verifyCampaignToken(OTHER, signCampaignToken(SECRET, unsubscribe))).toBeNull();
  });

  it("refuses a token whose payload or signature was changed, by a single character", () => {
    const token = signCampaignToken(SECRET, unsubscribe);
    const [payload, signature] = token.split(".") as [string, string];
    // Another recipient named in the payload, with the old signature.
    const forged = Buffer.from(
      JSON.stringify({ ...unsubscribe, email: "victim@example.com" }),
    ).toString("base64url");
    expect(verifyCampaignToken(SECRET, `${forged}.${signature}`)).toBeNull();
    const flip = (text: string, at: number) =>
      `${text.slice(0, at)}${text[at] === "A" ? "B" : "A"}${text.slice(at + 1)}`;
    expect(verifyCampaignToken(SECRET, `${flip(payload, 3)}.${signature}`)).toBeNull();
    expect(verifyCampaignToken(SECRET, `${payload}.${flip(signature, 5)}`)).toBeNull();
  });

  it("refuses what is not a token", () => {
    for (const value of [undefined, "", ".", "abc", "a.b.c", `${"x".repeat(3000)}.y`, 42])
      expect(verifyCampaignToken(SECRET, value)).toBeNull();
    // Well signed, but not saying anything we make.
    const payload = Buffer.from(JSON.stringify({ purpose: "admin", email: "a@b.c" })).toString(
      "base64url",
    );
    const token = signCampaignToken(SECRET, unsubscribe);
    expect(verifyCampaignToken(SECRET, `${payload}.${token.split(".")[1]}`)).toBeNull();
  });
});

describe("the one-click unsubscribe headers (RFC 8058)", () => {
  it("names the https address in angle brackets and says a one-click post is taken", () => {
    const url = unsubscribeUrl("https://shop.example.com/", "abc.def");
    expect(url).toBe("https://shop.example.com/unsubscribe?token=abc.def");
    expect(listUnsubscribeHeaders(url)).toEqual({
      "List-Unsubscribe": "<https://shop.example.com/unsubscribe?token=abc.def>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
  });

  it("is given to a campaign's message only, with its own token", () => {
    const headers = campaignHeaders("https://shop.example.com");
    expect(headers({ kind: "campaign", params: { token: "t0k.en" } })).toEqual({
      "List-Unsubscribe": "<https://shop.example.com/unsubscribe?token=t0k.en>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(headers({ kind: "orderReceived", params: { token: "t0k.en" } })).toBeUndefined();
    expect(headers({ kind: "campaign", params: {} })).toBeUndefined();
  });
});

describe("a campaign's text and pace", () => {
  it("gives a reader their language's text when written in full, else English", () => {
    const texts = {
      ...EMPTY_TEXTS,
      en: { subject: "News", body: "Hello" },
      fr: { subject: "Nouvelles", body: "Bonjour" },
      ar: { subject: "أخبار", body: "" },
    };
    expect(campaignTextFor(texts, "fr").subject).toBe("Nouvelles");
    expect(campaignTextFor(texts, "ar").subject).toBe("News");
    expect(campaignTextFor(texts, "de").subject).toBe("News");
  });

  it("makes the n-th message due at its minute", () => {
    const now = new Date("2031-01-01T00:00:00.000Z");
    expect(sendSlot(0, 2, now)).toBeUndefined();
    expect(sendSlot(1, 2, now)).toBeUndefined();
    expect(sendSlot(2, 2, now)?.toISOString()).toBe("2031-01-01T00:01:00.000Z");
    expect(sendSlot(5, 2, now)?.toISOString()).toBe("2031-01-01T00:02:00.000Z");
  });
});
