import { labelKeys, messageKeys } from "~/lib/label-keys";
import { localeFieldNames } from "~/lib/locale-fields";
import type { Department } from "./tickets";

export type { CannedReplyAction } from "./canned-replies.schemas";

// Canned replies (docs/self-service.md): what the staff insert into a ticket's reply instead of typing
// the same answer again. Pure and safe in the browser: the limits, the checks a reply must pass, the text
// for a customer's language and the placeholders filled in. Messages are catalogue keys
// ("admin-tickets.…").

/**
 * The languages a reply is written in: the site's (SUPPORTED_LOCALES, which a test compares). English is
 * required, the others fall back to it.
 */
export const CANNED_REPLY_LOCALES = ["en", "fr", "ar"] as const;
export type CannedReplyLocale = (typeof CANNED_REPLY_LOCALES)[number];
/** One text per language, "" where none is written. */
export type CannedReplyTexts = Record<CannedReplyLocale, string>;

export const MAX_CANNED_TITLE_LENGTH = 80;
/**
 * A reply's text in one language. Below a ticket message's limit (MAX_MESSAGE_LENGTH, 5,000) with room
 * for the placeholders' values and a line or two the staff add before sending.
 */
export const MAX_CANNED_TEXT_LENGTH = 3000;
/** How many replies the staff may keep: each ticket page carries them all, in one language. */
export const MAX_CANNED_REPLIES = 100;

/**
 * What a reply's text may name in braces, filled in when it is inserted: `{name}` the customer's name as
 * their account has it, `{ticket}` the ticket's number (write "#{ticket}" for "#42").
 */
export const CANNED_PLACEHOLDERS = ["name", "ticket"] as const;
export type CannedPlaceholder = (typeof CANNED_PLACEHOLDERS)[number];

/** A reply as the staff's list shows it. */
export interface CannedReply {
  id: number;
  title: string;
  texts: CannedReplyTexts;
  /** The department it suits; null: any. */
  department: Department | null;
  position: number;
  /** Who wrote it; null for a seeded reply (or a writer whose account is gone). */
  authorName: string | null;
  createdAt: string;
  updatedAt: string;
}

/** What the editor saves. */
export interface CannedReplyInput {
  title: string;
  department: Department | null;
  texts: CannedReplyTexts;
}

/** A reply as a ticket's picker offers it: filled in for that ticket's customer. */
export interface CannedReplyChoice {
  id: number;
  title: string;
  /** The text in `locale`, its placeholders filled in. */
  text: string;
  /** The language `text` is in: the customer's, or English when the reply has no text in theirs. */
  locale: CannedReplyLocale;
  /** It suits the ticket's department (or any): offered first. */
  suggested: boolean;
}

export const MOVE_DIRECTIONS = ["up", "down"] as const;
export type MoveDirection = (typeof MOVE_DIRECTIONS)[number];

/** The editor's field of each language's text ("textEn", "textFr", "textAr"). */
export const TEXT_FIELDS = localeFieldNames("text", CANNED_REPLY_LOCALES);

/** Each language's name, for the editor's fields and the picker's note (admin-tickets namespace). */
export const CANNED_LOCALE_LABELS = labelKeys(
  "admin-tickets",
  "cannedReplies.languages",
  CANNED_REPLY_LOCALES,
);

/** The editor's label of each language's text (admin-tickets namespace). */
export const TEXT_LABELS = labelKeys(
  "admin-tickets",
  "cannedReplies.fields.texts",
  CANNED_REPLY_LOCALES,
);

/** A text too long, each naming its language (admin-tickets namespace). */
export const TEXT_TOO_LONG = messageKeys(
  "admin-tickets",
  "cannedReplies.errors.textTooLong",
  CANNED_REPLY_LOCALES,
);

/** What the editor's form and the use-cases refuse, each with its message. */
export type CannedReplyProblem =
  | "admin-tickets.cannedReplies.errors.titleRequired"
  | "admin-tickets.cannedReplies.errors.titleTooLong"
  | "admin-tickets.cannedReplies.errors.textRequiredEn"
  | (typeof TEXT_TOO_LONG)[CannedReplyLocale]
  | "admin-tickets.cannedReplies.errors.unknownPlaceholder";

/** A title as two replies are told apart by: trimmed, spaces run together, in lower case. */
export function cannedTitleKey(title: string): string {
  return title.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** A title as it is saved: trimmed, each run of spaces (a tab, a line break) one space. */
export function cleanTitle(title: string): string {
  return title.normalize("NFC").trim().replace(/\s+/g, " ");
}

/** A text as it is saved: line ends made "\n", trimmed. */
export function cleanText(text: string): string {
  return text.replace(/\r\n?/g, "\n").trim();
}

/** The names a text writes in braces that are no placeholder ("{nom}", "{ticket_id}"), in order, once each. */
export function unknownPlaceholders(text: string): string[] {
  const found = new Set<string>();
  for (const [, name] of text.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g))
    if (!(CANNED_PLACEHOLDERS as readonly string[]).includes(name!)) found.add(name!);
  return [...found];
}

