import { orderColumns } from "~/domain/orders/order-rows.server";
import type { Db } from "~/db/transaction";
import type { DocumentViewTools } from "~/domain/invoices/invoices";
import { documentPdf } from "~/domain/invoices/document-pdf.server";
import { OPTIONAL_MAIL_KINDS } from "~/domain/mail/mail";
import { zipArchive, type ZipEntry } from "~/lib/zip-writer.server";
import {
  ARCHIVE_DOCUMENTS_FOLDER,
  ARCHIVE_FILES,
  archiveMoney,
  archiveReadme,
  type ReadmeTranslate,
} from "./data-exports";

// What a customer's archive holds (docs/self-service.md#a-customers-data): everything the shop keeps
// about them, as JSON files a person or a program can read, their documents as the PDFs the site
// serves, and a README in their language. Left out on purpose: what opens the account (the password's
// hash, the two-factor secret and backup codes, session tokens, links' tokens), the staff's notes on the
// account and its services, and the bytes of the files sent with top-up requests (named, with their
// size: the request's page has them).

/** The customer's language as the archive is written in it: the README's words and the PDFs'. */
export interface DataExportTexts {
  locale: string;
  direction: "ltr" | "rtl";
  timeZone: string;
  siteName: string;
  readme: ReadmeTranslate;
  documents: DocumentViewTools;
}

