import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.server";
import { addressOf, defaultMailFrom, parseMailFrom, parseSmtpUrl } from "./mail-settings";

describe("SMTP_URL", () => {
  it.each([
    "smtp://user:pass@smtp.example.com:587",
    "smtps://user:p%40ss@smtp.example.com",
    "smtp://localhost:2525",
    "smtp://[::1]:25",
  ])("takes %s", (value) => {
    expect(parseSmtpUrl(value)).toEqual({ ok: true, value });
  });

  it.each([
    ["smtp.example.com", "must be a URL like smtps://user:password@smtp.example.com:465"],
    ["http://user:pass@smtp.example.com", "must start with smtp:// or smtps://"],
    ["smtp://user@smtp.example.com", "must give both a user and a password"],
    ["smtp://:pass@smtp.example.com", "must give both a user and a password"],
    ["smtp://user:pass@smtp.example.com/mail", "must have no path after the host and port"],
  ])("refuses %s", (value, message) => {
    const parsed = parseSmtpUrl(value);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toContain(message);
  });

  it("stops the start with a message that names the setting", () => {
    expect(() => parseEnv({ SMTP_URL: "mailto:someone@example.com" })).toThrow(
      /SMTP_URL: must start with smtp:\/\/ or smtps:\/\//,
    );
    expect(parseEnv({}).SMTP_URL).toBeUndefined();
    expect(parseEnv({ SMTP_URL: "" }).SMTP_URL).toBeUndefined();
    expect(parseEnv({ SMTP_URL: "smtps://u:p@mail.example.com:465" }).SMTP_URL).toBe(
      "smtps://u:p@mail.example.com:465",
    );
  });
});

describe("MAIL_FROM", () => {
  it("takes an address or a name and an address", () => {
    expect(parseMailFrom("no-reply@example.com")).toEqual({
      ok: true,
      value: "no-reply@example.com",
    });
    expect(parseMailFrom("Hostfront <no-reply@example.com>")).toEqual({
      ok: true,
      value: "Hostfront <no-reply@example.com>",
    });
    expect(parseMailFrom("no-reply").ok).toBe(false);
    expect(parseMailFrom("Hostfront <no reply@example.com>").ok).toBe(false);
    expect(() => parseEnv({ MAIL_FROM: "nobody" })).toThrow(/MAIL_FROM: must be an address/);
  });

  it("defaults to no-reply at the public address's host", () => {
    expect(defaultMailFrom("https://shop.example.com/")).toBe(
      "Hostfront <no-reply@shop.example.com>",
    );
    expect(parseEnv({ PUBLIC_URL: "https://shop.example.com" }).MAIL_FROM).toBe(
      "Hostfront <no-reply@shop.example.com>",
    );
    expect(parseEnv({ MAIL_FROM: "Shop <hello@example.com>" }).MAIL_FROM).toBe(
      "Shop <hello@example.com>",
    );
    expect(addressOf("Shop <hello@example.com>")).toBe("hello@example.com");
  });
});