/**
 * The first thing wrong with a reply about to be saved, with the form field it belongs to, or null. The
 * form's schema refuses these already; the use-cases ask again (they may be called without the form). A brace-word that is no placeholder is refused rather than sent
 * to a customer as typed: "{nom}" for "{name}" would reach them as "{nom}".
 */
export function cannedReplyProblem(
  reply: CannedReplyInput,
): { field: string; error: CannedReplyProblem } | null {
  if (reply.title.trim() === "")
    return { field: "title", error: "admin-tickets.cannedReplies.errors.titleRequired" };
  if (reply.title.length > MAX_CANNED_TITLE_LENGTH)
    return { field: "title", error: "admin-tickets.cannedReplies.errors.titleTooLong" };
  if (reply.texts.en.trim() === "")
    return { field: TEXT_FIELDS.en, error: "admin-tickets.cannedReplies.errors.textRequiredEn" };
  for (const locale of CANNED_REPLY_LOCALES) {
    const text = reply.texts[locale];
    if (text.length > MAX_CANNED_TEXT_LENGTH)
      return { field: TEXT_FIELDS[locale], error: TEXT_TOO_LONG[locale] };
    if (unknownPlaceholders(text).length > 0)
      return {
        field: TEXT_FIELDS[locale],
        error: "admin-tickets.cannedReplies.errors.unknownPlaceholder",
      };
  }
  return null;
}

/** A language a customer reads, from what their account has saved (null, or an old value) and the site's. */
export function readerLocale(saved: string | null, siteDefault: CannedReplyLocale) {
  return (CANNED_REPLY_LOCALES as readonly string[]).includes(saved ?? "")
    ? (saved as CannedReplyLocale)
    : siteDefault;
}

/** The reply's text in `locale`, or its English one when it has none in that language (and which). */
export function cannedTextIn(
  texts: CannedReplyTexts,
  locale: CannedReplyLocale,
): { text: string; locale: CannedReplyLocale } {
  return texts[locale].trim() === ""
    ? { text: texts.en, locale: "en" }
    : { text: texts[locale], locale };
}

// C0 and C1 controls (the line feed and tab too: a name is one line) and the bidi embeddings, overrides
// and isolates: what would hide text or reorder the reply around a name. Matching controls is the point.
// eslint-disable-next-line no-control-regex
const HIDDEN_IN_A_NAME = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The longest name a reply writes: an account's name is shorter, this bounds anything older. */
const MAX_FILLED_NAME = 100;

/**
 * A text with its placeholders filled in, in one pass: a value is never read again, so a customer named
 * "{ticket}" is greeted as "{ticket}", not with a number. The name loses what could hide or reorder text
 * (controls, bidi overrides) and runs of spaces; an empty name leaves `{name}` as written, for the staff
 * to see and fix before sending. What is made is plain text: the page and the mail escape it.
 */
export function fillPlaceholders(text: string, values: { name: string; ticketId: number }): string {
  const name = values.name
    .replace(HIDDEN_IN_A_NAME, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, MAX_FILLED_NAME);
  const filled: Record<CannedPlaceholder, string> = { name, ticket: String(values.ticketId) };
  return text.replace(
    /\{(name|ticket)\}/g,
    (whole, placeholder: CannedPlaceholder) => filled[placeholder] || whole,
  );
}

/** A reply filled in for one ticket: the customer's language (else English) and their name. */
export function cannedReplyFor(
  reply: Pick<CannedReply, "id" | "title" | "texts" | "department">,
  ticket: { id: number; department: Department; customerName: string; locale: CannedReplyLocale },
): CannedReplyChoice {
  const { text, locale } = cannedTextIn(reply.texts, ticket.locale);
  return {
    id: reply.id,
    title: reply.title,
    text: fillPlaceholders(text, { name: ticket.customerName, ticketId: ticket.id }),
    locale,
    suggested: reply.department === null || reply.department === ticket.department,
  };
}

/**
 * A reply box's text once a canned reply is inserted: the reply alone in an empty box, else after what
 * was typed and a blank line, so nothing typed is lost.
 */
export function withCannedText(typed: string, text: string): string {
  const before = typed.trimEnd();
  return before === "" ? text : `${before}\n\n${text}`;
}
