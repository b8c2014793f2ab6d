import { IMPORT_COLLECTIONS, type ImportCollection } from "./collections";
import { describeNote, describeSkip } from "./report-reasons";
import type { FileProblem, ImportReport, SourceSummary } from "./report-types";

// The import's report in words. The command line speaks English, like the other scripts; nothing here is
// shown in the web app.

const byCollection = <T extends { collection: ImportCollection }>(lines: T[]) =>
  [...lines].sort(
    (a, b) => IMPORT_COLLECTIONS.indexOf(a.collection) - IMPORT_COLLECTIONS.indexOf(b.collection),
  );

const COLLECTION_NAMES: Record<ImportCollection, string> = {
  users: "users",
  services: "services (products)",
  orders: "orders",
  userServices: "user services",
  announcements: "announcements",
  vouchers: "vouchers",
  settings: "settings",
  tickets: "tickets",
  livechats: "live chats",
};

export function describeSource(source: SourceSummary): string[] {
  const lines: string[] = [];
  if (source.shape === "document") {
    lines.push("Read the old storefront's database document.");
  } else {
    lines.push(
      source.mainKey
        ? `Read a localStorage dump: the database document under ${JSON.stringify(source.mainKey)}.`
        : "Read a localStorage dump without a database document (legacy keys only).",
    );
    for (const key of source.legacyKeys)
      lines.push(
        `  legacy key ${JSON.stringify(key.key)}: ${key.records} record(s), ${key.merged} also in the database document (its copy wins)`,
      );
  }
  if (source.ignored.length)
    lines.push(
      `Ignored (not the old storefront's data): ${source.ignored.map((k) => JSON.stringify(k)).join(", ")}`,
    );
  return lines;
}

/** The report as lines of text: the table, then what was skipped and why, then notes. */
export function formatReport(report: ImportReport): string[] {
  const lines = describeSource(report.source);
  lines.push("");
  if (report.dryRun)
    lines.push(
      "DRY RUN: nothing was written. This is what an import would do (one-time passwords are made by the real import):",
      "",
    );
  const headers = ["", "imported", "matched", "skipped", "already imported"];
  const rows = IMPORT_COLLECTIONS.map((c) => [
    COLLECTION_NAMES[c],
    String(report.counts[c].imported),
    String(report.counts[c].matched),
    String(report.counts[c].skipped),
    String(report.counts[c].already),
  ]);
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join("  ");
  lines.push(line(headers), ...rows.map(line));
  if (report.skipped.length) {
    lines.push("", "Skipped:");
    for (const s of byCollection(report.skipped))
      lines.push(`  ${s.ref} (${s.label}): ${describeSkip(s.reason)}`);
  }
  if (report.notes.length) {
    lines.push("", "Notes:");
    for (const n of byCollection(report.notes))
      lines.push(`  ${n.ref} (${n.label}): ${describeNote(n.note)}`);
  }
  if (report.oneTimePasswords.length) {
    lines.push("", "One-time passwords (shown once; each must be changed at first login):");
    for (const p of report.oneTimePasswords) lines.push(`  ${p.email}: ${p.password}`);
  }
  return lines;
}

/** A refused file as lines of text: every problem with its place, and that nothing was imported. */
export function formatRefusal(file: string, problems: FileProblem[], limit = 30): string[] {
  const lines = [`Refused ${file}: nothing was imported.`];
  for (const p of problems.slice(0, limit))
    lines.push(`  ${p.path ? `${p.path}: ` : ""}${p.message}`);
  if (problems.length > limit) lines.push(`  ... and ${problems.length - limit} more`);
  return lines;
}
