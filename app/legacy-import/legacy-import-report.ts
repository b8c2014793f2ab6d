import {
  IMPORT_COLLECTIONS,
  shown,
  type FileProblem,
  type ImportCollection,
  type ImportNote,
  type ImportReport,
  type SkipReason,
  type SourceSummary,
} from "./legacy-import";

// The import's report in words. The command line speaks English, like the other scripts; nothing here is
// shown in the web app.

const euros = (cents: number) =>
  `${cents < 0 ? "-" : ""}€${(Math.abs(cents) / 100).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

const byCollection = <T extends { collection: ImportCollection }>(lines: T[]) =>
  [...lines].sort(
    (a, b) => IMPORT_COLLECTIONS.indexOf(a.collection) - IMPORT_COLLECTIONS.indexOf(b.collection),
  );

export function describeSkip(reason: SkipReason): string {
  switch (reason.code) {
    case "duplicate":
      return `same identity as ${reason.of} (the first one was used)`;
    case "noId":
      return "it has no id, so it could not be imported exactly once";
    case "inactiveUser":
      return `account status ${shown(reason.status)} has no equivalent here (only active accounts are imported)`;
    case "emailTaken":
      return "an account with this email already exists in Hostfront (it was left as it is)";
    case "userMissing":
      return reason.userId
        ? `its user (id ${reason.userId}) is not in the file`
        : "it names no user";
    case "userNotImported":
      return `its user (${reason.userRef}) was not imported`;
    case "serviceMissing":
      return `its service (${[reason.serviceId && `id ${reason.serviceId}`, reason.name && shown(reason.name)].filter(Boolean).join(", ") || "none named"}) is neither in the file nor in Hostfront's catalogue`;
    case "voucherCodeTaken":
      return "a voucher with this code already exists in Hostfront (it was left as it is)";
    case "settingInvalid":
      return `${reason.detail}; the current setting was kept`;
    case "settingNotImported":
      return "describes the old site, not this one: set it in Hostfront if you need it";
    case "settingUnknown":
      return "Hostfront has no such setting";
    case "notSupported":
      return "the old storefront's fields for these are not known (spec section 3), so they are not imported; keep the file to read them";
  }
}

export function describeNote(note: ImportNote): string {
  switch (note.code) {
    case "mustChangePassword":
      return note.why === "short"
        ? "password shorter than 6 characters: must choose a new one at first login"
        : "a common password: must choose a new one at first login";
    case "oneTimePassword":
      return note.why === "admin"
        ? "admin account: the old password is treated as public and does not work; a one-time password is printed below and must be changed at first login"
        : "no usable password in the file: a one-time password is printed below and must be changed at first login";
    case "coinsClamped":
      return `a negative balance (${euros(note.fromCents)}) came in as 0 (coins never go below 0)`;
    case "productKept":
      return `matched Hostfront's product ${note.slug}, kept as it is at ${euros(note.priceCents)} (the old service cost ${euros(note.legacyPriceCents)}; orders keep the price they were recorded at)`;
    case "copiesDiffer":
      return `also in ${note.kept}, whose copy was used; they differ in ${note.fields.join(", ")}`;
    case "statusMapped":
      return `status ${shown(note.from)} has no equivalent here: came in as ${note.to}`;
    case "usedCountClamped":
      return `used ${note.fromCount} times, more than its uses: came in as used up`;
    case "servicesDropped":
      return `applied to services not in the file or the catalogue (${note.ids.join(", ")}); those were left out`;
  }
}

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
