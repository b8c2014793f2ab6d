import { mediumDateTime } from "~/lib/intl-format";
import { labelKeys } from "~/lib/label-keys";

// A customer's archive of their data (docs/self-service.md, ADR 61), the rules without the database:
// its states and their labels, how long its link works, the link's form, the archive's files and its
// README in the customer's language. The use-cases are data-exports.server.ts, the worker's job
// data-export-jobs.server.ts, what goes in the archive data-export-archive.server.ts.

/** How long the link of a ready archive works; its bytes are deleted after. */
export const DATA_EXPORT_LINK_DAYS = 7;
/** The window the daily limit (`selfService.dataExportsPerDay`) counts in: the last 24 hours. */
export const DATA_EXPORT_WINDOW_HOURS = 24;
/** How many of their latest archives the account tab lists. */
export const DATA_EXPORT_LIST_SIZE = 5;

export const DATA_EXPORT_STATES = ["queued", "ready", "failed", "expired"] as const;
export type DataExportState = (typeof DATA_EXPORT_STATES)[number];
/** The states as the account tab names them (dashboard namespace). */
export const DATA_EXPORT_STATE_LABELS = labelKeys(
  "dashboard",
  "dataExport.states",
  DATA_EXPORT_STATES,
);

export function isDataExportState(value: unknown): value is DataExportState {
  return typeof value === "string" && (DATA_EXPORT_STATES as readonly string[]).includes(value);
}

/** Where the account tab's card is: the notice's link and the mail's second way in. */
export const DATA_EXPORT_CARD_PATH = "/dashboard/account#data-export";

/** A link's token: 32 random-looking bytes in base64url, no padding. */
export const DATA_EXPORT_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The download's address for `token` (served to the archive's owner only, signed in). */
export function dataExportPath(token: string): string {
  return `/dashboard/account/export/${token}`;
}

/** The archive's name as the browser saves it, with the day (UTC) it was made. */
export function dataExportFileName(readyAt: string): string {
  return `my-data-${readyAt.slice(0, 10)}.zip`;
}

/** The files of the archive, by what they hold. */
export const ARCHIVE_FILES = {
  readme: "README.txt",
  account: "account.json",
  orders: "orders.json",
  services: "services.json",
  coins: "coin-history.json",
  tickets: "tickets.json",
  topUps: "top-up-requests.json",
  documents: "invoices.json",
} as const;
/** The folder of the documents' PDFs, one `<number>.pdf` each. */
export const ARCHIVE_DOCUMENTS_FOLDER = "invoices";

/** An amount as the archive writes it: cents, and euros as an exact decimal text (one coin is €1). */
export function archiveMoney(cents: number): { cents: number; euros: string } {
  const sign = cents < 0 ? "-" : "";
  const whole = Math.abs(cents);
  return {
    cents,
    euros: `${sign}${Math.floor(whole / 100)}.${String(whole % 100).padStart(2, "0")}`,
  };
}

/** An archive as the account tab lists it. */
export interface DataExportView {
  id: number;
  state: DataExportState;
  askedAt: string;
  readyAt: string | null;
  expiresAt: string | null;
  sizeBytes: number | null;
  downloads: number;
  /** The download's address while it works (ready, before its end), null otherwise. */
  link: string | null;
}

/** The account tab's card: the latest archives, and whether another may be asked for now. */
export interface DataExportsCard {
  exports: DataExportView[];
  /** The setting: archives a customer may ask for in DATA_EXPORT_WINDOW_HOURS. */
  perDay: number;
  /** Those asked in the window (a failed one does not count). */
  askedInWindow: number;
  /** One is being made: no other may be asked for until it is. */
  waiting: boolean;
}

// The README's texts (dashboard namespace), written out for the catalogue test.
const README = {
  title: "dataExport.readme.title",
  made: "dataExport.readme.made",
  files: "dataExport.readme.files",
  account: "dataExport.readme.account",
  orders: "dataExport.readme.orders",
  services: "dataExport.readme.services",
  coins: "dataExport.readme.coins",
  tickets: "dataExport.readme.tickets",
  topUps: "dataExport.readme.topUps",
  documents: "dataExport.readme.documents",
  pdfs: "dataExport.readme.pdfs",
  dates: "dataExport.readme.dates",
  money: "dataExport.readme.money",
  left: "dataExport.readme.left",
  questions: "dataExport.readme.questions",
} as const;
export type ReadmeKey = (typeof README)[keyof typeof README];
export type ReadmeTranslate = (key: ReadmeKey, values?: Record<string, string | number>) => string;

/** What the README says of this archive. */
export interface ReadmeFacts {
  siteName: string;
  name: string;
  email: string;
  /** When it was made (ISO), written in the reader's language and the site's time zone. */
  madeAt: string;
  locale: string;
  timeZone: string;
  /** How many PDFs the documents' folder holds. */
  documents: number;
}

/** The README of an archive, in the language of `t`: what each file holds and how it is written. */
export function archiveReadme(t: ReadmeTranslate, facts: ReadmeFacts): string {
  const made = mediumDateTime(facts.locale, { timeZone: facts.timeZone }).format(
    new Date(facts.madeAt),
  );
  const file = (name: string, key: ReadmeKey, values: Record<string, string | number> = {}) =>
    `- ${name}: ${t(key, values)}`;
  const lines = [
    t(README.title, { site: facts.siteName }),
    "",
    t(README.made, { date: made, name: facts.name, email: facts.email }),
    "",
    t(README.files),
    file(ARCHIVE_FILES.account, README.account),
    file(ARCHIVE_FILES.orders, README.orders),
    file(ARCHIVE_FILES.services, README.services),
    file(ARCHIVE_FILES.coins, README.coins),
    file(ARCHIVE_FILES.tickets, README.tickets),
    file(ARCHIVE_FILES.topUps, README.topUps),
    file(ARCHIVE_FILES.documents, README.documents),
    file(`${ARCHIVE_DOCUMENTS_FOLDER}/`, README.pdfs, { count: facts.documents }),
    "",
    t(README.dates),
    t(README.money),
    "",
    t(README.left),
    "",
    t(README.questions, { site: facts.siteName }),
  ];
  return `${lines.join("\n")}\n`;
}
