import nodemailer from "nodemailer";
import type { AppServices } from "~/context.server";
import { campaignHeaders } from "~/domain/campaigns/campaigns";
import { mailSendHandlerWith, type MailTransport } from "~/domain/mail/mail-sender.server";
import { mailWriter } from "~/features/mail/mail-writer";
import { sharedI18n } from "~/i18n/shared-i18n.server";

// Outgoing mail's server side (docs/mail.md): the templates in the recipient's language, and nodemailer's
// SMTP transport when SMTP_URL is set. The send job is app/domain/mail/mail-sender.server.ts.

/** How long a send waits for the SMTP server before the attempt fails (and the worker retries). */
const SMTP_TIMEOUT_MS = 30_000;

/** nodemailer over SMTP_URL (smtp:// upgrades with STARTTLS when offered, smtps:// is TLS from the start). */
export function smtpTransport(smtpUrl: string): MailTransport {
  const url = new URL(smtpUrl);
  const transporter = nodemailer.createTransport({
    host: url.hostname.replace(/^\[|\]$/g, ""),
    port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
    secure: url.protocol === "smtps:",
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  return {
    sendMail: (message) => transporter.sendMail(message),
  };
}

/**
 * What the send job is made with in this process (the registry's `mail` wiring): the templates, and
 * SMTP_URL and MAIL_FROM from the env unless `config` says otherwise (tests point it at their own SMTP
 * server). Without SMTP_URL messages are kept.
 */
export function mailWiring(
  services: AppServices,
  config: { SMTP_URL?: string; MAIL_FROM: string } = services.env,
): Parameters<typeof mailSendHandlerWith>[0] {
  return {
    write: mailWriter({
      settings: () => services.settings.get(),
      publicUrl: services.env.PUBLIC_URL,
      i18n: sharedI18n,
    }),
    transport: config.SMTP_URL ? smtpTransport(config.SMTP_URL) : null,
    from: config.MAIL_FROM,
    headers: campaignHeaders(services.env.PUBLIC_URL),
  };
}

/** The send job's handler alone, made as the worker makes it (`mailWiring`). */
export function mailHandler(
  services: AppServices,
  config: { SMTP_URL?: string; MAIL_FROM: string } = services.env,
) {
  return mailSendHandlerWith(mailWiring(services, config));
}
