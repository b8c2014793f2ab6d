import { ledgerReasonText } from "~/domain/coins/ledger-reason";
import type { MailKind } from "~/domain/mail/mail";
import type { Settings } from "~/domain/settings/settings";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { DEFAULT_LOCALE, isLocale, type Locale } from "~/i18n/locales";
import type { Translator } from "~/i18n/translator";
import { mailContent, renderMail, type MailContext } from "./mail-templates";

// Writing a message from its outbox row (docs/mail.md): by the send job before it sends, and, for a
// message kept without SMTP_URL (never written by a job), by /admin/mail when an admin reads it.

export interface MailWriterOptions {
  /** The site's settings (its name and time zone), as the process caches them. */
  settings: () => Promise<Pick<Settings, "general">>;
  /** PUBLIC_URL: every link of a message is absolute. */
  publicUrl: string;
  /** The server's translator of a language (sharedI18n). */
  i18n: (locale: Locale) => Promise<Translator>;
}

type Message = { kind: MailKind; locale: string; params: Record<string, unknown> };

async function contextOf(options: MailWriterOptions, locale: string): Promise<MailContext> {
  const language = isLocale(locale) ? locale : DEFAULT_LOCALE;
  const i18n = await options.i18n(language);
  const common = i18n.getFixedT(null, "common");
  const coins = i18n.getFixedT(null, "coins");
  const settings = await options.settings();
  return {
    locale: language,
    t: i18n.getFixedT(null, "mail"),
    department: (department) => common(DEPARTMENT_LABELS[department] ?? department),
    ledgerReason: (reason) => ledgerReasonText(reason, (key, values) => coins(key, values)),
    siteName: settings.general.siteName,
    baseUrl: options.publicUrl.replace(/\/$/, ""),
    timeZone: settings.general.timeZone,
  };
}

/** Writes a message with the templates, in its language (a language we do not have: the default). */
export function mailWriter(options: MailWriterOptions) {
  return async ({
    kind,
    locale,
    params,
  }: Message): Promise<{ subject: string; html: string; text: string }> =>
    renderMail(kind, params, await contextOf(options, locale));
}

/** A message's subject alone, without drawing it (a list of kept messages shows many). */
export function mailSubjectWriter(options: MailWriterOptions) {
  return async ({ kind, locale, params }: Message): Promise<string> =>
    mailContent(kind, params, await contextOf(options, locale)).subject;
}
