import { describe, expect, it } from "vitest";
import {
  DISCORD_REFUSALS,
  DISCORD_REFUSAL_MESSAGES,
  discordUrls,
  isDiscordRefusal,
  isSnowflake,
  refusalOf,
  wantsClientRole,
} from "./discord";

describe("Discord's rules", () => {
  it("holds the role while at least one service is active", () => {
    expect(wantsClientRole(["active"])).toBe(true);
    expect(wantsClientRole(["terminated", "active", "suspended"])).toBe(true);
    expect(wantsClientRole(["suspended", "terminated"])).toBe(false);
    expect(wantsClientRole([])).toBe(false);
  });

  it("builds Discord's addresses under any base, with or without a trailing slash", () => {
    const urls = discordUrls("http://127.0.0.1:9/");
    expect(urls.authorize).toBe("http://127.0.0.1:9/oauth2/authorize");
    expect(urls.token).toBe("http://127.0.0.1:9/api/oauth2/token");
    expect(urls.me).toBe("http://127.0.0.1:9/api/users/@me");
    expect(urls.memberRole("1", "2", "3")).toBe(
      "http://127.0.0.1:9/api/guilds/1/members/2/roles/3",
    );
  });

  it("takes only digits as a Discord id", () => {
    expect(isSnowflake("123456789012345678")).toBe(true);
    expect(isSnowflake("")).toBe(false);
    expect(isSnowflake("12a")).toBe(false);
    expect(isSnowflake("1".repeat(21))).toBe(false);
  });

  it("says each of better-auth's callback errors as something the person can act on", () => {
    expect(refusalOf("account_not_linked")).toBe("emailTaken");
    expect(refusalOf("signup_disabled")).toBe("registrationClosed");
    expect(refusalOf("discord_email_unverified")).toBe("emailUnverified");
    expect(refusalOf("account_already_linked_to_different_user")).toBe("linkedElsewhere");
    expect(refusalOf("access_denied")).toBe("cancelled");
    expect(refusalOf("state_mismatch")).toBe("failed");
    expect(refusalOf(null)).toBe("failed");
    for (const refusal of DISCORD_REFUSALS) {
      expect(isDiscordRefusal(refusal)).toBe(true);
      expect(DISCORD_REFUSAL_MESSAGES[refusal]).toBe(`discord.refusals.${refusal}`);
    }
    expect(isDiscordRefusal("linked")).toBe(false);
  });
});
