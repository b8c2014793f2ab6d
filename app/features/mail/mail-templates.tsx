import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import type { StoredLedgerReason } from "~/domain/coins/ledger-reason";
import { resetLinkPath } from "~/domain/accounts/password-reset";
import { EMAIL_VERIFICATION_HOURS, verificationLink } from "~/domain/accounts/email-verification";
import { TOP_UP_PAGE } from "~/components/layout/coin-dialog";
import { documentPath, type DocumentKind } from "~/domain/invoices/invoices";
import type { MailKind } from "~/domain/mail/mail";
import type { Department } from "~/domain/tickets/tickets";
import { formatCoins } from "~/lib/money";
import { describeUserAgent } from "~/lib/user-agent";
import type { NamespaceKey } from "~/i18n/use-message";
import { cents, formatWhen, text } from "./mail-format";
import { MailQuote } from "./mail-quote";
import { planChangeContent } from "./plan-change-templates";
import { serviceContent } from "./service-templates";
import { staffTicketContent } from "./staff-ticket-templates";
import { roleChangedContent } from "./staff-role-templates";
import { dataExportReadyContent } from "./data-export-templates";
import { campaignContent, newsletterConfirmationContent } from "./campaign-templates";

// The email template set (ADR 32): plain React rendered on the server with
// renderToStaticMarkup. A template turns a message's values into its content (a heading, paragraphs, a
// button link); one layout draws every message as HTML, and the same content is written as the
// plain-text part, so the two never say different things. Inline styles and tables only: mail readers
// drop <style> sheets and ignore most of CSS. Only server code imports this module (mail-writer.ts:
// the send job, and /admin/mail's loader for kept messages).

/** The mail namespace's texts, its keys checked against the English catalogue. */
export type Translate = (key: NamespaceKey<"mail">, values?: Record<string, unknown>) => string;

/** What a template is given: the recipient's language and its words, and the site's name and address. */
export interface MailContext {
  locale: string;
  /** The mail namespace. */
  t: Translate;
  department: (department: Department) => string;
  ledgerReason: (reason: StoredLedgerReason) => string;
  siteName: string;
  /** PUBLIC_URL without a trailing slash: every link of a message is absolute. */
  baseUrl: string;
  /** The site's time zone (its settings), for dates such as a service's expiry; the default's without. */
  timeZone?: string;
}

/** A message before it is drawn: the same for its HTML and its text. */
export interface MailContent {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** One call to action, a link to the site (or to the game panel). */
  button?: { label: string; href: string };
  /** A second way on, under the button: where the customer's services are, beside renewing one. */
  more?: { label: string; href: string };
  /**
   * The numbered document the event produced (an invoice, a receipt, a credit note): a sentence naming
   * it and a link to its page, under the paragraphs (docs/mail.md#documents-and-top-ups).
   */
  document?: { text: string; label: string; href: string };
  /**
   * What someone wrote, quoted under the paragraphs (a staff reply, a customer's message): `intro` before
   * it, its lines as they were typed (text, never markup), and `after` it what is to be said about it
   * (that it was cut and where the rest is).
   */
  quote?: { intro?: string; text: string; after: string[] };
  /** Customer, staff, or someone on a mailing list (a campaign, the newsletter's confirmation). */
  audience: "customer" | "staff" | "subscriber";
  /** A campaign's footer: why it came and its unsubscribe link (docs/mail.md#campaigns). */
  unsubscribe?: { why: string; label: string; href: string };
}

function isStoredReason(value: unknown): value is StoredLedgerReason {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { reason?: unknown }).reason === "string"
  );
}

// Keys written out, so the catalogue test sees every one in use (docs/i18n.md).
const COINS_TEXTS = {
  added: {
    subject: "coinsAdded.subject",
    heading: "coinsAdded.heading",
    body: "coinsAdded.body",
  },
  removed: {
    subject: "coinsRemoved.subject",
    heading: "coinsRemoved.heading",
    body: "coinsRemoved.body",
  },
} as const;

