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
  const common = i18n.getFixedT(null, "common");
  const coins = i18n.getFixedT(null, "coins");
  return {
    locale,
    t: i18n.getFixedT(null, "mail"),
    department: (department) => common(DEPARTMENT_LABELS[department]),
    ledgerReason: (reason) => ledgerReasonText(reason, (key, values) => coins(key, values)),
    siteName: "Hostfront",
    baseUrl: "https://shop.example.com",
    timeZone: "UTC",
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
  documentIssued: {
    document: { kind: "credit_note", number: "HFC-2031-000004", totalCents: -1250 },
  },
  topUpRejected: { reference: "K7QX-2M", coins: 10, reason: "No payment <received>" },
  ticketAnswered: {
    id: 7,
    subject: "My server is down",
    reply: "We restarted it.\nTry <b>now</b> & tell us.",
    replyCut: false,
  },
  staffOrderWaiting: { id: 41, product: "VPS Entry", totalCents: 1250 },
  staffTicketOpened: {
    id: 7,
    department: "billing",
    subject: "Refund <please>",
    excerpt: "I paid twice.\n<script>alert(1)</script>",
    cut: false,
  },
  staffTicketReplied: {
    id: 7,
    department: "technical",
    subject: "My server is down",
    excerpt: "Still down & <i>slow</i>.",
    cut: true,
  },
  staffTicketReplies: {
    from: "2031-03-12T04:10:00.000Z",
    until: "2031-03-12T04:20:00.000Z",
    skipFirst: true,
    count: 31,
    ticketCount: 22,
    tickets: Array.from({ length: 20 }, (_, i) => ({ id: 8 + i, replies: i === 0 ? 1 : 2 })),
  },
  staffTicketsOpened: {
    from: "2031-03-12T04:10:00.000Z",
    until: "2031-03-12T04:20:00.000Z",
    skipFirst: true,
    count: 23,
    tickets: Array.from({ length: 20 }, (_, i) => ({ id: 8 + i, department: "technical" })),
  },
  serviceExpiring: { service: "Alpha SMP", expiresAt: "2031-03-12T04:17:00.000Z", days: 3 },
  serviceRenewalShort: {
    service: "Alpha SMP",
    expiresAt: "2031-03-12T04:17:00.000Z",
    missingCents: 450,
  },
  serviceRenewed: {
    service: "Alpha SMP",
    expiresAt: "2031-04-12T04:17:00.000Z",
    amountCents: 800,
    automatic: true,
    reactivated: false,
  },
  serviceSuspended: { service: "Alpha SMP", reason: "expired" },
  serviceTerminationWarning: {
    service: "Alpha SMP",
    terminatesAt: "2031-03-28T03:00:00.000Z",
    days: 1,
  },
  serviceTerminated: { service: "Alpha SMP", reason: "expired" },
  serviceReady: {
    service: "Alpha SMP",
    address: "203.0.113.20:22003",
    ports: { game: 22003, announce: 22126, http: 22004 },
    panelLink: "https://panel.example.com/server/abcd1234",
    secretsDrawn: true,
  },
  serverOffline: {
    service: "Alpha SMP",
    offlineSince: "2031-03-12T04:17:00.000Z",
    minutes: 10,
  },
  servicePlanChanged: {
    service: "SAMP Premium (Alpha SMP)",
    fromPlan: "SAMP Starter",
    toPlan: "SAMP Premium",
    direction: "upgrade",
    amountCents: 103,
    expiresAt: "2031-04-12T04:17:00.000Z",
    resized: true,
    document: { kind: "invoice", number: "HF-2031-000042", totalCents: 103 },
  },
  passwordReset: { token: "Abc123def456ghi789jkl012" },
  passwordChanged: { at: "2031-03-12T04:17:00.000Z" },
  adminSignIn: {
    at: "2031-03-12T04:17:00.000Z",
    ip: "203.0.113.9",
    userAgent: "Mozilla/5.0 (X11; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0",
  },
  twoFactorReset: { resetAt: "2031-03-12T04:17:00.000Z" },
  emailVerification: { token: "eyJhbGciOiJIUzI1NiJ9.e30.c2lnbmF0dXJl", change: false },
  emailChanged: { oldEmail: "old@example.com", newEmail: "new@example.com" },
  roleChanged: {
    change: "changed",
    from: "billing",
    to: "support",
    at: "2031-03-12T04:17:00.000Z",
  },
  dataExportReady: {
    token: "Qm9yZWRvbV9pc19hX3Rva2VuXzEyMzQ1Njc4OTAxMjM",
    expiresAt: "2031-03-19T04:17:00.000Z",
  },
  campaign: {
    campaignId: 3,
    subject: "Summer <offers>",
    body: "First paragraph.\n\nSecond paragraph.",
    token: "eyJwdXJwb3NlIjoidW5zdWJzY3JpYmUifQ.c2lnbmF0dXJl",
  },
  newsletterConfirmation: { token: "eyJwdXJwb3NlIjoiY29uZmlybSJ9.c2lnbmF0dXJl" },
};

