import type { ColumnType, Generated } from "kysely";
import type { Flag, Timestamp, WrittenOnce, WrittenOnceOrDefault } from "./tables/columns";
import type { CampaignTables } from "./tables/campaigns";
import type { CannedReplyTables } from "./tables/canned-replies";
import type { DiscordTables } from "./tables/discord";
import type { DataExportTables } from "./tables/data-exports";
import type { KnowledgeBaseTables } from "./tables/knowledge-base";
import type { PlanChangeTables } from "./tables/plan-changes";
import type { ReferralTables } from "./tables/referrals";
import type { ServiceCancellationTables } from "./tables/service-cancellations";
import type { TicketFileTables } from "./tables/ticket-files";

export type { Flag, Timestamp, WrittenOnce, WrittenOnceOrDefault } from "./tables/columns";

// The tables, one interface each. A capability added later keeps its tables in a file of its own under
// tables/ and joins the Database interface below by name.

export interface UsersTable {
  id: string;
  name: string;
  email: string;
  // better-auth's own columns: SQLite hands back 0/1, PostgreSQL true/false.
  email_verified: Generated<boolean | number>;
  image: string | null;
  role: Generated<string>;
  /**
   * What a member of the staff may do (migration 0052, app/domain/staff/permissions.ts): owner, billing,
   * support or technician while `role` is 'admin', null for a customer.
   */
  staff_role: string | null;
  banned: ColumnType<
    boolean | number | null,
    boolean | number | null | undefined,
    boolean | number
  >;
  ban_reason: string | null;
  ban_expires: Timestamp | null;
  status: Generated<string>;
  coin_balance_cents: Generated<number>;
  must_change_password: Flag;
  locale: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** An admin's note on the account (migration 0026), null when there is none. */
  admin_note: string | null;
  /** better-auth's twoFactor plugin (migration 0031): on once a code has confirmed the secret. */
  two_factor_enabled: Generated<boolean | number>;
  /** The 30-second step of the last authenticator code used (migration 0040); null before the first. */
  totp_last_step: number | null;
  /** An email change waiting for its link to be followed (migration 0032); the login is still `email`. */
  pending_email: string | null;
  pending_email_at: Timestamp | null;
  /** The billing details invoices are made out to (migration 0034); null until the customer sets them. */
  billing_name: string | null;
  billing_address: string | null;
  /** ISO 3166 alpha-2, upper case: the country whose VAT rate applies. */
  billing_country: string | null;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  token: string;
  expires_at: Timestamp;
  ip_address: string | null;
  user_agent: string | null;
  impersonated_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** When the person last proved who they are in this session beyond signing in (migration 0052). */
  proven_at: Timestamp | null;
  /** The customer this staff session views the site as, read-only (migration 0052); null otherwise. */
  viewing_user_id: string | null;
}

