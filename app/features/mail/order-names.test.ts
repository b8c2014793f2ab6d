import { describe, expect, it } from "vitest";
import { ledgerReasonText } from "~/domain/coins/ledger-reason";
import type { MailKind } from "~/domain/mail/mail";
import {
  NOTIFICATION_LABELS,
  notificationValues,
  type NotificationKind,
} from "~/domain/notifications/notifications";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { createI18n } from "~/i18n/i18n";
import { SUPPORTED_LOCALES, type Locale } from "~/i18n/locales";
import { loadResources } from "~/i18n/resources";
import { renderMail } from "./mail-templates";

// The bell and the mail of one event about an order name it the same way, in each language: by the same
// words for its number ("n° 41" where French mail writes it so, not "#41" in the bell) and by the same
// product (the plan and the customer's server).

const PRODUCT = "VPS Entry (Night Owls)";
/** How each language writes an order's number, in its mail and its bell alike. */
const NUMBER: Record<Locale, string> = { en: "#41", fr: "n° 41", ar: "رقم 41" };

/** Each order event's bell and mail, from the same values. */
const EVENTS: {
  bell: NotificationKind;
  bellParams: Record<string, string | number>;
  mail: MailKind;
  mailParams: Record<string, unknown>;
}[] = [
  {
    bell: "order_approved",
    bellParams: { id: 41, product: PRODUCT },
    mail: "orderApproved",
    mailParams: { id: 41, product: PRODUCT, setup: "panel" },
  },
  {
    bell: "order_rejected",
    bellParams: { id: 41, product: PRODUCT, reason: "Out of stock" },
    mail: "orderRejected",
    mailParams: { id: 41, product: PRODUCT, reason: "Out of stock", refundCents: 700 },
  },
  {
    bell: "order_expired",
    bellParams: { id: 41, product: PRODUCT, count: 3 },
    mail: "orderRejected",
    mailParams: { id: 41, product: PRODUCT, expiredDays: 3, refundCents: 700 },
  },
  {
    bell: "order_waiting",
    bellParams: { id: 41, product: PRODUCT, amountCents: 700 },
    mail: "staffOrderWaiting",
    mailParams: { id: 41, product: PRODUCT, totalCents: 700 },
  },
];

/** A text without the direction marks and isolates an Arabic line may wrap Latin runs in. */
function plain(text: string): string {
  return text.replace(/[\u200e\u200f\u2066-\u2069]/g, "");
}

describe.each(SUPPORTED_LOCALES)("an order named in %s", (locale) => {
  it.each(EVENTS)("$bell and $mail name it alike", async (event) => {
    const i18n = await createI18n(locale, await loadResources(locale));
    const common = i18n.getFixedT(null, "common");
    const coins = i18n.getFixedT(null, "coins");
    const mail = renderMail(event.mail, event.mailParams, {
      locale,
      t: i18n.getFixedT(null, "mail"),
      department: (department) => common(DEPARTMENT_LABELS[department]),
      ledgerReason: (reason) => ledgerReasonText(reason, (key, values) => coins(key, values)),
      siteName: "Hostfront",
      baseUrl: "https://shop.example.com",
      timeZone: "UTC",
    });
    const bell = i18n.getFixedT(null, "notifications")(
      NOTIFICATION_LABELS[event.bell],
      notificationValues(event.bellParams, { locale, timeZone: "UTC" }),
    );
    for (const text of [plain(bell), plain(mail.text)]) {
      expect(text).toContain(NUMBER[locale]);
      expect(text).toContain(PRODUCT);
    }
    expect(plain(mail.subject)).toContain(NUMBER[locale]);
  });
});
