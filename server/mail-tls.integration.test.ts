import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSmtpServer, SMTP_USER, type TestSmtpServer } from "../tests/support/smtp-server";
import {
  throwawayCertificate,
  trustCertificate,
  type Certificate,
} from "../tests/support/throwaway-certificate";
import { smtpTransport } from "./mail";

// SMTP_URL's two encrypted ways (docs/mail.md), through the transport the worker sends with, against a
// real SMTP server presenting a certificate made for this test: smtp:// upgraded with STARTTLS, and
// smtps://, TLS from the first byte. The certificate is checked, as it is in production.

const message = (subject: string) => ({
  from: "Hostfront <no-reply@hostfront.test>",
  to: "karim@example.com",
  subject,
  text: "Your server is ready.",
  html: "<p>Your server is ready.</p>",
  messageId: `<tls.${subject.replace(/\W+/g, "-")}@hostfront.test>`,
});

describe("outgoing mail over TLS", () => {
  let certificate: Certificate;
  let starttls: TestSmtpServer;
  let smtps: TestSmtpServer;

  beforeAll(async () => {
    certificate = throwawayCertificate();
    starttls = await startSmtpServer({ tls: { mode: "starttls", ...certificate } });
    smtps = await startSmtpServer({ tls: { mode: "smtps", ...certificate } });
  });
  afterAll(async () => {
    await Promise.all([starttls?.close(), smtps?.close()]);
  });

  it("refuses a server whose certificate nobody vouches for, sending nothing", async () => {
    for (const server of [starttls, smtps]) {
      const error = await smtpTransport(server.url)
        .sendMail(message("Not trusted"))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect(String((error as Error).message)).toMatch(/self[- ]signed certificate/i);
      expect(server.received).toHaveLength(0);
    }
  });

  describe("once the certificate is trusted", () => {
    // What this process's TLS clients trust is process-wide: put back after these tests.
    let distrust = () => {};
    beforeAll(() => {
      distrust = trustCertificate(certificate);
    });
    afterAll(() => distrust());

    it("sends over smtp:// upgraded with STARTTLS, signing in only once encrypted", async () => {
      expect(starttls.url).toMatch(/^smtp:\/\//);
      await smtpTransport(starttls.url).sendMail(message("Over STARTTLS"));
      expect(starttls.received).toHaveLength(1);
      expect(starttls.received[0]).toMatchObject({
        subject: "Over STARTTLS",
        to: ["karim@example.com"],
        secure: true,
      });
    });

    it("sends over smtps://, encrypted from the first byte", async () => {
      expect(smtps.url).toMatch(/^smtps:\/\//);
      await smtpTransport(smtps.url).sendMail(message("Over smtps"));
      expect(smtps.received).toHaveLength(1);
      expect(smtps.received[0]).toMatchObject({ subject: "Over smtps", secure: true });
    });

    it("could not have signed in to the STARTTLS server without the upgrade", async () => {
      // The test server keeps AUTH for encrypted sessions: a client that stays plain is refused, so the
      // STARTTLS test above proves the transport upgraded before giving the password.
      const plain = nodemailer.createTransport({
        host: "127.0.0.1",
        port: Number(new URL(starttls.url).port),
        ignoreTLS: true,
        auth: { user: SMTP_USER, pass: decodeURIComponent(new URL(starttls.url).password) },
      });
      const error = await plain.sendMail(message("Plain")).catch((e: unknown) => e);
      expect(error).toMatchObject({ responseCode: 538 });
      expect(starttls.received.map((mail) => mail.subject)).not.toContain("Plain");
    });
  });
});
