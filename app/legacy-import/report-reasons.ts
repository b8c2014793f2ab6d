import { shown } from "./field-basics";
import type { ImportNote, SkipReason } from "./report-types";

// Why a record was skipped, and what a note says, in words (English, like the other scripts).

const euros = (cents: number) =>
  `${cents < 0 ? "-" : ""}€${(Math.abs(cents) / 100).toLocaleString("en", { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

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
