import nodemailer from "nodemailer";
import type { AppServices } from "~/context.server";
import { ledgerReasonText } from "~/domain/coins/ledger-reason";
import {
  mailSendHandlerWith,
  type MailTransport,
  type MailWriter,
} from "~/domain/mail/mail.server";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { renderMail } from "~/features/mail/mail-templates";
import { DEFAULT_LOCALE, isLocale } from "~/i18n/locales";
import { sharedI18n } from "~/i18n/shared-i18n.server";

// Outgoing mail's server side (docs/mail.md): the templates in the recipient's language, and nodemailer's
// SMTP transport when SMTP_URL is set. The outbox and the send job are app/domain/mail/mail.server.ts.

/** How long a send waits for the SMTP server before the attempt fails (and the worker retries). */
const SMTP_TIMEOUT_MS = 30_000;

/** Writes a message with the templates, in its language (a language we do not have: the default). */
export function mailWriter(services: AppServices): MailWriter {
  return async ({ kind, locale, params }) => {
    const language = isLocale(locale) ? locale : DEFAULT_LOCALE;
    const i18n = await sharedI18n(language);
    const tickets = i18n.getFixedT(null, "tickets");
    const coins = i18n.getFixedT(null, "coins");
    const settings = await services.settings.get();
    return renderMail(kind, params, {
      locale: language,
      t: i18n.getFixedT(null, "mail") as (key: string, values?: Record<string, unknown>) => string,
      department: (department) => tickets(DEPARTMENT_LABELS[department] ?? department),
      ledgerReason: (reason) => ledgerReasonText(reason, (key, values) => coins(key, values)),
      siteName: settings.general.siteName,
      baseUrl: services.env.PUBLIC_URL.replace(/\/$/, ""),
      timeZone: settings.general.timeZone,
    });
  };
}

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
 * The send job's handler for this process: SMTP_URL and MAIL_FROM from the env, unless `config` says
 * otherwise (tests point it at their own SMTP server). Without SMTP_URL messages are kept.
 */
export function mailHandler(
  services: AppServices,
  config: { SMTP_URL?: string; MAIL_FROM: string } = services.env,
) {
  return mailSendHandlerWith({
    write: mailWriter(services),
    transport: config.SMTP_URL ? smtpTransport(config.SMTP_URL) : null,
    from: config.MAIL_FROM,
  });
}
