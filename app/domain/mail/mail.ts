import { labelKeys } from "~/lib/label-keys";

export type { MailListQuery } from "./mail.schemas";

// Outgoing mail's rules (docs/mail.md), pure: the kinds of message, the outbox's states and
// their labels, and the redaction of links that carry a token. The database side is the `*.server.ts`
// beside it (the outbox's writer is mail.server.ts); the templates are app/features/mail.

/** Every message the site sends. A kind is one template; `staff*` go to each active admin. */
export const MAIL_KINDS = [
  "orderReceived",
  "orderApproved",
  "orderRejected",
  "coinsChanged",
  // An invoice, receipt or credit note by itself, and a top-up an admin rejected. Never optional.
  "documentIssued",
  "topUpRejected",
  "ticketAnswered",
  "staffOrderWaiting",
  "staffTicketOpened",
  // The tickets of a busy window told together, instead of one message each (docs/support.md).
  "staffTicketsOpened",
  // A customer replied to a ticket, or a busy window's replies together: only to the admins who asked.
  "staffTicketReplied",
  "staffTicketReplies",
  "serviceExpiring",
  "serviceRenewalShort",
  "serviceRenewed",
  "serviceSuspended",
  "serviceTerminationWarning",
  "serviceTerminated",
  // The server made on the game panel is installed: its address and how to manage it. Never optional.
  "serviceReady",
  // A server whose customer turned its offline notice on has been offline a while: the switch is the
  // choice (per server), so it is not one of the account tab's.
  "serverOffline",
  // A customer moved a service to another plan: what it cost or gave back, with its invoice or credit
  // note. Never optional: it carries the document.
  "servicePlanChanged",
  // Security mail (password reset and sign-in notices): never optional.
  "passwordReset",
  "passwordChanged",
  "adminSignIn",
  "twoFactorReset",
  "emailVerification",
  "emailChanged",
  // Made a member of the staff, a new staff role, or removed from the staff (docs/staff.md).
  "roleChanged",
  // The archive of their data a customer asked for is ready, with its link. Never optional: asked for.
  "dataExportReady",
  // A campaign the staff wrote (docs/mail.md#campaigns): to customers and confirmed newsletter
  // subscribers, with its one-click unsubscribe. Optional: the account tab's "news and offers".
  "campaign",
  // The newsletter's double opt-in: the link that confirms an address typed in the footer's box.
  "newsletterConfirmation",
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

/**
 * The kinds a customer may turn off in the dashboard's account tab. Not here: the staff's messages,
 * security mail (password reset, address verification, sign-in notices), what ends or stops a service
 * (suspended, the termination warning, terminated), the server's address once it is ready, a numbered
 * document and a rejected top-up (docs/mail.md says why), which always go out.
 */
export const OPTIONAL_MAIL_KINDS = [
  "orderReceived",
  "orderApproved",
  "orderRejected",
  "coinsChanged",
  "ticketAnswered",
  "serviceExpiring",
  "serviceRenewalShort",
  "serviceRenewed",
  "campaign",
] as const satisfies readonly MailKind[];
export type OptionalMailKind = (typeof OPTIONAL_MAIL_KINDS)[number];

/** The account tab's switches (dashboard namespace). */
export const OPTIONAL_MAIL_LABELS = labelKeys("dashboard", "account.mail", OPTIONAL_MAIL_KINDS);

/**
 * The staff's messages an admin receives only when they asked for them (`mail_opt_ins`, the switches of
 * /admin/notifications), each by the choice that turns it on: off by default, unlike every other staff
 * message. A customer's reply to a ticket: one admin answering a ticket wants to hear of it, another
 * does not want a mail for every line a customer writes.
 */
export const STAFF_MAIL_CHOICES = ["staffTicketReplied"] as const;
export type StaffMailChoice = (typeof STAFF_MAIL_CHOICES)[number];

/** The choice a staff message needs (none: every active admin receives it). */
export const STAFF_MAIL_CHOICE_OF: Partial<Record<MailKind, StaffMailChoice>> = {
  staffTicketReplied: "staffTicketReplied",
  staffTicketReplies: "staffTicketReplied",
};

/** The switches' labels (admin namespace). */
export const STAFF_MAIL_CHOICE_LABELS = labelKeys(
  "admin",
  "notifications.mail",
  STAFF_MAIL_CHOICES,
);

/**
 * Security mail: what someone waits for to get into their account, or must hear of at once (a reset
 * link, an address to confirm, a changed address, an admin's sign-in, a password or two-factor
 * reset, the staff's powers given, changed or taken away). Its send jobs are claimed before every other queued job (JOB_PRIORITY_URGENT), so no flood of
 * ordinary mail delays it.
 */
export const SECURITY_MAIL_KINDS = [
  "passwordReset",
  "passwordChanged",
  "emailVerification",
  "emailChanged",
  "adminSignIn",
  "twoFactorReset",
  "roleChanged",
] as const satisfies readonly MailKind[];

export function isSecurityMail(kind: MailKind): boolean {
  return (SECURITY_MAIL_KINDS as readonly MailKind[]).includes(kind);
}

export function isMailKind(value: unknown): value is MailKind {
  return typeof value === "string" && (MAIL_KINDS as readonly string[]).includes(value);
}

/**
 * queued (waiting for the worker), sent, failed (an attempt failed; the worker retries), refused (the
 * server refused the message for good, a 5xx answer: never sent again by itself), kept (no SMTP).
 */
export const MAIL_STATES = ["queued", "sent", "failed", "refused", "kept"] as const;
export type MailState = (typeof MAIL_STATES)[number];

export function isMailState(value: unknown): value is MailState {
  return typeof value === "string" && (MAIL_STATES as readonly string[]).includes(value);
}

/** The outbox's labels on /admin/mail (mail namespace). */
export const MAIL_STATE_LABELS = labelKeys("mail", "outbox.states", MAIL_STATES);
export const MAIL_KIND_LABELS = labelKeys("mail", "outbox.kinds", MAIL_KINDS);

export const MAIL_STATE_TONES = {
  queued: "blue",
  sent: "green",
  failed: "yellow",
  refused: "red",
  kept: "grey",
} as const satisfies Record<MailState, string>;

export const MAIL_PAGE_SIZE = 25;

/**
 * 5xx answers that say the server's account or connection is set up wrong, not that the message is
 * unwanted (RFC 4954: authentication required, too weak, invalid credentials, encryption required): the
 * admin fixes SMTP_URL and the same message then goes out, so they stay retried.
 */
const SMTP_SETUP_CODES: ReadonlySet<number> = new Set([530, 534, 535, 538]);

/**
 * Whether a failed send is the server's permanent refusal of this message (RFC 5321's 5yz "permanent
 * negative completion": 550 mailbox unavailable, 553 address not allowed, 554 transaction failed…), an
 * answer to MAIL FROM, RCPT TO or DATA: sending it again would get the same answer. Anything else stays
 * retried: a 4xx, a refused or dropped connection, a timeout, a failed sign-in (535) or a server that
 * wants authentication or TLS. Reads nodemailer's error (`responseCode`, and `code`: EENVELOPE for an
 * envelope refused, EMESSAGE for the message, EAUTH for the sign-in).
 */
export function isPermanentSmtpRefusal(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { responseCode, code } = error as { responseCode?: unknown; code?: unknown };
  if (typeof responseCode !== "number" || responseCode < 500 || responseCode > 599) return false;
  if (SMTP_SETUP_CODES.has(responseCode)) return false;
  // A transport that gives no code: the answer's class decides. nodemailer always gives one.
  return code === undefined || code === "EENVELOPE" || code === "EMESSAGE";
}

/** A message as /admin/mail shows it: its text part with token links redacted, never its HTML. */
export interface OutboxMessageView {
  id: number;
  kind: MailKind;
  to: string;
  locale: string;
  state: MailState;
  subject: string | null;
  text: string | null;
  messageId: string | null;
  attempts: number;
  lastError: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** A message of the admin's client page: what it was, to which address, and where it stands. */
export interface ClientMailView {
  id: number;
  kind: MailKind;
  to: string;
  state: MailState;
  /** Null while a kept message was never written: the page names its kind instead. */
  subject: string | null;
  createdAt: string;
  sentAt: string | null;
}

/** The SMTP server as an admin page names it: scheme, host and port, never the credentials. */
export function smtpServerLabel(smtpUrl: string): string {
  try {
    const url = new URL(smtpUrl);
    return `${url.protocol}//${url.host}`;
  } catch {
    return "SMTP";
  }
}

export const REDACTED = "[redacted]";

/** Query parameters whose value opens something by itself: a reset or verification token, a code. */
const SECRET_PARAMS = /^(token|code|key|secret|signature|sig|otp|reset|verify|auth)$/i;
/** A path segment that looks like a token: long, and letters and digits mixed. */
const TOKEN_SEGMENT = /^[A-Za-z0-9_.~-]{20,}$/;
const URL_IN_TEXT = /\bhttps?:\/\/[^\s<>"')\]]+/g;

function looksLikeToken(segment: string): boolean {
  return TOKEN_SEGMENT.test(segment) && /\d/.test(segment) && /[A-Za-z]/.test(segment);
}

/**
 * A link as an admin may see it: the value of a query parameter that carries a secret, and any path
 * segment that looks like a token, replaced by "[redacted]"; the rest (where it leads) stays readable.
 */
export function redactLink(link: string): string {
  const hashAt = link.indexOf("#");
  const withoutHash = hashAt === -1 ? link : link.slice(0, hashAt);
  const queryAt = withoutHash.indexOf("?");
  const path = queryAt === -1 ? withoutHash : withoutHash.slice(0, queryAt);
  const query = queryAt === -1 ? null : withoutHash.slice(queryAt + 1);
  const schemeEnd = path.indexOf("//") + 2;
  const hostEnd = path.indexOf("/", schemeEnd);
  const origin = hostEnd === -1 ? path : path.slice(0, hostEnd);
  const rest = hostEnd === -1 ? "" : path.slice(hostEnd);
  const safePath = rest
    .split("/")
    .map((segment) => (looksLikeToken(segment) ? REDACTED : segment))
    .join("/");
  const safeQuery =
    query === null
      ? ""
      : `?${query
          .split("&")
          .map((pair) => {
            const eq = pair.indexOf("=");
            if (eq === -1) return pair;
            const name = pair.slice(0, eq);
            const value = pair.slice(eq + 1);
            return SECRET_PARAMS.test(name) || looksLikeToken(value) ? `${name}=${REDACTED}` : pair;
          })
          .join("&")}`;
  // A fragment can carry a token too (#token=...): it is dropped rather than parsed.
  const safeHash = hashAt === -1 ? "" : `#${REDACTED}`;
  return `${origin}${safePath}${safeQuery}${safeHash}`;
}

/** A message's text with every link that carries a token redacted (what /admin/mail shows). */
export function redactTokenLinks(text: string): string {
  return text.replace(URL_IN_TEXT, (link) => redactLink(link));
}
