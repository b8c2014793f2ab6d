import { describe, expect, it } from "vitest";
import { isPermanentSmtpRefusal, redactLink, redactTokenLinks, smtpServerLabel } from "./mail";

describe("links that carry a token, as /admin/mail shows them", () => {
  it.each([
    [
      "https://shop.example.com/reset-password?token=Zk3f9QxY2bVw8LmN4pRt",
      "https://shop.example.com/reset-password?token=[redacted]",
    ],
    [
      "https://shop.example.com/verify-email?code=123456&lang=fr",
      "https://shop.example.com/verify-email?code=[redacted]&lang=fr",
    ],
    [
      "https://shop.example.com/reset-password/Zk3f9QxY2bVw8LmN4pRt9",
      "https://shop.example.com/reset-password/[redacted]",
    ],
    ["https://shop.example.com/login#token=abc", "https://shop.example.com/login#[redacted]"],
    [
      "https://shop.example.com/x?next=d8f7a6e5c4b3a2f1e0d9c8b7",
      "https://shop.example.com/x?next=[redacted]",
    ],
  ])("redacts %s", (link, shown) => {
    expect(redactLink(link)).toBe(shown);
  });

  it.each([
    "https://shop.example.com/dashboard?tab=billing",
    "https://shop.example.com/support/42",
    "https://shop.example.com/admin/tickets/1234",
    "https://shop.example.com/services/minecraft-server-premium",
  ])("leaves %s as it is", (link) => {
    expect(redactLink(link)).toBe(link);
  });

  it("redacts every link of a text and nothing else", () => {
    const text = [
      "Hello,",
      "Reset your password: http://localhost:3000/reset-password?token=Zk3f9QxY2bVw8LmN4pRt",
      "Or open https://shop.example.com/dashboard?tab=account (token=abc stays: it is not a link).",
    ].join("\n");
    expect(redactTokenLinks(text)).toBe(
      [
        "Hello,",
        "Reset your password: http://localhost:3000/reset-password?token=[redacted]",
        "Or open https://shop.example.com/dashboard?tab=account (token=abc stays: it is not a link).",
      ].join("\n"),
    );
  });
});

describe("the SMTP server as an admin page names it", () => {
  it("never shows the credentials", () => {
    expect(smtpServerLabel("smtps://user:secret@mail.example.com:465")).toBe(
      "smtps://mail.example.com:465",
    );
    expect(smtpServerLabel("smtp://mail.example.com")).toBe("smtp://mail.example.com");
  });
});

describe("a mail server's permanent refusal of a message", () => {
  const smtpError = (responseCode: number | undefined, code?: string) =>
    Object.assign(new Error(`${responseCode ?? ""} refused`), { responseCode, code });

  it("is a 5xx answer to the envelope or the message", () => {
    expect(isPermanentSmtpRefusal(smtpError(550, "EMESSAGE"))).toBe(true);
    expect(isPermanentSmtpRefusal(smtpError(550, "EENVELOPE"))).toBe(true);
    expect(isPermanentSmtpRefusal(smtpError(553, "EENVELOPE"))).toBe(true);
    expect(isPermanentSmtpRefusal(smtpError(554, "EMESSAGE"))).toBe(true);
    expect(isPermanentSmtpRefusal(smtpError(552))).toBe(true);
  });

  it("is not a 4xx, a lost connection, a timeout, or a sign-in the admin must fix", () => {
    expect(isPermanentSmtpRefusal(smtpError(451, "EMESSAGE"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(421, "EENVELOPE"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(undefined, "ECONNECTION"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(undefined, "ETIMEDOUT"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(535, "EAUTH"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(530, "EENVELOPE"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(538, "EMESSAGE"))).toBe(false);
    expect(isPermanentSmtpRefusal(smtpError(554, "EPROTOCOL"))).toBe(false);
    expect(isPermanentSmtpRefusal(new Error("550 in words only"))).toBe(false);
    expect(isPermanentSmtpRefusal("550")).toBe(false);
    expect(isPermanentSmtpRefusal(null)).toBe(false);
  });
});