export interface AccountsTable {
  id: string;
  user_id: string;
  account_id: string;
  provider_id: string;
  access_token: string | null;
  refresh_token: string | null;
  id_token: string | null;
  access_token_expires_at: Timestamp | null;
  refresh_token_expires_at: Timestamp | null;
  scope: string | null;
  password: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** better-auth's twoFactor plugin (migration 0031); `secret` and `backup_codes` are encrypted by it. */
export interface TwoFactorsTable {
  id: string;
  user_id: string;
  secret: string;
  backup_codes: string;
  verified: Generated<boolean | number>;
  failed_verification_count: Generated<number>;
  locked_until: Timestamp | null;
}

export interface VerificationsTable {
  id: string;
  identifier: string;
  value: string;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SettingsTable {
  key: string;
  /** JSON text, validated by the settings schema when read. */
  value: string;
  updated_at: Timestamp;
}

export interface LoginAttemptsTable {
  id: Generated<number>;
  email: string;
  /** In its short form (loginAddress in login-throttle.server.ts). */
  ip_address: string;
  /** Recorded as 0 before the password is checked, set to 1 when it matched. */
  succeeded: Flag;
  created_at: Timestamp;
}

export interface LoginThrottleLiftsTable {
  id: Generated<number>;
  /** "address", "email" or "pair" (ThrottleKind); a pair's key is "<email> <address>". */
  kind: string;
  key: string;
  lifted_by: string | null;
  created_at: Timestamp;
}

export interface RateLimitRefusalsTable {
  id: Generated<number>;
  ip_address: string;
  path: string;
  created_at: Timestamp;
  ends_at: Timestamp;
}

/**
 * The per-address form limit's count: posts from one address to one form in one fixed window (migration
 * 0017). Short-lived counters, so neither copied by migrate-to-postgres nor compared by tests.
 */
export interface FormRateWindowsTable {
  ip_address: string;
  /** The form's path, e.g. "/login" (server/request-limits.ts). */
  form: string;
  window_start: Timestamp;
  /** From this moment no post counts the slot (its start plus seven slots): pruned then (0041). */
  counted_until: Timestamp | null;
  hits: number;
}

export interface ProductsTable {
  id: Generated<number>;
  slug: string;
  type: string;
  category: string;
  name: string;
  description: Generated<string>;
  price_cents: number;
  /** JSON array of strings. */
  features: Generated<string>;
  ram_gb: number | null;
  storage_gb: number | null;
  cpu_cores: number | null;
  slots: number | null;
  recommended: Flag;
  status: Generated<string>;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The provisioning block (migration 0038, JSON), null for a product set up by hand. */
  provisioning: string | null;
  /** 1: an order paid from coins is approved by the system when the trust rule holds (migration 0047). */
  activate_when_paid: Flag;
}

/**
 * A product's texts in one language other than English (migration 0022, ADR 19): each field empty (or
 * features "[]") falls back to the product's English one in `products`.
 */
export interface ProductTextsTable {
  id: Generated<number>;
  product_id: number;
  /** "fr" or "ar" (a CHECK). */
  locale: string;
  name: Generated<string>;
  description: Generated<string>;
  /** JSON array of strings. */
  features: Generated<string>;
  updated_at: Timestamp;
}

export interface CoinLedgerTable {
  id: Generated<number>;
  user_id: string;
  amount_cents: number;
  balance_after_cents: number;
  kind: string;
  order_id: number | null;
  hosting_service_id: number | null;
  actor_id: string | null;
  reason: WrittenOnceOrDefault<string>;
  /** An admin form's key (migration 0019): unique, so a replayed post writes no second entry. */
  idempotency_key: WrittenOnce<string | null>;
  /**
   * The reason as a message of the coins catalogue (migration 0023, `LEDGER_REASON_KEYS`), shown in each
   * reader's language; null on rows written before it, which show `reason` as written.
   */
  reason_key: WrittenOnce<string | null>;
  /** The message's values, a JSON object ({"id":1,"product":"SAMP Premium"}); null without a key. */
  reason_params: WrittenOnce<string | null>;
  created_at: Timestamp;
}

export interface VouchersTable {
  id: Generated<number>;
  code: string;
  description: Generated<string>;
  discount_type: string;
  discount_value: number;
  min_purchase_cents: Generated<number>;
  max_uses: number;
  used_count: Generated<number>;
  is_active: Flag;
  valid_from: Timestamp;
  valid_until: Timestamp;
  /** JSON: "all" or an array of product ids. */
  applicable_services: Generated<string>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface HostingServicesTable {
  id: Generated<number>;
  user_id: string;
  product_id: number | null;
  name: string;
  server_name: Generated<string>;
  type: string | null;
  billing_cycle: Generated<string>;
  monthly_price_cents: number;
  cycle_price_cents: number;
  status: Generated<string>;
  expires_at: Timestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** An admin's note (migration 0020), null when there is none. */
  admin_note: string | null;
  /** The customer's automatic renewal from coins (migration 0028): 1 on, 0 off. */
  auto_renew: Flag;
  /** Why a suspended service is (0028): "expired" (the lifecycle), "admin"; null before 0028 or when active. */
  suspension_reason: string | null;
  /** When it was suspended (0028): the lifecycle's termination counts from it. */
  suspended_at: Timestamp | null;
  /**
   * Where the service stands on the game panel (migration 0038, docs/provisioning.md): null for a
   * service no panel knows; one of PANEL_STATES otherwise.
   */
  panel_state: string | null;
  /** The provisioning block and build computed at approval (JSON). */
  panel_plan: string | null;
  panel_server_id: number | null;
  panel_identifier: string | null;
  panel_node_id: number | null;
  /** "ip:port" of the game port. */
  panel_address: string | null;
  /** JSON `{ game, announce?, http? }`. */
  panel_ports: string | null;
  /** Why the last panel job failed (for admins), null after a success. */
  panel_error: string | null;
  panel_updated_at: Timestamp | null;
  /** The customer's "tell me when my server has been offline for 10 minutes" (0051): 1 on, 0 off. */
  offline_notice: Flag;
  /** An end of term is scheduled (0054): the lifecycle ends the service at its expiry, untold. */
  ends_at_expiry: Flag;
}

export interface OrdersTable {
  id: Generated<number>;
  user_id: string;
  product_id: number;
  product_name: string;
  product_type: string;
  product_price_cents: number;
  billing_cycle: string;
  location: string;
  ddos_protection: number;
  player_slots: number | null;
  backup: string;
  server_name: string;
  voucher_id: number | null;
  voucher_code: string | null;
  monthly_price_cents: number;
  subtotal_cents: number;
  discount_cents: Generated<number>;
  total_cents: number;
  paid_with_coins: Flag;
  status: Generated<string>;
  idempotency_key: string;
  reject_reason: string | null;
  decided_by: string | null;
  decided_at: Timestamp | null;
  hosting_service_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  /** The order form's automatic renewal switch (migration 0028), given to the service it becomes. */
  auto_renew: Flag;
  /**
   * Why the system did not approve it as it was placed (migration 0048): planApproval | unverified |
   * firstPurchase | noRoom (a CHECK); null when approved at once, and for orders placed before.
   */
  wait_reason: string | null;
}

export interface ServiceRenewalsTable {
  id: Generated<number>;
  hosting_service_id: number;
  user_id: string;
  idempotency_key: string;
  amount_cents: number;
  previous_expires_at: Timestamp;
  new_expires_at: Timestamp;
  /**
   * When the renewal reactivated a service suspended for expiry: when it had been suspended (migration
   * 0039; null otherwise, and unknown for renewals from before). A refund taking the renewal back
   * suspends the service again from then.
   */
  reactivated_suspended_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string | null;
  action: string;
  target_type: string;
  target_id: string;
  before: string | null;
  after: string | null;
  reason: WrittenOnceOrDefault<string>;
  created_at: Timestamp;
}

export interface TicketsTable {
  id: Generated<number>;
  user_id: string;
  department: string;
  subject: string;
  priority: Generated<string>;
  status: Generated<string>;
  hosting_service_id: number | null;
  waiting_since: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TicketMessagesTable {
  id: Generated<number>;
  ticket_id: number;
  author_id: string | null;
  is_staff: Flag;
  body: string;
  /** The reply or new-ticket form's key (migration 0025): unique, so a post sent twice is stored once. */
  idempotency_key: WrittenOnce<string | null>;
  /** A note the staff write for each other (migration 0055): never shown to the customer. */
  internal: Flag;
  created_at: Timestamp;
}

export interface NotificationsTable {
  id: Generated<number>;
  user_id: string;
  kind: string;
  params: Generated<string>;
  link: string;
  dedupe_key: string | null;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

export interface AnnouncementsTable {
  id: Generated<number>;
  title: string;
  content: string;
  type: Generated<string>;
  is_active: Flag;
  target_audience: Generated<string>;
  seed_key: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An announcement's title and content in one language besides English (migration 0024, ADR 21). */
export interface AnnouncementTextsTable {
  id: Generated<number>;
  announcement_id: number;
  /** "fr" or "ar" (a CHECK). */
  locale: string;
  /** Empty: the English title is shown. */
  title: Generated<string>;
  /** Empty: the English content is shown. */
  content: Generated<string>;
  updated_at: Timestamp;
}

export interface ContactMessagesTable {
  id: Generated<number>;
  name: string;
  email: string;
  subject: string;
  message: string;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

export interface NewsletterSubscribersTable {
  id: Generated<number>;
  email: string;
  created_at: Timestamp;
  /** When its confirmation link was opened (migration 0061); null: waiting, and mailed no campaign. */
  confirmed_at: Timestamp | null;
  /** The page's language when it subscribed: its campaigns' and its confirmation's language. */
  locale: string | null;
}

/**
 * A customer's request to delete their account (migration 0021, ADR 19): `pending` until an admin
 * completes it (`completed`) or the customer cancels it (`cancelled`). At most one pending per account.
 */
export interface AccountDeletionRequestsTable {
  id: Generated<number>;
  user_id: string;
  status: Generated<string>;
  /** What the account held when it asked: active services, pending orders, coins (cents). */
  active_services: WrittenOnceOrDefault<number>;
  pending_orders: WrittenOnceOrDefault<number>;
  balance_cents: WrittenOnceOrDefault<number>;
  requested_at: Timestamp;
  /** When it was cancelled or completed, and by whom (the customer, or the completing admin). */
  decided_at: Timestamp | null;
  decided_by: string | null;
}

/** What each import from the old storefront brought in (docs/legacy-import.md). */
export interface LegacyImportsTable {
  id: Generated<number>;
  collection: string;
  legacy_key: string;
  new_id: string;
  outcome: string;
  imported_at: Timestamp;
}

/**
 * Closed days whose ledger totals are summed (migration 0015); derived data, so neither copied by
 * migrate-to-postgres nor compared by tests: a day missing here is summed again from coin_ledger.
 */
export interface LedgerDaysTable {
  day: string;
  summed_at: Timestamp;
}

/** One row per summed day and ledger kind with entries that day. */
export interface LedgerDayTotalsTable {
  day: string;
  kind: string;
  entries: number;
  credits_cents: number;
  debits_cents: number;
}

/** A durable background job (migration 0027, app/domain/jobs): claimed under a lease, retried, then dead. */
/** Outgoing mail (docs/mail.md): one row per event and recipient, sent by a worker job. */
export interface MailOutboxTable {
  id: Generated<number>;
  /** The event and the recipient: unique for ever, so an event mails a person once. */
  unique_key: string;
  kind: string;
  user_id: string | null;
  to_address: string;
  locale: string;
  /** JSON text: what the template is written from. */
  params: Generated<string>;
  /** queued, sent, failed (the worker retries) or kept (no SMTP_URL). */
  state: Generated<string>;
  subject: string | null;
  html: string | null;
  text: string | null;
  message_id: string | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: Timestamp | null;
}

/** A kind of mail a customer turned off (docs/mail.md); security mail cannot be. */
export interface MailOptOutsTable {
  id: Generated<number>;
  user_id: string;
  kind: string;
  created_at: Timestamp;
}

/** The staff's messages an admin asked to receive (STAFF_MAIL_CHOICES), off by default. */
export interface MailOptInsTable {
  id: Generated<number>;
  user_id: string;
  kind: string;
  created_at: Timestamp;
}

export interface JobsTable {
  id: Generated<number>;
  type: string;
  /** JSON text, checked by the job type's handler. */
  payload: Generated<string>;
  /** queued, running, succeeded, failed (waiting for its next attempt at run_at) or dead. */
  state: Generated<string>;
  run_at: Timestamp;
  /** Claimed before every job of a lower one, whatever their run_at (0 by default; migration 0042). */
  priority: Generated<number>;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  /** Unique among the jobs waiting or running: the same job is never queued twice. */
  unique_key: string | null;
  /** The schedule whose run this is, when it is one (its runs are logged in job_runs). */
  schedule: string | null;
  last_error: string | null;
  lease_owner: string | null;
  lease_until: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  finished_at: Timestamp | null;
}

/** Where each recurring schedule stands: the slot its next run is due at, and the last one queued. */
export interface JobSchedulesTable {
  id: Generated<number>;
  name: string;
  next_run_at: Timestamp;
  last_slot_at: Timestamp | null;
  updated_at: Timestamp;
}

/** One run of a scheduled job (each attempt): when, how it ended, what it did in counts (JSON). */
export interface JobRunsTable {
  id: Generated<number>;
  job_id: number | null;
  schedule: string;
  job_type: string;
  attempt: number;
  /** running, succeeded or failed. */
  status: string;
  counts: Generated<string>;
  error: string | null;
  started_at: Timestamp;
  finished_at: Timestamp | null;
}

/**
 * Each worker process's last heartbeat (/healthz?deep=1). Short-lived, so neither copied by
 * migrate-to-postgres nor compared by tests.
 */
export interface JobWorkersTable {
  id: Generated<number>;
  owner: string;
  started_at: Timestamp;
  beat_at: Timestamp;
}

/**
 * A way to pay for coins outside the site (migration 0033, docs/payments.md). Amounts are integers of the
 * method's minor unit (euro cents, dirham centimes); coins are whole.
 */
export interface PaymentMethodsTable {
  id: Generated<number>;
  /** A stable slug ("orange-money"); a built-in method's never changes. */
  code: string;
  /** One of the five methods of the service terms, seeded at start-up: never deleted. */
  builtin: Flag;
  /** manual | paypal | youcanpay (a CHECK, migration 0047): who takes the money. */
  kind: Generated<string>;
  enabled: Flag;
  /** "EUR" or "MAD" (a CHECK). */
  currency: string;
  /** Minor units of `currency` one coin costs: 1100 is 11.00 MAD; a euro method's is 100 (a CHECK). */
  rate: number;
  min_coins: number;
  max_coins: number;
  /** Minor units of `currency`. */
  fee_fixed: Generated<number>;
  /** Basis points, 0 to 10,000 (100%). */
  fee_percent_bp: Generated<number>;
  /** JSON: one name per language ({"en": "...", "fr": "...", "ar": "..."}), "" where none. */
  names: Generated<string>;
  /** JSON: what to send where, per language, as `names`. */
  instructions: Generated<string>;
  sort_order: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * A customer's request to buy coins with a payment method (migration 0035, docs/payments.md). The quote
 * is frozen when it is asked: amounts in minor units of `currency`, `credit_cents` what the balance gets.
 */
export interface TopUpRequestsTable {
  id: Generated<number>;
  /** What the customer writes in the transfer ("TU-7K3Q9"). */
  reference: string;
  user_id: string;
  payment_method_id: number;
  coins: number;
  currency: string;
  amount: number;
  fee: number;
  total: number;
  credit_cents: number;
  payer_account: string | null;
  /** A date (YYYY-MM-DD), as the customer gave it. */
  paid_on: string | null;
  /** waiting_payment | proof_sent | approved | rejected | cancelled (a CHECK). */
  state: string;
  /** Set when approved: the coins credited (another number when another amount was received). */
  credited_coins: number | null;
  reject_reason: string | null;
  decided_by: string | null;
  decided_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/**
 * A proof of payment attached to a top-up request (migration 0036, docs/payments.md#proof-files): an
 * image re-encoded without its metadata, or a PDF as sent. `sha256` is of the bytes as uploaded.
 */
export interface TopUpProofsTable {
  id: Generated<number>;
  top_up_request_id: number;
  /** The request's owner. */
  user_id: string;
  /** image/jpeg | image/png | image/webp | application/pdf (a CHECK), from the content. */
  content_type: string;
  /** What is served (a Buffer on both dialects). */
  bytes: Buffer;
  byte_size: number;
  /** Hex SHA-256 of the bytes as uploaded: the same file sent again has the same. */
  sha256: string;
  /** The sent name made safe, with its type's extension. */
  file_name: string;
  /** An image's size in pixels as stored; null for a PDF. */
  width: number | null;
  height: number | null;
  created_at: Timestamp;
}

/**
 * An image proof's preview (migration 0044, docs/payments.md#proof-files): a WebP within 320 pixels each
 * way, what the admins' queue shows. Deleted with its file.
 */
export interface TopUpProofThumbnailsTable {
  proof_id: number;
  /** The WebP (a Buffer on both dialects). */
  bytes: Buffer;
  byte_size: number;
  width: number;
  height: number;
  created_at: Timestamp;
}

/** The next number of a series of documents in a year (migration 0034, ADR 37). */
export interface DocumentCountersTable {
  series: string;
  year: number;
  next_number: number;
}

/**
 * A numbered document (migration 0034, docs/invoices.md): an invoice, a payment receipt or a credit note.
 * Written once; only `state` changes (paid, then credited). A credit note's amounts are negative.
 */
export interface InvoicesTable {
  id: Generated<number>;
  number: WrittenOnce<string>;
  kind: WrittenOnce<string>;
  user_id: WrittenOnce<string>;
  order_id: WrittenOnce<number | null>;
  hosting_service_id: WrittenOnce<number | null>;
  credits_invoice_id: WrittenOnce<number | null>;
  ledger_entry_id: WrittenOnce<number | null>;
  currency: WrittenOnceOrDefault<string>;
  prices_include_vat: WrittenOnce<number>;
  subtotal_cents: WrittenOnce<number>;
  vat_rate_bp: WrittenOnce<number>;
  vat_cents: WrittenOnce<number>;
  total_cents: WrittenOnce<number>;
  /** JSON: the seller's details as the settings held them. */
  seller: WrittenOnce<string>;
  /** JSON: the buyer's name, email, address and country at the time. */
  buyer: WrittenOnce<string>;
  /** JSON: the lines, each a message key and its values, quantity, unit and total cents. */
  lines: WrittenOnce<string>;
  state: string;
  reason: WrittenOnce<string | null>;
  refund_method: WrittenOnce<string | null>;
  actor_id: WrittenOnce<string | null>;
  issued_at: WrittenOnce<string>;
}

// Each capability's own tables (tables/*.ts) join by `extends`.
export interface Database
  extends
    CannedReplyTables,
    CampaignTables,
    DiscordTables,
    DataExportTables,
    ReferralTables,
    KnowledgeBaseTables,
    PlanChangeTables,
    ServiceCancellationTables,
    TicketFileTables {
  users: UsersTable;
  sessions: SessionsTable;
  accounts: AccountsTable;
  verifications: VerificationsTable;
  two_factors: TwoFactorsTable;
  settings: SettingsTable;
  login_attempts: LoginAttemptsTable;
  login_throttle_lifts: LoginThrottleLiftsTable;
  rate_limit_refusals: RateLimitRefusalsTable;
  form_rate_windows: FormRateWindowsTable;
  products: ProductsTable;
  product_texts: ProductTextsTable;
  coin_ledger: CoinLedgerTable;
  vouchers: VouchersTable;
  hosting_services: HostingServicesTable;
  orders: OrdersTable;
  service_renewals: ServiceRenewalsTable;
  document_counters: DocumentCountersTable;
  invoices: InvoicesTable;
  audit_log: AuditLogTable;
  tickets: TicketsTable;
  ticket_messages: TicketMessagesTable;
  notifications: NotificationsTable;
  announcements: AnnouncementsTable;
  announcement_texts: AnnouncementTextsTable;
  contact_messages: ContactMessagesTable;
  newsletter_subscribers: NewsletterSubscribersTable;
  account_deletion_requests: AccountDeletionRequestsTable;
  legacy_imports: LegacyImportsTable;
  ledger_days: LedgerDaysTable;
  ledger_day_totals: LedgerDayTotalsTable;
  jobs: JobsTable;
  job_schedules: JobSchedulesTable;
  job_runs: JobRunsTable;
  job_workers: JobWorkersTable;
  mail_outbox: MailOutboxTable;
  mail_opt_outs: MailOptOutsTable;
  mail_opt_ins: MailOptInsTable;
  payment_methods: PaymentMethodsTable;
  top_up_requests: TopUpRequestsTable;
  top_up_proofs: TopUpProofsTable;
  top_up_proof_thumbnails: TopUpProofThumbnailsTable;
  panel_connections: PanelConnectionsTable;
  panel_accounts: PanelAccountsTable;
  panel_port_claims: PanelPortClaimsTable;
  panel_calls: PanelCallsTable;
  panel_drift: PanelDriftTable;
  payment_providers: PaymentProvidersTable;
  online_payments: OnlinePaymentsTable;
  provider_notifications: ProviderNotificationsTable;
  provider_notification_refusals: ProviderNotificationRefusalsTable;
  online_payment_refunds: OnlinePaymentRefundsTable;
  server_status: ServerStatusTable;
  server_actions: ServerActionsTable;
}

/** A payment provider's connection (migration 0047, ADR 55): the secret encrypted, its last 4 in clear. */
export interface PaymentProvidersTable {
  /** paypal | youcanpay (a CHECK). */
  provider: string;
  /** sandbox | live (a CHECK). */
  mode: Generated<string>;
  api_url: string;
  /** PayPal's client id, YouCan Pay's public key. */
  public_id: Generated<string>;
  secret_encrypted: string | null;
  secret_last4: string | null;
  /** PayPal's webhook id ("" for YouCan Pay). */
  webhook_id: Generated<string>;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** One checkout at a provider, paying one top-up request (migration 0047, ADR 55). */
export interface OnlinePaymentsTable {
  id: Generated<number>;
  top_up_request_id: number;
  user_id: string;
  provider: string;
  /** PayPal's order id, YouCan Pay's token id: null until the provider answered the start. */
  provider_ref: string | null;
  /** PayPal's capture id, YouCan Pay's transaction id, once paid. */
  capture_ref: string | null;
  /** Minor units of `currency`, the request's frozen total. */
  amount: number;
  currency: string;
  paid_amount: number | null;
  paid_currency: string | null;
  /** pending | paid | failed | cancelled | refunded (a CHECK). */
  state: Generated<string>;
  problem: string | null;
  /** Minor units given back so far. */
  refunded_amount: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  settled_at: Timestamp | null;
}

/** What a provider sent us, kept as received (migration 0047, ADR 55). */
export interface ProviderNotificationsTable {
  id: Generated<number>;
  provider: string;
  event_id: string;
  event_type: string;
  provider_ref: string | null;
  online_payment_id: number | null;
  body: string;
  /** JSON: the headers a verification needs. */
  headers: Generated<string>;
  /** queued | applied | duplicate | ignored | badSignature | unknownPayment | mismatch (a CHECK). */
  outcome: Generated<string>;
  detail: string | null;
  received_at: Timestamp;
  handled_at: Timestamp | null;
}

/**
 * Notifications refused before anything was kept (migration 0049): one row per provider, reason and key
 * (the replayed event's id, "" for oversized bodies), counted.
 */
export interface ProviderNotificationRefusalsTable {
  id: Generated<number>;
  provider: string;
  /** tooLarge | replay (a CHECK). */
  reason: string;
  key: string;
  bytes: number | null;
  count: Generated<number>;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
}

/** A refund an admin asked of an online payment (migration 0050). */
export interface OnlinePaymentRefundsTable {
  id: Generated<number>;
  online_payment_id: number;
  /** Minor units of the payment's currency. */
  amount: number;
  /** asked | pending | refunded | refused | manual | failed (a CHECK). */
  state: Generated<string>;
  detail: string | null;
  asked_by: string | null;
  job_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The one game panel (migration 0038): the key encrypted with the auth secret, its last 4 in clear. */
export interface PanelConnectionsTable {
  id: number;
  url: string;
  api_key_encrypted: string;
  api_key_last4: string;
  /** JSON: the order form's location id → the panel's location ids. */
  location_map: Generated<string>;
  /** JSON: the panel's locations, nodes, nests and eggs as the last check read them. */
  snapshot: string | null;
  checked_at: Timestamp | null;
  /** Why the last check failed ("key|detail"), null after a good one. */
  check_error: string | null;
  check_requested_at: Timestamp | null;
  /** A root admin's Client API key (0051), encrypted with the address as the application key is. */
  client_key_encrypted: string | null;
  client_key_last4: string | null;
  updated_by: string | null;
  updated_at: Timestamp;
}

/** A customer's user on the panel (0038). */
export interface PanelAccountsTable {
  user_id: string;
  panel_user_id: number;
  created_at: Timestamp;
}

/** An allocation a job picked for a service (0038): the key is what stops two jobs taking it. */
export interface PanelPortClaimsTable {
  allocation_id: number;
  node_id: number;
  hosting_service_id: number;
  created_at: Timestamp;
}

/** One call made to the panel (0038): no key, no body. */
export interface PanelCallsTable {
  id: Generated<number>;
  hosting_service_id: number | null;
  job_id: number | null;
  method: string;
  path: string;
  status: number | null;
  duration_ms: number;
  error_code: string | null;
  created_at: Timestamp;
}

/** What the last reconciliation found (0038). */
export interface PanelDriftTable {
  id: Generated<number>;
  kind: string;
  hosting_service_id: number | null;
  panel_server_id: number | null;
  detail: Generated<string>;
  found_at: Timestamp;
}

/** The last state the worker read of a provisioned server (0051, docs/server-control.md). */
export interface ServerStatusTable {
  hosting_service_id: number;
  /** One of SERVER_STATES. */
  state: Generated<string>;
  /** Tenths of a percent of one core. */
  cpu_tenths: number | null;
  memory_mib: number | null;
  disk_mib: number | null;
  uptime_seconds: number | null;
  read_at: Timestamp | null;
  read_error: string | null;
  requested_at: Timestamp | null;
  game_name: string | null;
  players_online: number | null;
  players_max: number | null;
  players_read_at: Timestamp | null;
  players_error: string | null;
  /** JSON: SFTP host, port and username. */
  access: string | null;
  /** JSON: the egg variables the panel lets its user edit, with their values. */
  variables: string | null;
  offline_since: Timestamp | null;
  offline_notified_at: Timestamp | null;
  updated_at: Timestamp;
}

/** One thing asked of a server (0051): a power signal, a reinstall, a variable, a new panel password. */
export interface ServerActionsTable {
  id: Generated<number>;
  hosting_service_id: number;
  /** start | restart | stop | kill | reinstall | variable | password */
  action: string;
  detail: string | null;
  /** queued | done | failed */
  state: Generated<string>;
  error: string | null;
  actor_id: string | null;
  job_id: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}
