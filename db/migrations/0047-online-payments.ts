import { sql, type ColumnDefinitionBuilder, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

// Paying online and activating on payment (ADR 55, docs/online-payments.md).
//
// - `payment_methods.kind`: `manual` (the customer pays elsewhere and sends a proof) or the provider that
//   takes the money on its own page (`paypal`, `youcanpay`). Every method before this one is manual.
// - `payment_providers`: one row a provider, its connection: sandbox or live, the API address, the public
//   identifier in clear, the secret encrypted with the auth secret (bound to the address it was saved
//   for) and its last four characters, PayPal's webhook id.
// - `online_payments`: one row a checkout, beside the top-up request it pays (one each). `pending` moves
//   once to `paid`, `failed` or `cancelled`; `paid` may move to `refunded`. `provider_ref` is null until
//   the provider answered the start, and unique with the provider once set.
// - `provider_notifications`: the inbox of what providers sent, unique per provider and event id, so a
//   replay finds the first; the raw body is kept (at most 64 KiB, checked before the insert).
// - `products.activate_when_paid`: an order of it paid from coins is approved by the system at once when
//   the trust rule holds (off for every product until an admin turns it on).
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const id = (c: ColumnDefinitionBuilder) =>
    t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement();

  await db.schema
    .alterTable("payment_methods")
    .addColumn("kind", "text", (c) =>
      c
        .notNull()
        .defaultTo("manual")
        .check(sql`kind in ('manual', 'paypal', 'youcanpay')`),
    )
    .execute();

  await db.schema
    .createTable("payment_providers")
    .addColumn("provider", "text", (c) =>
      c.primaryKey().check(sql`provider in ('paypal', 'youcanpay')`),
    )
    .addColumn("mode", "text", (c) =>
      c
        .notNull()
        .defaultTo("sandbox")
        .check(sql`mode in ('sandbox', 'live')`),
    )
    .addColumn("api_url", "text", (c) => c.notNull())
    // PayPal's client id, YouCan Pay's public key: not secrets, shown back.
    .addColumn("public_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("secret_encrypted", "text")
    .addColumn("secret_last4", "text")
    // PayPal's id of the webhook it signs notifications for (verify-webhook-signature asks for it).
    .addColumn("webhook_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_by", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable("online_payments")
    .addColumn("id", t.autoId, id)
    .addColumn("top_up_request_id", "integer", (c) =>
      c.notNull().unique().references("top_up_requests.id").onDelete("cascade"),
    )
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("provider", "text", (c) =>
      c.notNull().check(sql`provider in ('paypal', 'youcanpay')`),
    )
    .addColumn("provider_ref", "text")
    .addColumn("capture_ref", "text")
    // What was asked, in minor units of `currency` (the request's frozen total).
    .addColumn("amount", "integer", (c) => c.notNull().check(sql`amount > 0`))
    .addColumn("currency", "text", (c) => c.notNull())
    // What the provider says it took, once it said so.
    .addColumn("paid_amount", "integer")
    .addColumn("paid_currency", "text")
    .addColumn("state", "text", (c) =>
      c
        .notNull()
        .defaultTo("pending")
        .check(sql`state in ('pending', 'paid', 'failed', 'cancelled', 'refunded')`),
    )
    // Why it failed or was flagged (a catalogue key's last part), null otherwise.
    .addColumn("problem", "text")
    .addColumn("refunded_amount", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", t.timestamp, (c) => c.notNull())
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addColumn("settled_at", t.timestamp)
    .addUniqueConstraint("online_payments_provider_ref", ["provider", "provider_ref"])
    .execute();
  // The reconciliation's question: the checkouts still pending, oldest first.
  await db.schema
    .createIndex("online_payments_state_idx")
    .on("online_payments")
    .columns(["state", "created_at"])
    .execute();
  await db.schema
    .createIndex("online_payments_user_idx")
    .on("online_payments")
    .columns(["user_id", "created_at"])
    .execute();

  await db.schema
    .createTable("provider_notifications")
    .addColumn("id", t.autoId, id)
    .addColumn("provider", "text", (c) =>
      c.notNull().check(sql`provider in ('paypal', 'youcanpay')`),
    )
    .addColumn("event_id", "text", (c) => c.notNull())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("provider_ref", "text")
    .addColumn("online_payment_id", "integer", (c) =>
      c.references("online_payments.id").onDelete("set null"),
    )
    .addColumn("body", "text", (c) => c.notNull())
    // JSON: the headers a verification needs (PayPal's transmission headers), nothing else.
    .addColumn("headers", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("outcome", "text", (c) =>
      c
        .notNull()
        .defaultTo("queued")
        .check(
          sql`outcome in ('queued', 'applied', 'duplicate', 'ignored', 'badSignature', 'unknownPayment', 'mismatch')`,
        ),
    )
    .addColumn("detail", "text")
    .addColumn("received_at", t.timestamp, (c) => c.notNull())
    .addColumn("handled_at", t.timestamp)
    .addUniqueConstraint("provider_notifications_event", ["provider", "event_id"])
    .execute();
  // The admin's list of refused notifications, newest first.
  await db.schema
    .createIndex("provider_notifications_outcome_idx")
    .on("provider_notifications")
    .columns(["outcome", "received_at"])
    .execute();

  await db.schema
    .alterTable("products")
    // 0 or 1 on both dialects, as every flag of ours.
    .addColumn("activate_when_paid", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("products").dropColumn("activate_when_paid").execute();
  await db.schema.dropTable("provider_notifications").execute();
  await db.schema.dropTable("online_payments").execute();
  await db.schema.dropTable("payment_providers").execute();
  await db.schema.alterTable("payment_methods").dropColumn("kind").execute();
}
