import {
  DATA_EXPORT_CARD_PATH,
  DATA_EXPORT_LINK_DAYS,
  dataExportPath,
} from "~/domain/data-exports/data-exports";
import { formatWhen, text } from "./mail-format";
import type { MailContent, MailContext } from "./mail-templates";

// The message that a customer's archive of their data is ready (docs/self-service.md): its link, which
// works for its owner signed in until its end, and the account tab where the archives are listed.

/** The message, from the values the outbox stored (mail-plan.server.ts). */
export function dataExportReadyContent(
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl, siteName: site } = context;
  const values = { site, date: formatWhen(params.expiresAt, context), days: DATA_EXPORT_LINK_DAYS };
  return {
    subject: t("dataExportReady.subject", { site }),
    heading: t("dataExportReady.heading"),
    paragraphs: [
      t("dataExportReady.body", values),
      t("dataExportReady.signedIn"),
      t("dataExportReady.notYou"),
    ],
    button: {
      label: t("dataExportReady.button"),
      href: `${baseUrl}${dataExportPath(text(params.token))}`,
    },
    more: { label: t("dataExportReady.account"), href: `${baseUrl}${DATA_EXPORT_CARD_PATH}` },
    audience: "customer",
  };
}