/** Each document kind's texts (written out for the catalogue test). */
const DOCUMENT_TEXTS = {
  invoice: {
    line: "document.invoice",
    open: "document.openInvoice",
    subject: "documentIssued.subjectInvoice",
    heading: "documentIssued.headingInvoice",
    body: "documentIssued.bodyInvoice",
  },
  receipt: {
    line: "document.receipt",
    open: "document.openReceipt",
    subject: "documentIssued.subjectReceipt",
    heading: "documentIssued.headingReceipt",
    body: "documentIssued.bodyReceipt",
  },
  credit_note: {
    line: "document.creditNote",
    open: "document.openCreditNote",
    subject: "documentIssued.subjectCreditNote",
    heading: "documentIssued.headingCreditNote",
    body: "documentIssued.bodyCreditNote",
  },
} as const satisfies Record<DocumentKind, Record<string, string>>;

interface NamedDocument {
  kind: DocumentKind;
  number: string;
  totalCents: number;
}

/** The document a message's values name (`document`: mail.server.ts's DocumentRef), if they name one. */
function documentOf(params: Record<string, unknown>): NamedDocument | null {
  const value = params.document;
  if (!value || typeof value !== "object") return null;
  const { kind, number, totalCents } = value as Record<string, unknown>;
  if (typeof kind !== "string" || !Object.hasOwn(DOCUMENT_TEXTS, kind)) return null;
  if (typeof number !== "string" || !number) return null;
  return { kind: kind as DocumentKind, number, totalCents: cents(totalCents) };
}

/** A document's values in the reader's words: its number and its total (a credit note's as a sum). */
function documentValues(document: NamedDocument, locale: string) {
  return { number: document.number, total: formatCoins(Math.abs(document.totalCents), locale) };
}

/** The sentence and link that name the document a message carries; none when it names none. */
function documentLink(
  params: Record<string, unknown>,
  context: MailContext,
): MailContent["document"] {
  const document = documentOf(params);
  if (!document) return undefined;
  const texts = DOCUMENT_TEXTS[document.kind];
  return {
    text: context.t(texts.line, documentValues(document, context.locale)),
    label: context.t(texts.open),
    href: `${context.baseUrl}${documentPath(document.number)}`,
  };
}

/** A document by itself: a refund's credit note, or what a message turned off carried. */
function documentContent(params: Record<string, unknown>, context: MailContext): MailContent {
  const { t } = context;
  const document = documentOf(params);
  if (!document)
    // Not found when it was written (an order with no invoice): where the customer's documents are.
    return {
      subject: t("documentIssued.subject"),
      heading: t("documentIssued.heading"),
      paragraphs: [t("documentIssued.where")],
      button: {
        label: t("documentIssued.button"),
        href: `${context.baseUrl}/dashboard/billing`,
      },
      audience: "customer",
    };
  const texts = DOCUMENT_TEXTS[document.kind];
  const values = documentValues(document, context.locale);
  return {
    subject: t(texts.subject, values),
    heading: t(texts.heading),
    paragraphs: [t(texts.body, values), t("documentIssued.where")],
    button: { label: t(texts.open), href: `${context.baseUrl}${documentPath(document.number)}` },
    audience: "customer",
  };
}

/** The browser and system of a sign-in, as short as the security page shows them. */
function deviceOf(userAgent: unknown, t: Translate): string {
  const { browser, os } = describeUserAgent(typeof userAgent === "string" ? userAgent : null);
  if (browser && os) return t("adminSignIn.device", { browser, os });
  return browser ?? os ?? t("adminSignIn.unknownDevice");
}