/** A moment as the archive writes it: ISO 8601 in UTC, whatever the dialect handed back. */
const iso = (at: string | null) => (at === null ? null : new Date(at).toISOString());
const flag = (value: boolean | number | null) => value === true || value === 1;
/** A JSON column's value, or what it holds as text when it does not parse. */
function parsed(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

async function accountFile(db: Db, userId: string, now: Date) {
  const user = await db
    .selectFrom("users")
    .select([
      "id",
      "name",
      "email",
      "email_verified",
      "pending_email",
      "role",
      "status",
      "locale",
      "coin_balance_cents",
      "two_factor_enabled",
      "billing_name",
      "billing_address",
      "billing_country",
      "created_at",
      "updated_at",
    ])
    .where("id", "=", userId)
    .executeTakeFirstOrThrow();
  const [optOuts, sessions, attempts, notifications, deletions, newsletter] = await Promise.all([
    db.selectFrom("mail_opt_outs").select("kind").where("user_id", "=", userId).execute(),
    db
      .selectFrom("sessions")
      .select(["created_at", "updated_at", "expires_at", "ip_address", "user_agent"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("login_attempts")
      .select(["created_at", "ip_address", "succeeded"])
      .where("email", "=", user.email)
      .orderBy("created_at")
      .execute(),
    db
      .selectFrom("notifications")
      .select(["kind", "params", "link", "created_at", "read_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("account_deletion_requests")
      .select(["status", "requested_at", "decided_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("newsletter_subscribers")
      .select("created_at")
      .where("email", "=", user.email)
      .executeTakeFirst(),
  ]);
  const turnedOff = new Set(optOuts.map((row) => row.kind));
  return {
    exportedAt: now.toISOString(),
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: flag(user.email_verified),
      emailChangeWaiting: user.pending_email,
      role: user.role,
      status: user.status,
      language: user.locale,
      twoFactorSignIn: flag(user.two_factor_enabled),
      createdAt: iso(user.created_at),
      updatedAt: iso(user.updated_at),
    },
    coinBalance: archiveMoney(user.coin_balance_cents),
    billingDetails: {
      name: user.billing_name,
      address: user.billing_address,
      country: user.billing_country,
    },
    mailPreferences: {
      received: OPTIONAL_MAIL_KINDS.filter((kind) => !turnedOff.has(kind)),
      turnedOff: OPTIONAL_MAIL_KINDS.filter((kind) => turnedOff.has(kind)),
    },
    newsletter: newsletter ? { subscribedAt: iso(newsletter.created_at) } : null,
    sessions: sessions.map((row) => ({
      signedInAt: iso(row.created_at),
      lastSeenAt: iso(row.updated_at),
      expiresAt: iso(row.expires_at),
      ipAddress: row.ip_address,
      browser: row.user_agent,
    })),
    signInAttempts: attempts.map((row) => ({
      at: iso(row.created_at),
      ipAddress: row.ip_address,
      succeeded: flag(row.succeeded),
    })),
    notifications: notifications.map((row) => ({
      kind: row.kind,
      values: parsed(row.params),
      link: row.link,
      createdAt: iso(row.created_at),
      readAt: iso(row.read_at),
    })),
    deletionRequests: deletions.map((row) => ({
      status: row.status,
      requestedAt: iso(row.requested_at),
      decidedAt: iso(row.decided_at),
    })),
  };
}

async function ordersFile(db: Db, userId: string) {
  const orders = await db
    .selectFrom("orders")
    .select([...orderColumns, "auto_renew"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return orders.map((row) => ({
    id: Number(row.id),
    product: row.product_name,
    type: row.product_type,
    billingCycle: row.billing_cycle,
    serverName: row.server_name,
    location: row.location,
    ddosProtection: flag(row.ddos_protection),
    playerSlots: row.player_slots,
    backup: row.backup,
    voucher: row.voucher_code,
    monthlyPrice: archiveMoney(row.monthly_price_cents),
    subtotal: archiveMoney(row.subtotal_cents),
    discount: archiveMoney(row.discount_cents),
    total: archiveMoney(row.total_cents),
    paidWithCoins: flag(row.paid_with_coins),
    automaticRenewal: flag(row.auto_renew),
    status: row.status,
    rejectReason: row.reject_reason,
    decidedAt: iso(row.decided_at),
    serviceId: row.hosting_service_id === null ? null : Number(row.hosting_service_id),
    placedAt: iso(row.created_at),
  }));
}

async function servicesFile(db: Db, userId: string) {
  const [services, renewals] = await Promise.all([
    db
      .selectFrom("hosting_services")
      .select([
        "id",
        "name",
        "server_name",
        "type",
        "billing_cycle",
        "monthly_price_cents",
        "cycle_price_cents",
        "status",
        "expires_at",
        "auto_renew",
        "suspension_reason",
        "suspended_at",
        "panel_address",
        "panel_ports",
        "offline_notice",
        "created_at",
      ])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("service_renewals")
      .select([
        "hosting_service_id",
        "amount_cents",
        "previous_expires_at",
        "new_expires_at",
        "created_at",
      ])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
  ]);
  return services.map((row) => ({
    id: Number(row.id),
    name: row.name,
    serverName: row.server_name,
    type: row.type,
    billingCycle: row.billing_cycle,
    monthlyPrice: archiveMoney(row.monthly_price_cents),
    cyclePrice: archiveMoney(row.cycle_price_cents),
    status: row.status,
    expiresAt: iso(row.expires_at),
    automaticRenewal: flag(row.auto_renew),
    suspensionReason: row.suspension_reason,
    suspendedAt: iso(row.suspended_at),
    address: row.panel_address,
    ports: parsed(row.panel_ports),
    offlineNotice: flag(row.offline_notice),
    createdAt: iso(row.created_at),
    renewals: renewals
      .filter((renewal) => Number(renewal.hosting_service_id) === Number(row.id))
      .map((renewal) => ({
        at: iso(renewal.created_at),
        amount: archiveMoney(renewal.amount_cents),
        expiryBefore: iso(renewal.previous_expires_at),
        expiryAfter: iso(renewal.new_expires_at),
      })),
  }));
}

async function coinsFile(db: Db, userId: string) {
  const entries = await db
    .selectFrom("coin_ledger")
    .select([
      "id",
      "kind",
      "amount_cents",
      "balance_after_cents",
      "reason",
      "order_id",
      "hosting_service_id",
      "created_at",
    ])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  return entries.map((row) => ({
    id: Number(row.id),
    at: iso(row.created_at),
    kind: row.kind,
    amount: archiveMoney(row.amount_cents),
    balanceAfter: archiveMoney(row.balance_after_cents),
    reason: row.reason,
    orderId: row.order_id === null ? null : Number(row.order_id),
    serviceId: row.hosting_service_id === null ? null : Number(row.hosting_service_id),
  }));
}

async function ticketsFile(db: Db, userId: string) {
  const tickets = await db
    .selectFrom("tickets")
    .select([
      "id",
      "subject",
      "department",
      "priority",
      "status",
      "hosting_service_id",
      "created_at",
      "updated_at",
    ])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  const messages =
    tickets.length === 0
      ? []
      : await db
          .selectFrom("ticket_messages")
          .leftJoin("users as author", "author.id", "ticket_messages.author_id")
          .select([
            "ticket_messages.ticket_id",
            "ticket_messages.is_staff",
            "ticket_messages.body",
            "ticket_messages.created_at",
            "author.name as author_name",
          ])
          .where(
            "ticket_messages.ticket_id",
            "in",
            tickets.map((ticket) => ticket.id),
          )
          // The staff's internal notes are theirs: the customer never reads them, here neither.
          .where("ticket_messages.internal", "=", 0)
          .orderBy("ticket_messages.id")
          .execute();
  return tickets.map((ticket) => ({
    id: Number(ticket.id),
    subject: ticket.subject,
    department: ticket.department,
    priority: ticket.priority,
    status: ticket.status,
    serviceId: ticket.hosting_service_id === null ? null : Number(ticket.hosting_service_id),
    openedAt: iso(ticket.created_at),
    updatedAt: iso(ticket.updated_at),
    messages: messages
      .filter((message) => Number(message.ticket_id) === Number(ticket.id))
      .map((message) => ({
        at: iso(message.created_at),
        from: flag(message.is_staff) ? "staff" : "you",
        // The staff member's name as the ticket's page shows it; the customer's own is in account.json.
        ...(flag(message.is_staff) ? { author: message.author_name } : {}),
        text: message.body,
      })),
  }));
}

async function topUpsFile(db: Db, userId: string) {
  const [requests, proofs, payments] = await Promise.all([
    db
      .selectFrom("top_up_requests")
      .innerJoin("payment_methods", "payment_methods.id", "top_up_requests.payment_method_id")
      .select([
        "top_up_requests.id",
        "top_up_requests.reference",
        "payment_methods.code as method",
        "top_up_requests.coins",
        "top_up_requests.currency",
        "top_up_requests.amount",
        "top_up_requests.fee",
        "top_up_requests.total",
        "top_up_requests.credit_cents",
        "top_up_requests.payer_account",
        "top_up_requests.paid_on",
        "top_up_requests.state",
        "top_up_requests.credited_coins",
        "top_up_requests.reject_reason",
        "top_up_requests.decided_at",
        "top_up_requests.created_at",
      ])
      .where("top_up_requests.user_id", "=", userId)
      .orderBy("top_up_requests.id")
      .execute(),
    db
      .selectFrom("top_up_proofs")
      .select(["top_up_request_id", "file_name", "content_type", "byte_size", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("id")
      .execute(),
    db
      .selectFrom("online_payments")
      .select([
        "top_up_request_id",
        "provider",
        "state",
        "amount",
        "currency",
        "refunded_amount",
        "created_at",
        "settled_at",
      ])
      .where("user_id", "=", userId)
      .execute(),
  ]);
  /** An amount in the minor units of the request's currency (centimes for MAD). */
  const minor = (amount: number, currency: string) => ({ minorUnits: amount, currency });
  return requests.map((row) => {
    const id = Number(row.id);
    const payment = payments.find((each) => Number(each.top_up_request_id) === id);
    return {
      id,
      reference: row.reference,
      method: row.method,
      coins: row.coins,
      amount: minor(row.amount, row.currency),
      fee: minor(row.fee, row.currency),
      total: minor(row.total, row.currency),
      credit: archiveMoney(row.credit_cents),
      payerAccount: row.payer_account,
      paidOn: row.paid_on,
      state: row.state,
      creditedCoins: row.credited_coins,
      rejectReason: row.reject_reason,
      decidedAt: iso(row.decided_at),
      askedAt: iso(row.created_at),
      proofs: proofs
        .filter((proof) => Number(proof.top_up_request_id) === id)
        .map((proof) => ({
          fileName: proof.file_name,
          type: proof.content_type,
          bytes: proof.byte_size,
          sentAt: iso(proof.created_at),
        })),
      onlinePayment: payment
        ? {
            provider: payment.provider,
            state: payment.state,
            amount: minor(payment.amount, payment.currency),
            refunded: minor(payment.refunded_amount, payment.currency),
            startedAt: iso(payment.created_at),
            settledAt: iso(payment.settled_at),
          }
        : null,
    };
  });
}

/** The customer's documents: the list, and each one's PDF in their language. */
async function documentFiles(db: Db, userId: string, texts: DataExportTexts) {
  const documents = await db
    .selectFrom("invoices")
    .select(["number", "kind", "state", "total_cents", "issued_at"])
    .where("user_id", "=", userId)
    .orderBy("id")
    .execute();
  const pdfs: ZipEntry[] = [];
  // One at a time: a PDF's layout holds its fonts in memory while it is made.
  for (const document of documents) {
    const file = await documentPdf(db, {
      number: document.number,
      reader: { userId, isAdmin: false },
      locale: texts.locale,
      direction: texts.direction,
      tools: texts.documents,
    });
    if (file) pdfs.push({ name: `${ARCHIVE_DOCUMENTS_FOLDER}/${file.filename}`, data: file.bytes });
  }
  const list = documents.map((document) => ({
    number: document.number,
    kind: document.kind,
    state: document.state,
    total: archiveMoney(document.total_cents),
    issuedAt: iso(document.issued_at),
    file: `${ARCHIVE_DOCUMENTS_FOLDER}/${document.number}.pdf`,
  }));
  return { list, pdfs };
}

/**
 * The archive of everything the shop holds about `userId`, as of `now`, in the language of `texts`: a
 * ZIP of the README, the JSON files and the documents' PDFs.
 */
export async function buildDataArchive(
  db: Db,
  { userId, now, texts }: { userId: string; now: Date; texts: DataExportTexts },
): Promise<Buffer> {
  const account = await accountFile(db, userId, now);
  const [orders, services, coins, tickets, topUps] = await Promise.all([
    ordersFile(db, userId),
    servicesFile(db, userId),
    coinsFile(db, userId),
    ticketsFile(db, userId),
    topUpsFile(db, userId),
  ]);
  const documents = await documentFiles(db, userId, texts);
  const readme = archiveReadme(texts.readme, {
    siteName: texts.siteName,
    name: account.profile.name,
    email: account.profile.email,
    madeAt: now.toISOString(),
    locale: texts.locale,
    timeZone: texts.timeZone,
    documents: documents.pdfs.length,
  });
  return zipArchive(
    [
      { name: ARCHIVE_FILES.readme, data: readme },
      { name: ARCHIVE_FILES.account, data: json(account) },
      { name: ARCHIVE_FILES.orders, data: json(orders) },
      { name: ARCHIVE_FILES.services, data: json(services) },
      { name: ARCHIVE_FILES.coins, data: json(coins) },
      { name: ARCHIVE_FILES.tickets, data: json(tickets) },
      { name: ARCHIVE_FILES.topUps, data: json(topUps) },
      { name: ARCHIVE_FILES.documents, data: json(documents.list) },
      ...documents.pdfs,
    ],
    { modifiedAt: now },
  );
}