/** `kind`'s message in `context`, written from its sample values (PARAMS) with `changes` over them. */
function sampleMail(kind: MailKind, context: MailContext, changes: Record<string, unknown> = {}) {
  return renderMail(kind, { ...PARAMS[kind], ...changes }, context);
}

/** The messages about a customer's service: every kind named service*, so a new one is checked too. */
const SERVICE_KINDS = MAIL_KINDS.filter((kind) => kind.startsWith("service"));

/**
 * One thing a service message says: its kind, its part, what the part is (a subject whole, a text in part,
 * or either matching a pattern), and the values changed from the sample's.
 */
type ServiceLine = [
  kind: MailKind,
  part: "subject" | "text",
  says: string | RegExp,
  changes?: Record<string, unknown>,
];

/** Checks each line against its message, written in `context`; `read` takes off what a language adds. */
function expectServiceLines(
  context: MailContext,
  lines: ServiceLine[],
  read = (written: string) => written,
) {
  for (const [kind, part, says, changes] of lines) {
    const written = read(sampleMail(kind, context, changes)[part]);
    if (says instanceof RegExp) expect(written, kind).toMatch(says);
    else if (part === "subject") expect(written, kind).toBe(says);
    else expect(written, kind).toContain(says);
  }
}

/** A text without the isolates Arabic puts around each value. */
const plain = (value: string) => value.replace(/[\u2068\u2069]/g, "");

