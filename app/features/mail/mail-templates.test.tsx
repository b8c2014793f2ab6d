import { describe, expect, it } from "vitest";
import { ledgerReasonText } from "~/domain/coins/ledger-reason";
import { MAIL_KINDS, type MailKind } from "~/domain/mail/mail";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { createI18n } from "~/i18n/i18n";
import { SUPPORTED_LOCALES, type Locale } from "~/i18n/locales";
import { loadResources } from "~/i18n/resources";
import { renderMail, type MailContext } from "./mail-templates";

/** A template's context in `locale`, from the real catalogues, as server/mail.ts builds it. */
async function contextIn(locale: Locale): Promise<MailContext> {
  const i18n = await createI18n(locale, await loadResources(locale));
  const tickets = i18n.getFixedT(null, "tickets");
  const coins = i18n.getFixedT(null, "coins");
  return {
    locale,
    t: i18n.getFixedT(null, "mail") as MailContext["t"],
    department: (department) => tickets(DEPARTMENT_LABELS[department]),
    ledgerReason: (reason) => ledgerReasonText(reason, (key, values) => coins(key, values)),
    siteName: "Hostfront",
    baseUrl: "https://shop.example.com",
  };
}

const PARAMS: Record<MailKind, Record<string, unknown>> = {
  orderReceived: { id: 41, product: "VPS Entry", totalCents: 1250 },
  orderApproved: { id: 41, product: "VPS Entry" },
  orderRejected: { id: 41, product: "VPS Entry", reason: "Stock <épuisé>", refundCents: 1250 },
  coinsChanged: {
    amountCents: -300,
    balanceCents: 700,
    reason: {
      reason: "Order #41: VPS Entry",
      reasonKey: "orderPayment",
      reasonParams: { id: 41, product: "VPS Entry" },
    },
  },
  ticketAnswered: { id: 7, subject: "My server is down" },
  staffOrderWaiting: { id: 41, product: "VPS Entry", totalCents: 1250 },
  staffTicketOpened: { id: 7, department: "billing" },
};

describe("the mail templates", () => {
  it.each(SUPPORTED_LOCALES)(
    "write every message in %s, as HTML and plain text",
    async (locale) => {
      const context = await contextIn(locale);
      for (const kind of MAIL_KINDS) {
        const mail = renderMail(kind, PARAMS[kind], context);
        expect(mail.subject, kind).not.toMatch(/^[a-zA-Z]+\.[a-zA-Z.]+$/);
        expect(mail.html.startsWith("<!DOCTYPE html><html")).toBe(true);
        expect(mail.html).toContain(`lang="${locale}"`);
        expect(mail.html).toContain(`dir="${locale === "ar" ? "rtl" : "ltr"}"`);
        expect(mail.html).toContain("Hostfront");
        expect(mail.text).toContain("https://shop.example.com/");
        // No key left untranslated in either part.
        expect(mail.text, kind).not.toMatch(/\b(layout|outbox|orderReceived|coins)\.[a-z]/);
      }
    },
  );

  it("writes the order rejection with its reason (escaped in HTML) and its refund", async () => {
    const mail = renderMail("orderRejected", PARAMS.orderRejected, await contextIn("en"));
    expect(mail.subject).toBe("Order #41 rejected");
    expect(mail.text).toContain("Reason: Stock <épuisé>");
    expect(mail.html).toContain("Reason: Stock &lt;épuisé&gt;");
    expect(mail.text).toContain("12.50 coins were refunded to your balance.");
    expect(mail.text).toContain("View my billing:\nhttps://shop.example.com/dashboard?tab=billing");
    expect(mail.html).toContain('href="https://shop.example.com/dashboard?tab=billing"');
  });

  it("writes coins removed with the ledger's reason in the reader's language", async () => {
    const fr = renderMail("coinsChanged", PARAMS.coinsChanged, await contextIn("fr"));
    expect(fr.subject).toBe("3,00 coins retirés de votre solde");
    expect(fr.text).toContain("Votre solde est maintenant de 7,00 coins.");
    expect(fr.text).toMatch(/Motif : .*41.*VPS Entry/);
  });

  it("writes Arabic right to left, with the values isolated", async () => {
    const mail = renderMail("staffTicketOpened", PARAMS.staffTicketOpened, await contextIn("ar"));
    expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(mail.html).toContain("text-align:right");
    expect(mail.subject).toContain("تذكرة جديدة رقم \u20687\u2069");
    expect(mail.text).toContain("فُتحت التذكرة رقم");
  });

  it("tells staff why they receive it, and customers theirs", async () => {
    const context = await contextIn("en");
    expect(renderMail("staffOrderWaiting", PARAMS.staffOrderWaiting, context).text).toContain(
      "because you are an administrator of Hostfront",
    );
    expect(renderMail("orderApproved", PARAMS.orderApproved, context).text).toContain(
      "because you have an account at Hostfront",
    );
  });
});