/** Security mail (docs/mail.md#security-mail): a reset link, and what changed or signed in. */
function securityContent(
  kind: Extract<MailKind, "passwordReset" | "passwordChanged" | "adminSignIn">,
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, baseUrl } = context;
  const site = context.siteName;
  switch (kind) {
    case "passwordReset":
      return {
        subject: t("passwordReset.subject", { site }),
        heading: t("passwordReset.heading"),
        paragraphs: [t("passwordReset.body", { site }), t("passwordReset.notYou")],
        button: {
          label: t("passwordReset.button"),
          href: `${baseUrl}${resetLinkPath(text(params.token))}`,
        },
        audience: "customer",
      };
    case "passwordChanged":
      return {
        subject: t("passwordChanged.subject", { site }),
        heading: t("passwordChanged.heading"),
        paragraphs: [
          t("passwordChanged.body", { site, date: formatWhen(params.at, context) }),
          t("passwordChanged.notYou"),
        ],
        button: { label: t("passwordChanged.button"), href: `${baseUrl}/login` },
        audience: "customer",
      };
    case "adminSignIn":
      return {
        subject: t("adminSignIn.subject", { site }),
        heading: t("adminSignIn.heading"),
        paragraphs: [
          t("adminSignIn.body", { site, date: formatWhen(params.at, context) }),
          t("adminSignIn.address", { ip: text(params.ip) || "?" }),
          t("adminSignIn.browser", { device: deviceOf(params.userAgent, t) }),
          t("adminSignIn.notYou"),
        ],
        button: { label: t("adminSignIn.button"), href: `${baseUrl}/admin/security` },
        audience: "staff",
      };
  }
}

