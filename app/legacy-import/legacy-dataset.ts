import type { SettingsSection } from "~/domain/settings/settings";
import type {
  ImportAnnouncement,
  ImportOrder,
  ImportService,
  ImportUser,
  ImportUserService,
  ImportVoucher,
} from "./dataset-types";
import type { NoteLine, SkipLine, SourceSummary } from "./report-types";

// What reading a file gives the write steps: every collection's normalised rows, and what was turned away.

export interface ImportSetting {
  ref: string;
  /** The old setting's path ("theme.primaryColor"): its key in the import record. */
  key: string;
  section: SettingsSection;
  field: string;
  value: unknown;
}

export interface LegacyDataset {
  source: SourceSummary;
  users: ImportUser[];
  services: ImportService[];
  orders: ImportOrder[];
  userServices: ImportUserService[];
  announcements: ImportAnnouncement[];
  vouchers: ImportVoucher[];
  settings: ImportSetting[];
  /** Records turned away before the database is read: duplicates, no id, no equivalent here. */
  skipped: SkipLine[];
  notes: NoteLine[];
  /** Every legacy user id in the file (any copy) → its user's email, for orders that point at users. */
  userEmailById: Map<string, string>;
  /** Users turned away before the database is read, by email, so their orders say why. */
  skippedUserRefs: Map<string, string>;
}
