import { type Kysely } from "kysely";
import { Migrator, type Migration, type MigrationProvider } from "kysely/migration";
import * as m0001 from "../../db/migrations/0001-accounts-and-settings";
import * as m0002 from "../../db/migrations/0002-catalogue";
import * as m0004 from "../../db/migrations/0004-coins-orders-services";
import * as m0005 from "../../db/migrations/0005-support";
import * as m0007 from "../../db/migrations/0007-site-messages";
import * as m0008 from "../../db/migrations/0008-catalogue-admin";
import * as m0010 from "../../db/migrations/0010-security";
import * as m0011 from "../../db/migrations/0011-report-indexes";
import * as m0012 from "../../db/migrations/0012-legacy-imports";
import * as m0014 from "../../db/migrations/0014-search-indexes";
import * as m0015 from "../../db/migrations/0015-ledger-day-totals";
import * as m0016 from "../../db/migrations/0016-ledger-customer-totals-index";
import * as m0017 from "../../db/migrations/0017-form-rate-windows";
import * as m0018 from "../../db/migrations/0018-login-pair-index";
import * as m0019 from "../../db/migrations/0019-coin-limits";
import * as m0020 from "../../db/migrations/0020-hosting-service-admin-note";
import * as m0021 from "../../db/migrations/0021-account-deletion";
import * as m0022 from "../../db/migrations/0022-product-texts";
import * as m0023 from "../../db/migrations/0023-ledger-reason-keys";
import * as m0024 from "../../db/migrations/0024-announcement-texts";
import * as m0025 from "../../db/migrations/0025-ticket-message-keys";
import * as m0026 from "../../db/migrations/0026-user-admin-note";
import * as m0027 from "../../db/migrations/0027-jobs";
import * as m0028 from "../../db/migrations/0028-service-lifecycle";
import * as m0030 from "../../db/migrations/0030-mail-outbox";
import * as m0031 from "../../db/migrations/0031-two-factor";
import * as m0032 from "../../db/migrations/0032-verified-addresses";
import * as m0033 from "../../db/migrations/0033-payment-methods";
import * as m0034 from "../../db/migrations/0034-invoices";
import * as m0035 from "../../db/migrations/0035-top-up-requests";
import * as m0036 from "../../db/migrations/0036-top-up-proofs";
import * as m0037 from "../../db/migrations/0037-document-numbers-at-commit";
import * as m0038 from "../../db/migrations/0038-provisioning";
import * as m0039 from "../../db/migrations/0039-renewal-reactivation";
import * as m0040 from "../../db/migrations/0040-totp-last-step";
import * as m0041 from "../../db/migrations/0041-form-limit-windows";
import * as m0042 from "../../db/migrations/0042-job-priority";
import * as m0043 from "../../db/migrations/0043-welcome-coins-text";
import * as m0044 from "../../db/migrations/0044-proof-thumbnails";
import * as m0045 from "../../db/migrations/0045-mail-opt-ins";
import * as m0046 from "../../db/migrations/0046-client-page-indexes";
import * as m0047 from "../../db/migrations/0047-online-payments";
import * as m0048 from "../../db/migrations/0048-order-wait-reason";
import * as m0049 from "../../db/migrations/0049-notification-refusals";
import * as m0050 from "../../db/migrations/0050-online-payment-refunds";
import * as m0051 from "../../db/migrations/0051-server-control";
import * as m0052 from "../../db/migrations/0052-staff-roles";
import * as m0053 from "../../db/migrations/0053-plan-changes";
import * as m0054 from "../../db/migrations/0054-service-cancellations";
import * as m0055 from "../../db/migrations/0055-ticket-files";
import * as m0056 from "../../db/migrations/0056-canned-replies";
import * as m0057 from "../../db/migrations/0057-data-exports";
import * as m0058 from "../../db/migrations/0058-ledger-actor-index";
import * as m0059 from "../../db/migrations/0059-knowledge-base";
import * as m0060 from "../../db/migrations/0060-referrals";
import * as m0061 from "../../db/migrations/0061-mail-campaigns";
import * as m0062 from "../../db/migrations/0062-discord";
import type { Database } from "./schema";

// Imported statically so the server build carries its migrations; add each new file here, in order.
export const MIGRATIONS: Record<string, Migration> = {
  "0001-accounts-and-settings": m0001,
  "0002-catalogue": m0002,
  "0004-coins-orders-services": m0004,
  "0005-support": m0005,
  "0007-site-messages": m0007,
  "0008-catalogue-admin": m0008,
  "0010-security": m0010,
  "0011-report-indexes": m0011,
  "0012-legacy-imports": m0012,
  "0014-search-indexes": m0014,
  "0015-ledger-day-totals": m0015,
  "0016-ledger-customer-totals-index": m0016,
  "0017-form-rate-windows": m0017,
  "0018-login-pair-index": m0018,
  "0019-coin-limits": m0019,
  "0020-hosting-service-admin-note": m0020,
  "0021-account-deletion": m0021,
  "0022-product-texts": m0022,
  "0023-ledger-reason-keys": m0023,
  "0024-announcement-texts": m0024,
  "0025-ticket-message-keys": m0025,
  "0026-user-admin-note": m0026,
  "0027-jobs": m0027,
  "0028-service-lifecycle": m0028,
  "0030-mail-outbox": m0030,
  "0031-two-factor": m0031,
  "0032-verified-addresses": m0032,
  "0033-payment-methods": m0033,
  "0034-invoices": m0034,
  "0035-top-up-requests": m0035,
  "0036-top-up-proofs": m0036,
  "0037-document-numbers-at-commit": m0037,
  "0038-provisioning": m0038,
  "0039-renewal-reactivation": m0039,
  "0040-totp-last-step": m0040,
  "0041-form-limit-windows": m0041,
  "0042-job-priority": m0042,
  "0043-welcome-coins-text": m0043,
  "0044-proof-thumbnails": m0044,
  "0045-mail-opt-ins": m0045,
  "0046-client-page-indexes": m0046,
  "0047-online-payments": m0047,
  "0048-order-wait-reason": m0048,
  "0049-notification-refusals": m0049,
  "0050-online-payment-refunds": m0050,
  "0051-server-control": m0051,
  "0052-staff-roles": m0052,
  "0053-plan-changes": m0053,
  "0054-service-cancellations": m0054,
  "0055-ticket-files": m0055,
  "0056-canned-replies": m0056,
  "0057-data-exports": m0057,
  "0058-ledger-actor-index": m0058,
  "0059-knowledge-base": m0059,
  "0060-referrals": m0060,
  "0061-mail-campaigns": m0061,
  "0062-discord": m0062,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((result) => result.status === "Error");
  if (error || failed) {
    const name = failed ? ` (${failed.migrationName})` : "";
    throw new Error(`Database migration failed${name}: ${String(error)}`, { cause: error });
  }
}