/** Each kind's content from its values (what mail.server.ts's plan() stored). */
export function mailContent(
  kind: MailKind,
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, locale, baseUrl } = context;
  const id = text(params.id);
  const product = text(params.product);
  const link = (path: string) => `${baseUrl}${path}`;
  /** An order's body values: its number, its product and its total in the recipient's format. */
  const order = () => ({ id, product, total: formatCoins(cents(params.totalCents), locale) });
  switch (kind) {
    case "orderReceived":
      return {
        subject: t("orderReceived.subject", { id }),
        heading: t("orderReceived.heading"),
        paragraphs: [t("orderReceived.body", order())],
        button: { label: t("orderReceived.button"), href: link("/dashboard/billing") },
        document: documentLink(params, context),
        audience: "customer",
      };
    case "orderApproved":
      return {
        subject: t("orderApproved.subject", { id }),
        heading: t("orderApproved.heading"),
        // Approved is not ready: a server on the game panel is mailed again once it is installed.
        paragraphs: [
          t(params.setup === "panel" ? "orderApproved.bodyPanel" : "orderApproved.bodyManual", {
            id,
            product,
          }),
        ],
        button: { label: t("orderApproved.button"), href: link("/dashboard/services") },
        audience: "customer",
      };
    case "orderRejected": {
      const refund = cents(params.refundCents);
      return {
        subject: t("orderRejected.subject", { id }),
        heading: t("orderRejected.heading"),
        paragraphs: [
          t("orderRejected.body", { id, product }),
          // Given up on by the lifecycle: its reason in the reader's language, not the audit log's.
          typeof params.expiredDays === "number"
            ? t("orderRejected.expired", { count: params.expiredDays })
            : t("orderRejected.reason", { reason: text(params.reason) }),
          ...(refund > 0
            ? [t("orderRejected.refund", { amount: formatCoins(refund, locale) })]
            : []),
        ],
        button: { label: t("orderRejected.button"), href: link("/dashboard/billing") },
        document: documentLink(params, context),
        audience: "customer",
      };
    }
    case "coinsChanged": {
      const amount = cents(params.amountCents);
      const which = amount >= 0 ? COINS_TEXTS.added : COINS_TEXTS.removed;
      const values = {
        amount: formatCoins(Math.abs(amount), locale),
        balance: formatCoins(cents(params.balanceCents), locale),
      };
      const reason = isStoredReason(params.reason) ? context.ledgerReason(params.reason) : "";
      return {
        subject: t(which.subject, values),
        heading: t(which.heading),
        paragraphs: [t(which.body, values), ...(reason ? [t("coins.reason", { reason })] : [])],
        button: { label: t("coins.button"), href: link("/dashboard/billing") },
        document: documentLink(params, context),
        audience: "customer",
      };
    }
    case "documentIssued":
      return documentContent(params, context);
    case "topUpRejected": {
      const values = {
        reference: text(params.reference),
        coins: formatCoins(cents(params.coins) * 100, locale),
      };
      return {
        subject: t("topUpRejected.subject", values),
        heading: t("topUpRejected.heading"),
        paragraphs: [
          t("topUpRejected.body", values),
          t("topUpRejected.reason", { reason: text(params.reason) }),
          t("topUpRejected.next"),
        ],
        button: { label: t("topUpRejected.button"), href: link(TOP_UP_PAGE) },
        audience: "customer",
      };
    }
    case "ticketAnswered": {
      const subject = text(params.subject);
      const reply = text(params.reply);
      return {
        subject: t("ticketAnswered.subject", { id, subject }),
        heading: t("ticketAnswered.heading"),
        paragraphs: [t("ticketAnswered.body", { id, subject })],
        // The answer itself (a message queued before it was carried has none: the link alone).
        ...(reply
          ? {
              quote: {
                text: reply,
                after: [
                  ...(params.replyCut === true ? [t("ticketAnswered.cut")] : []),
                  t("ticketAnswered.replyHow"),
                ],
              },
            }
          : {}),
        button: { label: t("ticketAnswered.button"), href: link(`/support/${id}`) },
        audience: "customer",
      };
    }
    case "staffOrderWaiting":
      return {
        subject: t("staffOrderWaiting.subject", { id }),
        heading: t("staffOrderWaiting.heading"),
        paragraphs: [t("staffOrderWaiting.body", order())],
        button: { label: t("staffOrderWaiting.button"), href: link("/admin/orders") },
        audience: "staff",
      };
    case "staffTicketOpened":
    case "staffTicketsOpened":
    case "staffTicketReplied":
    case "staffTicketReplies":
      return staffTicketContent(kind, params, context);
    case "serviceRenewed":
      return { ...serviceContent(kind, params, context), document: documentLink(params, context) };
    case "servicePlanChanged":
      return { ...planChangeContent(params, context), document: documentLink(params, context) };
    case "serviceExpiring":
    case "serviceRenewalShort":
    case "serviceSuspended":
    case "serviceTerminationWarning":
    case "serviceTerminated":
    case "serviceReady":
    case "serverOffline":
      return serviceContent(kind, params, context);
    case "passwordReset":
    case "passwordChanged":
    case "adminSignIn":
      return securityContent(kind, params, context);
    case "twoFactorReset":
      return {
        subject: t("twoFactorReset.subject"),
        heading: t("twoFactorReset.heading"),
        paragraphs: [
          t("twoFactorReset.body", { date: formatWhen(params.resetAt, context) }),
          t("twoFactorReset.again"),
          t("twoFactorReset.notYou"),
        ],
        button: {
          label: t("twoFactorReset.button"),
          href: link("/dashboard/account#two-factor"),
        },
        audience: "customer",
      };
    case "emailVerification":
    case "emailChanged":
      return addressContent(kind, params, context);
    case "roleChanged":
      return roleChangedContent(params, context);
    case "dataExportReady":
      return dataExportReadyContent(params, context);
    case "campaign":
      return campaignContent(params, context);
    case "newsletterConfirmation":
      return newsletterConfirmationContent(params, context);
  }
}

/**
 * Verified addresses (docs/accounts.md): the link that verifies a new account's address or an email
 * change's new one (to our /verify-email page), and the notice to the old address once a change is made.
 */
function addressContent(
  kind: "emailVerification" | "emailChanged",
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, siteName: site } = context;
  if (kind === "emailChanged") {
    const values = { site, oldEmail: text(params.oldEmail), newEmail: text(params.newEmail) };
    return {
      subject: t("emailChanged.subject"),
      heading: t("emailChanged.heading"),
      paragraphs: [t("emailChanged.body", values), t("emailChanged.notYou")],
      button: { label: t("emailChanged.button"), href: `${context.baseUrl}/contact` },
      audience: "customer",
    };
  }
  const change = params.change === true;
  const values = { site, hours: EMAIL_VERIFICATION_HOURS };
  return {
    subject: t(change ? "emailVerification.changeSubject" : "emailVerification.subject"),
    heading: t(change ? "emailVerification.changeHeading" : "emailVerification.heading"),
    paragraphs: [
      t(change ? "emailVerification.changeBody" : "emailVerification.body", values),
      t("emailVerification.ignore"),
    ],
    button: {
      label: t("emailVerification.button"),
      href: verificationLink(context.baseUrl, text(params.token)),
    },
    audience: "customer",
  };
}

