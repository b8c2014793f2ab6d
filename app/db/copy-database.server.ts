import { sql } from "kysely";
import type { DatabaseHandle } from "./database.server";
import { migrateToLatest } from "./migrate.server";
import type { Database } from "./schema";

/** Every table in an order that respects foreign keys (parents before children). */
export const TABLES_IN_ORDER: (keyof Database)[] = [
  "users",
  "sessions",
  "accounts",
  "verifications",
  "settings",
  "login_attempts",
  "products",
  "product_texts",
  "vouchers",
  "hosting_services",
  "orders",
  "coin_ledger",
  "service_renewals",
  "document_counters",
  "invoices",
  "audit_log",
  "tickets",
  "ticket_messages",
  "notifications",
  "announcements",
  "announcement_texts",
  "contact_messages",
  "newsletter_subscribers",
  "account_deletion_requests",
  "login_throttle_lifts",
  "rate_limit_refusals",
  "legacy_imports",
  "jobs",
  "job_schedules",
  "job_runs",
  "mail_outbox",
  "mail_opt_outs",
  "mail_opt_ins",
  "two_factors",
  "payment_methods",
  "top_up_requests",
  "top_up_proofs",
  "top_up_proof_thumbnails",
  "panel_connections",
  "panel_accounts",
  "panel_port_claims",
  "panel_calls",
  "panel_drift",
  // Paying online (0047-0050): a provider's connection, then the checkouts of top-up requests, what the
  // providers sent about them, and the refunds asked of them.
  "payment_providers",
  "online_payments",
  "provider_notifications",
  "provider_notification_refusals",
  "online_payment_refunds",
  // A server in its customer's hands (0051): its last read state (with when the customer was told it
  // went offline, so a move does not tell them again) and what was asked of it.
  "server_status",
  "server_actions",
  // Changes of plan (0053), cancellations and refunds (0054).
  "product_plan_paths",
  "plan_changes",
  "service_cancellations",
  // A ticket's files (0055) after its messages, the staff's canned replies (0056), and the customers'
  // archives of their data (0057), whose links keep working after the move.
  "ticket_files",
  "canned_replies",
  "data_exports",
  // Referrals (0060): the codes, who brought whom, and each referral's one reward.
  "referral_codes",
  "referrals",
  "referral_rewards",
  // The knowledge base (0059): its categories before their articles.
  "kb_categories",
  "kb_articles",
  // Mail campaigns (0061), then the addresses that asked for no more of them.
  "mail_campaigns",
  "campaign_unsubscribes",
  // The Discord role's bot, server and role (0062); its token is read with the same auth secret.
  "discord_settings",
];

/** SQLite's FTS5 search indexes (migrations 0014 and 0020): virtual tables outside the Kysely types. */
type SqliteSearchIndex = "users_search" | "hosting_services_search";

/**
 * Tables deliberately left behind, each with why: nothing in them is anyone's data, and the target fills
 * them again by itself. Every other table is in TABLES_IN_ORDER (the copy's test holds both lists to the tables
 * the migrations make).
 */
export const TABLES_NOT_COPIED: Partial<Record<keyof Database | SqliteSearchIndex, string>> = {
  ledger_days:
    "a cache of the ledger's per-day sums: the target sums each day again from the copied ledger",
  ledger_day_totals:
    "the per-day sums ledger_days lists: derived from the ledger, rebuilt on the next view",
  form_rate_windows:
    "short-lived per-address counts of form posts: the limits start afresh after a move",
  job_workers:
    "the heartbeats of the worker processes running now: the target's own workers write theirs",
  users_search:
    "SQLite's search index of accounts, kept by triggers; PostgreSQL searches by trigram indexes instead",
  hosting_services_search:
    "SQLite's search index of services' names, kept by triggers, as users_search",
};

const BATCH = 500;
/**
 * Tables whose rows are large, read a few at a time: a proof file is up to 5 MiB, a ticket's file up to
 * 8 MiB, and a data archive holds a customer's proofs and documents, so one at a time.
 */
const SMALL_BATCHES: Partial<Record<keyof Database, number>> = {
  top_up_proofs: 10,
  ticket_files: 5,
  data_exports: 1,
};

const TEXT_ID_TABLES: (keyof Database)[] = [
  "users",
  "sessions",
  "accounts",
  "verifications",
  "settings",
  "two_factors",
];

/** Tables without an id column: the columns their rows are read in order of, and no sequence to move. */
const KEYED_TABLES: Partial<Record<keyof Database, string[]>> = {
  settings: ["key"],
  document_counters: ["series", "year"],
  // No sequence behind these keys: the one panel row, a user's id, the panel's allocation id.
  panel_connections: ["id"],
  panel_accounts: ["user_id"],
  panel_port_claims: ["allocation_id"],
  top_up_proof_thumbnails: ["proof_id"],
  // A provider's name, a service's id, a pair of products.
  payment_providers: ["provider"],
  server_status: ["hosting_service_id"],
  product_plan_paths: ["from_product_id", "to_product_id"],
  // A customer's code, a referral's one reward.
  referral_codes: ["user_id"],
  referral_rewards: ["referral_id"],
};

/** better-auth's booleans are 0/1 in SQLite and true/false in PostgreSQL. */
const BOOLEAN_COLUMNS: Partial<Record<keyof Database, string[]>> = {
  users: ["email_verified", "banned", "two_factor_enabled"],
  two_factors: ["verified"],
};

/**
 * Copies every row from one database into another, empty one (migrated first), in one transaction on the
 * target, then moves PostgreSQL's id sequences past the copied ids. Returns the rows copied per table.
 */
export async function copyDatabase(
  from: DatabaseHandle,
  to: DatabaseHandle,
): Promise<Record<string, number>> {
  await migrateToLatest(from.db);
  await migrateToLatest(to.db);
  const counts: Record<string, number> = {};
  await to.db.transaction().execute(async (trx) => {
    for (const table of TABLES_IN_ORDER) {
      // A migration may write settings of its own (0028: the lifecycle's switch, on for a new install);
      // the site being moved brings its own settings, which replace them below.
      if (table === "settings") continue;
      const existing = await trx
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow();
      if (Number(existing.n) > 0)
        throw new Error(`The target database is not empty: ${table} has rows`);
    }
    await trx.deleteFrom("settings").execute();
    for (const table of TABLES_IN_ORDER) {
      counts[table] = 0;
      let offset = 0;
      for (;;) {
        let query = from.db.selectFrom(table).selectAll();
        for (const column of KEYED_TABLES[table] ?? ["id"]) query = query.orderBy(sql.ref(column));
        const rows = (await query
          .limit(SMALL_BATCHES[table] ?? BATCH)
          .offset(offset)
          .execute()) as Record<string, unknown>[];
        if (rows.length === 0) break;
        const booleans = BOOLEAN_COLUMNS[table] ?? [];
        const values = rows.map((row) => {
          const copy = { ...row };
          for (const column of booleans) {
            if (copy[column] !== null && copy[column] !== undefined) {
              copy[column] =
                to.dialect === "postgres" ? Boolean(copy[column]) : copy[column] ? 1 : 0;
            }
          }
          return copy;
        });
        await trx
          .insertInto(table)
          .values(values as never)
          .execute();
        counts[table] += rows.length;
        offset += rows.length;
      }
    }
    if (to.dialect === "postgres") {
      for (const table of TABLES_IN_ORDER) {
        // better-auth's tables have text ids, no sequence.
        if (TEXT_ID_TABLES.includes(table) || KEYED_TABLES[table]) continue;
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
          trx,
        );
      }
    }
  });
  return counts;
}