describe("the mail templates", () => {
  it.each(SUPPORTED_LOCALES)(
    "write every message in %s, as HTML and plain text",
    async (locale) => {
      const context = await contextIn(locale);
      for (const kind of MAIL_KINDS) {
        const mail = sampleMail(kind, context);
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
    const mail = sampleMail("orderRejected", await contextIn("en"));
    expect(mail.subject).toBe("Order #41 rejected");
    expect(mail.text).toContain("Reason: Stock <épuisé>");
    expect(mail.html).toContain("Reason: Stock &lt;épuisé&gt;");
    expect(mail.text).toContain("12.50 coins were refunded to your balance.");
    expect(mail.text).toContain("View my billing:\nhttps://shop.example.com/dashboard/billing");
    expect(mail.html).toContain('href="https://shop.example.com/dashboard/billing"');
  });

  it("writes coins removed with the ledger's reason in the reader's language", async () => {
    const fr = sampleMail("coinsChanged", await contextIn("fr"));
    expect(fr.subject).toBe("3,00 coins retirés de votre solde");
    expect(fr.text).toContain("Votre solde est maintenant de 7,00 coins.");
    expect(fr.text).toMatch(/Motif : .*41.*VPS Entry/);
  });

  it.each(SUPPORTED_LOCALES)(
    "names the document a message carries in %s, with a link to its page",
    async (locale) => {
      const context = await contextIn(locale);
      const cases = [
        ["orderReceived", { kind: "invoice", number: "HF-2031-000012", totalCents: 1250 }],
        ["serviceRenewed", { kind: "invoice", number: "HF-2031-000013", totalCents: 1000 }],
        ["coinsChanged", { kind: "receipt", number: "HFR-2031-000002", totalCents: 1000 }],
        ["orderRejected", { kind: "credit_note", number: "HFC-2031-000004", totalCents: -1250 }],
        ["documentIssued", { kind: "invoice", number: "HF-2031-000014", totalCents: 1250 }],
        ["documentIssued", { kind: "receipt", number: "HFR-2031-000003", totalCents: 1000 }],
      ] as const;
      for (const [kind, document] of cases) {
        const mail = sampleMail(kind, context, { document });
        const href = `https://shop.example.com/invoices/${document.number}`;
        expect(mail.text, kind).toContain(href);
        expect(mail.html, kind).toContain(`href="${href}"`);
        expect(plain(mail.text), kind).toContain(document.number);
        expect(plain(mail.text), kind).toMatch(locale === "en" ? /1[02]\.[05]0/ : /1[02],[05]0/);
        expect(mail.text, kind).not.toMatch(/\b(document|documentIssued)\.[a-zA-Z]/);
        expect(mail.text, kind).not.toContain("{{");
      }
      // Without a document (an order placed before invoices), the same message as before.
      const without = sampleMail("orderReceived", context);
      expect(without.text).not.toContain("/invoices/");
    },
  );

  it("writes the documents in English: what was issued, for how much, where they all are", async () => {
    const en = await contextIn("en");
    const received = sampleMail("orderReceived", en, {
      document: { kind: "invoice", number: "HF-2031-000012", totalCents: 1250 },
    });
    expect(received.text).toContain(
      "Invoice HF-2031-000012 (12.50 coins) was issued to you.\nView the invoice:\nhttps://shop.example.com/invoices/HF-2031-000012",
    );
    const credit = sampleMail("documentIssued", en);
    expect(credit.subject).toBe("Your credit note HFC-2031-000004");
    expect(credit.text).toContain("We issued credit note HFC-2031-000004 for 12.50 coins");
    expect(credit.text).toContain(
      "View the credit note:\nhttps://shop.example.com/invoices/HFC-2031-000004",
    );
    const receipt = renderMail(
      "coinsChanged",
      {
        amountCents: 1000,
        balanceCents: 1300,
        reason: {
          reason: "Top-up K7QX-2M (Orange Money)",
          reasonKey: "topUp",
          reasonParams: { reference: "K7QX-2M", method: "Orange Money" },
        },
        document: { kind: "receipt", number: "HFR-2031-000002", totalCents: 1000 },
      },
      en,
    );
    expect(receipt.subject).toBe("10.00 coins added to your balance");
    expect(receipt.text).toContain("Reason: Top-up K7QX-2M (Orange Money)");
    expect(receipt.text).toContain(
      "Payment receipt HFR-2031-000002 (10.00 coins) was issued to you.",
    );
    // A document not found when the message was written: where they all are.
    const lost = renderMail("documentIssued", { documentOf: { orderId: 4 } }, en);
    expect(lost.subject).toBe("A new document in your account");
    expect(lost.text).toContain("https://shop.example.com/dashboard/billing");
  });

  it.each(SUPPORTED_LOCALES)(
    "tells a customer in %s that a top-up was rejected, why, and where to add coins",
    async (locale) => {
      const mail = sampleMail("topUpRejected", await contextIn(locale));
      expect(plain(mail.subject)).toContain("K7QX-2M");
      expect(plain(mail.text)).toContain("No payment <received>");
      expect(mail.html).toContain("No payment &lt;received&gt;");
      expect(mail.text).toContain("https://shop.example.com/dashboard/top-up");
      expect(mail.text).not.toMatch(/topUpRejected\.[a-z]/);
    },
  );

  it("writes a rejected top-up in English and French", async () => {
    const en = sampleMail("topUpRejected", await contextIn("en"));
    expect(en.subject).toBe("Top-up K7QX-2M rejected");
    expect(en.text).toContain(
      "Our team rejected your top-up request K7QX-2M for 10.00 coins: no coins were added to your balance.",
    );
    expect(en.text).toContain("Reason: No payment <received>");
    expect(en.text).toContain("Add coins:\nhttps://shop.example.com/dashboard/top-up");
    const fr = sampleMail("topUpRejected", await contextIn("fr"));
    expect(fr.subject).toBe("Recharge K7QX-2M refusée");
    expect(fr.text).toContain("Motif : No payment <received>");
  });

  it.each(SUPPORTED_LOCALES)(
    "quotes what was written on a ticket in %s, escaped, with a note when it was cut",
    async (locale) => {
      const context = await contextIn(locale);
      const answered = sampleMail("ticketAnswered", context);
      expect(answered.text).toContain("> We restarted it.\n> Try <b>now</b> & tell us.");
      expect(answered.html).toContain(
        "We restarted it.<br/>Try &lt;b&gt;now&lt;/b&gt; &amp; tell us.",
      );
      expect(answered.html).not.toContain("<b>now");
      const opened = sampleMail("staffTicketOpened", context);
      expect(plain(opened.subject)).toContain("Refund <please>");
      expect(opened.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
      expect(opened.html).not.toContain("<script>");
      expect(plain(opened.text)).toContain("Refund <please>");
      const replied = sampleMail("staffTicketReplied", context);
      expect(replied.html).toContain("Still down &amp; &lt;i&gt;slow&lt;/i&gt;.");
      expect(replied.text).toContain("https://shop.example.com/admin/tickets/7");
      // Cut: a sentence more than when whole, saying where the rest is.
      const whole = sampleMail("staffTicketReplied", context, { cut: false });
      expect(replied.text.split("\n").length).toBe(whole.text.split("\n").length + 2);
      const summary = sampleMail("staffTicketReplies", context);
      expect(plain(summary.text)).toMatch(/31/);
      expect(summary.text).toContain("https://shop.example.com/admin/tickets\n");
      for (const mail of [answered, opened, replied, whole, summary])
        expect(mail.text).not.toMatch(/\b(staffTicket\w*|ticketAnswered)\.[a-z]/);
    },
  );

  it("writes the ticket mails in English and French", async () => {
    const en = await contextIn("en");
    const fr = await contextIn("fr");
    expect(sampleMail("staffTicketOpened", en).subject).toBe(
      "New ticket #7 (Billing and coins): Refund <please>",
    );
    expect(sampleMail("staffTicketOpened", fr).subject).toBe(
      "Nouveau ticket n° 7 (Facturation et coins) : Refund <please>",
    );
    expect(sampleMail("staffTicketReplied", en).text).toContain(
      "This is the beginning of the reply: read all of it on the ticket.",
    );
    const summary = sampleMail("staffTicketReplies", en);
    expect(summary.subject).toBe("31 customer replies");
    expect(summary.text).toContain("#8 (1 reply), #9 (2 replies)");
    expect(summary.text).toContain("and 2 more tickets.");
    expect(sampleMail("staffTicketReplies", fr).subject).toBe("31 réponses de clients");
    // A message queued before it carried the reply: the link alone, as before.
    const older = sampleMail("ticketAnswered", en, { reply: undefined, replyCut: undefined });
    expect(older.text).not.toContain("> ");
    expect(sampleMail("staffTicketOpened", en, { subject: undefined }).subject).toBe(
      "New ticket #7 (Billing and coins)",
    );
  });

  it("writes Arabic right to left, with the values isolated", async () => {
    const mail = sampleMail("staffTicketOpened", await contextIn("ar"));
    expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(mail.html).toContain("text-align:right");
    expect(mail.subject).toContain("تذكرة جديدة رقم \u20687\u2069");
    expect(mail.text).toContain("فُتحت التذكرة رقم");
  });

  it("tells staff why they receive it, and customers theirs", async () => {
    const context = await contextIn("en");
    expect(sampleMail("staffOrderWaiting", context).text).toContain(
      "because you are an administrator of Hostfront",
    );
    expect(sampleMail("orderApproved", context).text).toContain(
      "because you have an account at Hostfront",
    );
  });

  // The messages staff get: the staff* kinds (to every admin) and an admin's sign-in notice.
  const STAFF_KINDS = [
    ...MAIL_KINDS.filter((kind) => kind.startsWith("staff")),
    "adminSignIn",
  ] as const;
  const LIST_KINDS = ["campaign", "newsletterConfirmation"] as const;

  it.each(SUPPORTED_LOCALES)(
    "ends every staff message with the staff footer in %s, never the customer's",
    async (locale) => {
      const context = await contextIn(locale);
      const { t } = context;
      const staffFooter = [
        "--",
        t("layout.footerStaff", { site: "Hostfront" }),
        t("layout.automaticStaff"),
        `${t("layout.staffSettings")}:`,
        "https://shop.example.com/admin/notifications",
        "",
      ].join("\n");
      const customerLine = t("layout.automatic");
      for (const kind of STAFF_KINDS) {
        const mail = sampleMail(kind, context);
        expect(mail.text.endsWith(staffFooter), `${kind}: ${mail.text}`).toBe(true);
        expect(mail.text, kind).not.toContain(customerLine);
        expect(mail.text, kind).not.toContain(t("layout.footerCustomer", { site: "Hostfront" }));
        expect(mail.html, kind).toContain('href="https://shop.example.com/admin/notifications"');
        expect(mail.html, kind).not.toContain(customerLine);
      }
      for (const kind of MAIL_KINDS.filter(
        (kind) =>
          !(STAFF_KINDS as readonly string[]).includes(kind) &&
          !(LIST_KINDS as readonly string[]).includes(kind),
      )) {
        const mail = sampleMail(kind, context);
        expect(mail.text, kind).toContain(customerLine);
        expect(mail.text, kind).not.toContain(t("layout.automaticStaff"));
        expect(mail.html, kind).not.toContain("/admin/notifications");
      }
      // A list's messages (a campaign, the newsletter's confirmation) may reach someone without an
      // account: their own footer, never the customer's nor the staff's; a campaign's with its
      // unsubscribe link.
      for (const kind of LIST_KINDS) {
        const mail = sampleMail(kind, context);
        expect(mail.text, kind).not.toContain(customerLine);
        expect(mail.text, kind).not.toContain(t("layout.footerCustomer", { site: "Hostfront" }));
        expect(mail.text, kind).not.toContain(t("layout.automaticStaff"));
      }
      const campaign = sampleMail("campaign", context);
      expect(campaign.text).toContain(t("campaign.footer", { site: "Hostfront" }));
      expect(campaign.text).toContain(
        `${t("campaign.unsubscribe")}:\nhttps://shop.example.com/unsubscribe?token=`,
      );
      expect(campaign.html).toContain('href="https://shop.example.com/unsubscribe?token=');
      expect(sampleMail("newsletterConfirmation", context).text).toContain(
        t("layout.footerSubscriber", { site: "Hostfront" }),
      );
    },
  );

  it("says in English where staff mail is changed", async () => {
    const mail = sampleMail("staffTicketOpened", await contextIn("en"));
    expect(mail.text).toContain(
      "every administrator gets the shop's staff mail.\nIt was sent automatically. The mail every administrator gets follows the account's role; the mail you chose to get (customer replies to tickets) is set on your notifications page.",
    );
    expect(mail.text).not.toContain("open a ticket from your dashboard");
  });

  it.each(SUPPORTED_LOCALES)(
    "writes every service message in %s, naming the service, linking to the services tab",
    async (locale) => {
      const context = await contextIn(locale);
      expect(SERVICE_KINDS).toHaveLength(8);
      for (const kind of SERVICE_KINDS) {
        const mail = sampleMail(kind, context);
        expect(plain(mail.subject), kind).toContain("Alpha SMP");
        expect(plain(mail.text), kind).toContain("Alpha SMP");
        expect(mail.text, kind).toContain("https://shop.example.com/dashboard/services");
        expect(mail.html, kind).toContain('href="https://shop.example.com/dashboard/services"');
        expect(mail.text, kind).not.toMatch(/\b(service[A-Za-z]*)\.[a-z]/);
        expect(mail.text, kind).not.toContain("{{");
      }
    },
  );

  it("writes the service messages in English with their dates, amounts and days", async () => {
    expectServiceLines(await contextIn("en"), [
      ["serviceExpiring", "subject", "Your service Alpha SMP expires in 3 days"],
      ["serviceExpiring", "text", "Your service Alpha SMP expires on 12 March 2031 at 04:17"],
      ["serviceExpiring", "subject", "Your service Alpha SMP expires within a day", { days: 1 }],
      ["serviceRenewalShort", "subject", "Automatic renewal of Alpha SMP: 4.50 coins missing"],
      ["serviceRenewalShort", "text", "your balance lacks 4.50 coins"],
      ["serviceRenewed", "subject", /^Your service Alpha SMP is renewed until 12 April 2031/],
      ["serviceRenewed", "text", "was renewed automatically: 8.00 coins were taken"],
      // Renewed by hand, from suspended.
      [
        "serviceRenewed",
        "text",
        "You renewed your service Alpha SMP: 8.00 coins",
        { automatic: false, reactivated: true },
      ],
      [
        "serviceRenewed",
        "text",
        "It was suspended and is active again.",
        { automatic: false, reactivated: true },
      ],
      ["serviceSuspended", "text", "because it expired and was not renewed"],
      ["serviceSuspended", "text", "was suspended by our team", { reason: "admin" }],
      [
        "serviceTerminationWarning",
        "subject",
        "Your service Alpha SMP will be terminated within a day",
      ],
      ["serviceTerminationWarning", "text", "will be terminated on 28 March 2031"],
      ["serviceTerminated", "subject", "Your service Alpha SMP is terminated"],
      ["serviceTerminated", "text", "was terminated by our team", { reason: "admin" }],
    ]);
  });

  it("writes the service messages in French, in the site's time zone", async () => {
    expectServiceLines({ ...(await contextIn("fr")), timeZone: "Europe/Paris" }, [
      ["serviceExpiring", "subject", "Votre service Alpha SMP expire dans 3 jours"],
      // 04:17 UTC is 05:17 in Paris in March.
      ["serviceExpiring", "text", /expire le 12 mars 2031.*05:17/],
      [
        "serviceRenewalShort",
        "subject",
        "Renouvellement automatique impossible pour Alpha SMP : il manque 4,50 coins",
      ],
      ["serviceRenewed", "text", "8,00 coins ont été prélevés"],
      [
        "serviceTerminationWarning",
        "subject",
        "Votre service Alpha SMP sera résilié dans moins d'un jour",
      ],
      ["serviceTerminated", "text", "a été résilié : il est resté suspendu"],
    ]);
  });

  it("writes the service messages in Arabic, right to left, with Arabic plurals", async () => {
    const ar = await contextIn("ar");
    expect(sampleMail("serviceExpiring", ar).html).toMatch(/<html lang="ar" dir="rtl">/);
    expectServiceLines(
      ar,
      [
        ["serviceExpiring", "subject", "تنتهي خدمتك Alpha SMP خلال 3 أيام"],
        ["serviceExpiring", "subject", "تنتهي خدمتك Alpha SMP خلال 7 أيام", { days: 7 }],
        ["serviceTerminationWarning", "subject", "سيتم إنهاء خدمتك Alpha SMP خلال يوم واحد"],
        ["serviceSuspended", "subject", "تم تعليق خدمتك Alpha SMP"],
        ["serviceRenewed", "text", "تم تجديد خدمتك Alpha SMP تلقائيًا"],
      ],
      plain,
    );
  });

  it("says at approval that a server is being set up, or that our team sets the service up", async () => {
    const en = await contextIn("en");
    const panel = sampleMail("orderApproved", en, { setup: "panel" });
    expect(panel.text).toContain(
      "Your order #41 for VPS Entry was approved. We are setting up your server now",
    );
    expect(panel.text).toContain("with its address and how to sign in to the game panel");
    const manual = sampleMail("orderApproved", en, { setup: "manual" });
    expect(manual.text).toContain("Our team is setting up your service");
    for (const mail of [panel, manual]) expect(mail.text).not.toContain("is now active");
    expect(sampleMail("orderApproved", await contextIn("fr"), { setup: "panel" }).text).toContain(
      "Nous installons votre serveur",
    );
    expect(
      plain(sampleMail("orderApproved", await contextIn("ar"), { setup: "panel" }).text),
    ).toContain("نحن نُعِدّ خادمك الآن");
  });

  it("tells that a server is ready: its address, MTA's three ports, the first sign-in, its RCON password", async () => {
    const en = await contextIn("en");
    const mail = sampleMail("serviceReady", en);
    expect(mail.subject).toBe("Your server Alpha SMP is ready");
    expect(mail.text).toContain(
      "Your server Alpha SMP is installed and running. Its address: 203.0.113.20:22003",
    );
    expect(mail.text).toContain("Its ports: game 22003, server list (ASE) 22126, HTTP 22004.");
    expect(mail.text).toContain(
      "sign in with the email address this message was sent to. The first time, choose your password with the link the panel emailed you",
    );
    expect(mail.text).toContain("was drawn for this server alone");
    expect(mail.text).toContain("Startup page in the game panel");
    // The button opens the server's page on the panel; the services tab is under it.
    expect(mail.text).toContain("Open game panel:\nhttps://panel.example.com/server/abcd1234");
    expect(mail.html).toContain('href="https://panel.example.com/server/abcd1234"');
    expect(mail.text).toContain("View my services:\nhttps://shop.example.com/dashboard/services");
    // One port (SA-MP): the address says it all. A password not drawn: where the settings are.
    const single = sampleMail("serviceReady", en, { ports: { game: 7777 }, secretsDrawn: false });
    expect(single.text).not.toContain("Its ports");
    expect(single.text).toContain("the remote-admin (RCON) password among them");
    // No panel page known: the services tab is the button, once.
    const noLink = sampleMail("serviceReady", en, { panelLink: null });
    expect(noLink.text.match(/dashboard\/services/g)).toHaveLength(1);

    const fr = sampleMail("serviceReady", await contextIn("fr"));
    expect(fr.subject).toBe("Votre serveur Alpha SMP est prêt");
    expect(fr.text).toContain("Ses ports : jeu 22003, liste des serveurs (ASE) 22126, HTTP 22004.");
    expect(fr.text).toContain("Ouvrir le panneau de jeu:");
    const ar = sampleMail("serviceReady", await contextIn("ar"));
    expect(plain(ar.subject)).toBe("خادمك Alpha SMP جاهز");
    expect(plain(ar.text)).toContain("عنوانه: 203.0.113.20:22003");
    expect(plain(ar.text)).toContain("قائمة الخوادم (ASE) 22126");
  });

  it("tells that a server has been offline, since when, what to do and why the message came", async () => {
    const en = await contextIn("en");
    const mail = sampleMail("serverOffline", en);
    expect(mail.subject).toBe("Your server Alpha SMP is offline");
    expect(mail.text).toMatch(
      /Your server Alpha SMP has been offline since .*2031.*: 10 minutes or more\./,
    );
    expect(mail.text).toContain("Start it again from its page on your dashboard");
    expect(mail.text).toContain("you turned on the offline notice for this server");
    expect(mail.text).toContain("View my services:\nhttps://shop.example.com/dashboard/services");
    const fr = sampleMail("serverOffline", await contextIn("fr"));
    expect(fr.subject).toBe("Votre serveur Alpha SMP est hors ligne");
    expect(fr.text).toContain("au moins 10 minutes.");
    const ar = sampleMail("serverOffline", await contextIn("ar"));
    expect(plain(ar.subject)).toBe("خادمك Alpha SMP متوقف");
    expect(plain(ar.text)).toContain("10 دقائق على الأقل");
  });

  /** A suspension for expiry as the lifecycle queues it (values of mail-plan.server.ts). */
  const suspended = {
    service: "Alpha SMP",
    serviceId: 7,
    reason: "expired",
    suspendedAt: "2031-03-12T04:17:00.000Z",
    terminatesAt: "2031-03-26T04:17:00.000Z",
    priceCents: 1250,
    cycle: "quarterly",
    missingCents: 0,
  };

  it("tells a suspension for expiry when it happened, when it is terminated, what renewing costs", async () => {
    const en = await contextIn("en");
    const covered = renderMail("serviceSuspended", suspended, en);
    expect(covered.text).toContain(
      "Your service Alpha SMP was suspended on 12 March 2031 at 04:17 because it expired and was not renewed.",
    );
    expect(covered.text).toContain(
      "Without a renewal it will be terminated on 26 March 2031 at 04:17",
    );
    expect(covered.text).toContain("Renewing it costs 12.50 coins for three months.");
    expect(covered.text).toContain(
      "Renew now:\nhttps://shop.example.com/dashboard/services?renew=7#renewal",
    );
    const short = renderMail("serviceSuspended", { ...suspended, missingCents: 450 }, en);
    expect(short.text).toContain("Your balance lacks 4.50 coins for it: add coins, then renew it.");
    expect(short.text).toContain("Add coins:\nhttps://shop.example.com/coins");
    expect(short.text).not.toContain("Renew now");
    // An admin's suspension says none of it: the lifecycle will not end it.
    const byAdmin = renderMail("serviceSuspended", { ...suspended, reason: "admin" }, en);
    expect(byAdmin.text).toContain("was suspended by our team");
    expect(byAdmin.text).not.toContain("terminated");

    const fr = renderMail("serviceSuspended", suspended, {
      ...(await contextIn("fr")),
      timeZone: "Europe/Paris",
    });
    expect(fr.text).toMatch(/il sera résilié le 26 mars 2031.*05:17/);
    expect(fr.text).toContain("Le renouveler coûte 12,50 coins pour trois mois.");
    const ar = renderMail("serviceSuspended", suspended, await contextIn("ar"));
    expect(plain(ar.text)).toContain("لمدة ثلاثة أشهر");
    expect(plain(ar.text)).toContain("2031");
  });

  it("tells a short balance what renewing costs, when the term ends or ended, and what follows", async () => {
    const en = await contextIn("en");
    const params = {
      service: "Alpha SMP",
      serviceId: 7,
      expiresAt: "2031-03-12T04:17:00.000Z",
      expired: false,
      suspendsAt: "2031-03-14T04:17:00.000Z",
      terminatesAt: "2031-03-28T04:17:00.000Z",
      priceCents: 1250,
      cycle: "monthly",
      missingCents: 450,
    };
    const coming = renderMail("serviceRenewalShort", params, en);
    expect(coming.subject).toBe("Automatic renewal of Alpha SMP: 4.50 coins missing");
    expect(coming.text).toContain(
      "renewing it costs 12.50 coins for one month, and your balance lacks 4.50 coins.",
    );
    expect(coming.text).toContain("Its term ends on 12 March 2031 at 04:17.");
    expect(coming.text).toContain(
      "Unless it is renewed, it will be suspended on 14 March 2031 at 04:17 and terminated on 28 March 2031 at 04:17.",
    );
    expect(coming.text).toContain("Add coins:\nhttps://shop.example.com/coins");
    const past = renderMail("serviceRenewalShort", { ...params, expired: true }, en);
    expect(past.text).toContain("Its term ended on 12 March 2031 at 04:17.");
    expect(past.text).not.toContain("ends on");
    const fr = renderMail(
      "serviceRenewalShort",
      { ...params, expired: true },
      await contextIn("fr"),
    );
    expect(fr.text).toContain("Sa période s'est terminée le 12 mars 2031");
    expect(fr.text).toContain("il sera suspendu le 14 mars 2031");
    const ar = renderMail("serviceRenewalShort", params, await contextIn("ar"));
    expect(plain(ar.text)).toContain("ستُعلَّق في");
    expect(plain(ar.text)).toContain("لمدة شهر واحد");
  });

  it("says an order given up on by the lifecycle was not reviewed, in the reader's language", async () => {
    const params = { id: 41, product: "VPS Entry", expiredDays: 7, refundCents: 1250 };
    const en = renderMail("orderRejected", params, await contextIn("en"));
    expect(en.text).toContain("Reason: our team did not review it within 7 days.");
    const fr = renderMail("orderRejected", params, await contextIn("fr"));
    expect(fr.text).toContain("Motif : notre équipe ne l'a pas examinée sous 7 jours.");
    expect(fr.text).not.toContain("Not reviewed");
    const ar = renderMail("orderRejected", params, await contextIn("ar"));
    expect(plain(ar.text)).toContain("السبب: لم يراجعه فريقنا خلال 7 أيام.");
  });

  it("writes the security mail: a reset link to our page, the change notice, an admin's sign-in", async () => {
    const en = await contextIn("en");
    const reset = sampleMail("passwordReset", en);
    expect(reset.subject).toBe("Reset your password at Hostfront");
    expect(reset.text).toContain(
      "Choose a new password:\nhttps://shop.example.com/reset-password?token=Abc123def456ghi789jkl012",
    );
    expect(reset.html).toContain(
      'href="https://shop.example.com/reset-password?token=Abc123def456ghi789jkl012"',
    );
    expect(reset.text).toContain("the link works once, for one hour");
    const changed = sampleMail("passwordChanged", en);
    expect(changed.text).toContain("changed on 12 March 2031 at 04:17");
    expect(changed.text).toContain("every session of the account was signed out");
    const signIn = sampleMail("adminSignIn", en);
    expect(signIn.text).toContain("Address: 203.0.113.9");
    expect(signIn.text).toContain("Browser: Firefox 126 on Linux");
    expect(signIn.text).toContain("https://shop.example.com/admin/security");
    expect(signIn.text).toContain("you are an administrator of Hostfront");

    const fr = sampleMail("adminSignIn", await contextIn("fr"));
    expect(fr.subject).toBe("Nouvelle connexion à votre compte administrateur sur Hostfront");
    expect(fr.text).toContain("Firefox 126 sous Linux");
    const ar = sampleMail("passwordReset", await contextIn("ar"));
    expect(ar.html).toMatch(/<html lang="ar" dir="rtl">/);
    expect(plain(ar.text)).toContain("يعمل الرابط مرة واحدة فقط، لمدة ساعة");
    expect(ar.text).toContain("/reset-password?token=Abc123def456ghi789jkl012");
  });

  it.each(SUPPORTED_LOCALES)(
    "tells a user in %s that their two-factor sign-in was reset, linking to where it is set up",
    async (locale) => {
      const mail = sampleMail("twoFactorReset", await contextIn(locale));
      const href = "https://shop.example.com/dashboard/account#two-factor";
      expect(mail.text).toContain(href);
      expect(mail.html).toContain(`href="${href}"`);
      expect(plain(mail.text)).toContain("2031");
      expect(mail.text).not.toMatch(/twoFactorReset\.[a-z]/);
      expect(mail.text).not.toContain("{{");
    },
  );

  it("writes the two-factor reset in English", async () => {
    const mail = sampleMail("twoFactorReset", await contextIn("en"));
    expect(mail.subject).toBe("Two-factor sign-in was turned off on your account");
    expect(mail.text).toContain("on 12 March 2031 at 04:17");
    expect(mail.text).toContain("If you did not ask for this");
  });

  it("tells a person, in English, that they joined the staff, changed role or left it", async () => {
    const context = await contextIn("en");
    const added = sampleMail("roleChanged", context, { change: "added", from: null, to: "owner" });
    expect(added.subject).toBe("You are now on the staff of Hostfront (Owner)");
    expect(added.text).toContain(
      "An owner of Hostfront made your account a member of the staff on 12 March 2031 at 04:17, with the role Owner.",
    );
    expect(added.text).toContain("sign in again");
    expect(added.text).toContain("https://shop.example.com/admin");
    const changed = sampleMail("roleChanged", context);
    expect(changed.subject).toBe("Your staff role at Hostfront is now Support");
    expect(changed.text).toContain("from Billing to Support");
    const removed = sampleMail("roleChanged", context, { change: "removed", to: null });
    expect(removed.subject).toBe("You are no longer on the staff of Hostfront");
    expect(removed.text).toContain("(your role was Billing)");
    expect(removed.text).toContain("a customer account again");
    expect(removed.text).toContain("https://shop.example.com/dashboard");
    expect(removed.text).not.toContain("https://shop.example.com/admin");
    // A stored role that names none is said as such, never as a key.
    const unknown = sampleMail("roleChanged", context, { from: "root" });
    expect(unknown.text).toContain("from no role to Support");
  });

  it.each(SUPPORTED_LOCALES)(
    "writes each staff change in %s, with the roles' names in that language",
    async (locale) => {
      const context = await contextIn(locale);
      for (const change of ["added", "changed", "removed"]) {
        const mail = sampleMail("roleChanged", context, { change });
        expect(mail.text, change).not.toMatch(/roleChanged\.[a-z]/);
        expect(mail.text, change).not.toContain("{{");
        expect(plain(mail.text), change).toContain("2031");
        expect(plain(mail.text), change).toContain(
          context.t(
            change === "removed" ? "roleChanged.roles.billing" : "roleChanged.roles.support",
          ),
        );
      }
      if (locale === "fr")
        expect(sampleMail("roleChanged", context).subject).toBe(
          "Votre rôle dans l'équipe de Hostfront est désormais Support",
        );
      if (locale === "ar")
        expect(plain(sampleMail("roleChanged", context).subject)).toBe(
          "أصبح دورك في فريق Hostfront: الدعم",
        );
    },
  );
});