const FONT =
  "-apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Noto Sans Arabic', Tahoma, Arial, sans-serif";
const MUTED = "#52525b";

/** The call to action: a link drawn as a button (a table cell, which every mail reader draws). */
export function MailButton({ href, children }: { href: string; children: ReactNode }) {
  return (
    <table role="presentation" cellPadding={0} cellSpacing={0} style={{ margin: "24px 0" }}>
      <tbody>
        <tr>
          <td style={{ borderRadius: 6, background: "#1d4ed8" }}>
            <a
              href={href}
              style={{
                display: "inline-block",
                padding: "12px 20px",
                color: "#ffffff",
                fontWeight: 600,
                textDecoration: "none",
                fontFamily: FONT,
              }}
            >
              {children}
            </a>
          </td>
        </tr>
      </tbody>
    </table>
  );
}

/** Where an admin chooses the staff mail they get (customer replies): the staff footer's link. */
const STAFF_SETTINGS_PATH = "/admin/notifications";

/**
 * The words under every message: why it came, and that the site sent it. A customer is pointed to
 * their dashboard for help; staff, to where they choose the staff mail they get.
 */
function footerLines(content: MailContent, context: MailContext) {
  const { t } = context;
  if (content.audience === "staff")
    return {
      why: t("layout.footerStaff", { site: context.siteName }),
      after: t("layout.automaticStaff"),
      link: { label: t("layout.staffSettings"), href: `${context.baseUrl}${STAFF_SETTINGS_PATH}` },
    };
  if (content.unsubscribe)
    return {
      why: content.unsubscribe.why,
      after: "",
      link: { label: content.unsubscribe.label, href: content.unsubscribe.href },
    };
  if (content.audience === "subscriber")
    return { why: t("layout.footerSubscriber", { site: context.siteName }), after: "", link: null };
  return {
    why: t("layout.footerCustomer", { site: context.siteName }),
    after: t("layout.automatic"),
    link: null,
  };
}

/** The footer's lines under the message, in the layout's small muted type. */
export function MailFooter({ content, context }: { content: MailContent; context: MailContext }) {
  const lines = footerLines(content, context);
  return (
    <p style={{ margin: "16px 0 0", fontSize: 12, lineHeight: 1.5, color: MUTED }}>
      {lines.why} {lines.after}
      {lines.link ? (
        <>
          {" "}
          <a href={lines.link.href} style={{ color: MUTED }}>
            {lines.link.label}
          </a>
        </>
      ) : null}
    </p>
  );
}

/** Every message's frame: the document in the recipient's language and direction, site name, footer. */
export function MailLayout({
  content,
  context,
  children,
}: {
  content: MailContent;
  context: MailContext;
  children: ReactNode;
}) {
  const dir = context.locale === "ar" ? "rtl" : "ltr";
  const align = dir === "rtl" ? "right" : "left";
  return (
    <html lang={context.locale} dir={dir}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{content.subject}</title>
      </head>
      <body style={{ margin: 0, padding: 0, background: "#f4f4f5", fontFamily: FONT }}>
        <table role="presentation" width="100%" cellPadding={0} cellSpacing={0}>
          <tbody>
            <tr>
              <td align="center" style={{ padding: "24px 12px" }}>
                <table
                  role="presentation"
                  width="100%"
                  cellPadding={0}
                  cellSpacing={0}
                  style={{ maxWidth: 560 }}
                >
                  <tbody>
                    <tr>
                      <td
                        dir={dir}
                        style={{
                          padding: 24,
                          textAlign: align,
                          color: "#18181b",
                          background: "#ffffff",
                          borderRadius: 8,
                        }}
                      >
                        <p style={{ margin: "0 0 16px", fontWeight: 700, fontSize: 18 }}>
                          <a
                            href={context.baseUrl}
                            style={{ color: "#18181b", textDecoration: "none" }}
                          >
                            {context.siteName}
                          </a>
                        </p>
                        {children}
                      </td>
                    </tr>
                    <tr>
                      <td dir={dir} style={{ padding: "0 24px", textAlign: align }}>
                        <MailFooter content={content} context={context} />
                      </td>
                    </tr>
                  </tbody>
                </table>
              </td>
            </tr>
          </tbody>
        </table>
      </body>
    </html>
  );
}

