import type { ImportCollection, ImportCounts } from "./collections";

// The report's figures and reasons (worded in report-reasons.ts and legacy-import-report.ts).

export type SkipReason =
  | { code: "duplicate"; of: string }
  | { code: "noId" }
  | { code: "inactiveUser"; status: string }
  | { code: "emailTaken" }
  | { code: "userMissing"; userId: string | null }
  | { code: "userNotImported"; userRef: string }
  | { code: "serviceMissing"; serviceId: string | null; name: string | null }
  | { code: "voucherCodeTaken" }
  | { code: "settingInvalid"; detail: string }
  | { code: "settingNotImported" }
  | { code: "settingUnknown" }
  | { code: "notSupported"; count: number };

export type ImportNote =
  | { code: "mustChangePassword"; why: "short" | "common" }
  | { code: "oneTimePassword"; why: "admin" | "noPassword" }
  | { code: "coinsClamped"; fromCents: number }
  | { code: "productKept"; slug: string; priceCents: number; legacyPriceCents: number }
  | { code: "copiesDiffer"; fields: string[]; kept: string }
  | { code: "statusMapped"; from: string; to: string }
  | { code: "usedCountClamped"; fromCount: number }
  | { code: "servicesDropped"; ids: string[] };

export interface SkipLine {
  collection: ImportCollection;
  ref: string;
  label: string;
  reason: SkipReason;
}

export interface NoteLine {
  collection: ImportCollection;
  ref: string;
  label: string;
  note: ImportNote;
}

export interface SourceSummary {
  shape: "document" | "localStorage";
  /** The localStorage key that held the database document. */
  mainKey: string | null;
  /** Legacy separate keys read, with how many of their records were already in the document. */
  legacyKeys: { key: string; records: number; merged: number }[];
  /** localStorage keys, or document fields, that are not the old storefront's data. */
  ignored: string[];
}

export interface FileProblem {
  /** Where: "users[3].email", `localStorage["orders"][0].price`, or "" for the file as a whole. */
  path: string;
  message: string;
}

export interface ImportReport {
  dryRun: boolean;
  source: SourceSummary;
  counts: ImportCounts;
  skipped: SkipLine[];
  notes: NoteLine[];
  /** One-time passwords of accounts that may not keep their old one (admins, no password). */
  oneTimePasswords: { email: string; password: string }[];
}