function MailBody({ content, context }: { content: MailContent; context: MailContext }) {
  return (
    <MailLayout content={content} context={context}>
      <h1 style={{ margin: "0 0 16px", fontSize: 20 }}>{content.heading}</h1>
      <p style={{ margin: "0 0 12px" }}>{context.t("layout.greeting")}</p>
      {content.paragraphs.map((paragraph, index) => (
        <p key={index} style={{ margin: "0 0 12px", lineHeight: 1.5 }}>
          {paragraph}
        </p>
      ))}
      {content.quote ? <MailQuote quote={content.quote} context={context} /> : null}
      {content.document ? (
        <p style={{ margin: "0 0 12px", lineHeight: 1.5 }}>
          {content.document.text}{" "}
          <a href={content.document.href} style={{ color: "#1d4ed8", fontWeight: 600 }}>
            {content.document.label}
          </a>
        </p>
      ) : null}
      {content.button ? (
        <>
          <MailButton href={content.button.href}>{content.button.label}</MailButton>
          <p style={{ margin: 0, fontSize: 12, color: MUTED }}>
            {context.t("layout.buttonFallback")}{" "}
            <a
              href={content.button.href}
              dir="ltr"
              style={{ color: "#1d4ed8", wordBreak: "break-all" }}
            >
              {content.button.href}
            </a>
          </p>
        </>
      ) : null}
      {content.more ? (
        <p style={{ margin: "12px 0 0", lineHeight: 1.5 }}>
          <a href={content.more.href} style={{ color: "#1d4ed8", fontWeight: 600 }}>
            {content.more.label}
          </a>
        </p>
      ) : null}
    </MailLayout>
  );
}

/** The plain-text part: the same content, the button as its label and address on lines of their own. */
export function mailText(content: MailContent, context: MailContext): string {
  const { t } = context;
  const lines = [context.siteName, "", content.heading, "", t("layout.greeting"), ""];
  for (const paragraph of content.paragraphs) lines.push(paragraph, "");
  if (content.quote) {
    if (content.quote.intro) lines.push(content.quote.intro, "");
    // Quoted as mail quotes text: each line after "> ".
    for (const line of content.quote.text.split("\n")) lines.push(line ? `> ${line}` : ">");
    lines.push("");
    for (const paragraph of content.quote.after) lines.push(paragraph, "");
  }
  if (content.document)
    lines.push(content.document.text, `${content.document.label}:`, content.document.href, "");
  if (content.button) lines.push(`${content.button.label}:`, content.button.href, "");
  if (content.more) lines.push(`${content.more.label}:`, content.more.href, "");
  const footer = footerLines(content, context);
  lines.push("--", footer.why);
  if (footer.after) lines.push(footer.after);
  if (footer.link) lines.push(`${footer.link.label}:`, footer.link.href);
  return `${lines.join("\n")}\n`;
}

/** A message written in full: subject, HTML (a whole document) and plain text. */
export function renderMail(
  kind: MailKind,
  params: Record<string, unknown>,
  context: MailContext,
): { subject: string; html: string; text: string } {
  const content = mailContent(kind, params, context);
  const html = `<!DOCTYPE html>${renderToStaticMarkup(<MailBody content={content} context={context} />)}`;
  return { subject: content.subject, html, text: mailText(content, context) };
}
