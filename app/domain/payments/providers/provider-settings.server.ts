import type { Db } from "~/db/transaction";
import { inTransaction } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { panelAddressRefused, panelBaseUrl } from "~/domain/provisioning/panel-address";
import { getSettings } from "~/domain/settings/settings.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import { PAYMENT_PROVIDERS, type ProviderCode, type ProviderMode } from "./provider";
import { encryptProviderSecret } from "./provider-config.server";
import {
  defaultProviderUrl,
  providerWebhookPath,
  REFUSED_NOTIFICATIONS_PAGE_SIZE,
  REFUSED_OUTCOMES,
  type ProviderSettingsField,
  type ProviderSettingsProblem,
  type ProviderSettingsRef,
  type ProviderSettingsView,
  type CountedRefusal,
  type CountedRefusalEntry,
  type RefusedListEntry,
  type RefusedNotification,
  type RefusedOutcome,
} from "./provider-settings";

// The online providers' connections as the admin saves them on /admin/gateways (docs/payments.md
// "Online providers"), following the game panel's (panel-connection.server.ts): the secret encrypted
// with the auth secret together with the address it was saved for, never read back (the page shows its
// last four characters), an empty secret keeps the saved one, and a new address needs the secret typed
// again, so a stolen admin session cannot send the saved secret elsewhere by changing the address alone.

/** What the admin's form saves for one provider. */
export interface ProviderSettingsInput {
  provider: ProviderCode;
  mode: ProviderMode;
  /** Empty: the documented address of `mode` (PROVIDER_API_URLS). */
  apiUrl: string;
  publicId: string;
  /** Null keeps the saved secret. */
  secret: string | null;
  /** PayPal's webhook id; ignored for YouCan Pay. */
  webhookId: string;
  actorId: string;
}

export type SaveProviderSettingsResult =
  | { ok: true; settings: Omit<ProviderSettingsView, "webhookUrl"> }
  | { ok: false; kind: "invalid"; field: ProviderSettingsField; error: ProviderSettingsProblem }
  /** The actor's role does not manage payments (`gateways.manage`): said beside the secret. */
  | (StaffForbidden & { field: "secret" });

const refusal = (field: ProviderSettingsField, error: ProviderSettingsProblem) => ({
  ok: false as const,
  kind: "invalid" as const,
  field,
  error,
});

/**
 * Saves one provider's mode, API address, public identifier, secret (left as it is when null) and
 * PayPal's webhook id; recorded as `paymentProvider.saved` without the secret. Refused, each on its
 * field: an address that is not http(s) (or has credentials, a query or a fragment); one on the local
 * network while the setting payments.allowLocalNetwork is off; PayPal without its client id or webhook
 * id; no secret on the first save; and a new address (another mode's default included) without the secret
 * typed again. The actor is a member of the staff whose role holds `gateways.manage`, checked in the
 * transaction that saves.
 */
export async function saveProviderSettings(
  db: Db,
  input: ProviderSettingsInput,
  { secret: authSecret }: { secret: string },
): Promise<SaveProviderSettingsResult> {
  const url = panelBaseUrl(input.apiUrl.trim() || defaultProviderUrl(input.provider, input.mode));
  if (!url) return refusal("apiUrl", "payments.providers.errors.urlInvalid");
  const paypal = input.provider === "paypal";
  const publicId = input.publicId.trim();
  const webhookId = paypal ? input.webhookId.trim() : "";
  if (paypal && !publicId) return refusal("publicId", "payments.providers.errors.publicIdRequired");
  if (paypal && !webhookId)
    return refusal("webhookId", "payments.providers.errors.webhookIdRequired");
  const encrypted = input.secret
    ? await encryptProviderSecret(url, input.secret, authSecret)
    : null;
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "gateways.manage", {
      about: { field: "secret" },
    });
    const before = await trx
      .selectFrom("payment_providers")
      .select(["mode", "api_url", "public_id", "secret_encrypted", "secret_last4", "webhook_id"])
      .where("provider", "=", input.provider)
      .executeTakeFirst();
    const { payments } = await getSettings(trx);
    if (panelAddressRefused(url, payments.allowLocalNetwork))
      return refusal("apiUrl", "payments.providers.errors.urlLocal");
    const saved = before?.secret_encrypted ? before : undefined;
    if (!saved && !encrypted) return refusal("secret", "payments.providers.errors.secretRequired");
    if (saved && !encrypted && panelBaseUrl(saved.api_url) !== url)
      return refusal("secret", "payments.providers.errors.secretForNewUrl");
    const now = new Date().toISOString();
    const secret = encrypted
      ? { secret_encrypted: encrypted, secret_last4: input.secret!.slice(-4) }
      : {};
    const values = {
      mode: input.mode,
      api_url: url,
      public_id: publicId,
      webhook_id: webhookId,
      updated_by: input.actorId,
      updated_at: now,
      ...secret,
    };
    if (before)
      await trx
        .updateTable("payment_providers")
        .set(values)
        .where("provider", "=", input.provider)
        .execute();
    else
      await trx
        .insertInto("payment_providers")
        .values({ provider: input.provider, ...values })
        .execute();
    const secretLast4 = secret.secret_last4 ?? before?.secret_last4 ?? null;
    const after: ProviderSettingsRef = {
      mode: input.mode,
      apiUrl: url,
      publicId,
      webhookId,
      secretLast4,
    };
    await record(trx, {
      type: "paymentProvider.saved",
      actorId: input.actorId,
      provider: input.provider,
      change: {
        before: before
          ? {
              mode: before.mode,
              apiUrl: before.api_url,
              publicId: before.public_id,
              webhookId: before.webhook_id,
              secretLast4: before.secret_last4,
            }
          : null,
        after,
      },
    });
    return {
      ok: true as const,
      settings: {
        provider: input.provider,
        mode: input.mode,
        apiUrl: url,
        publicId,
        secretLast4,
        webhookId,
        configured: true,
        updatedAt: now,
      },
    };
  });
}

/**
 * Each provider's connection as the admin's page shows it, never the secret (its last four characters),
 * with the address of this site's webhook for it (`publicUrl`: the site's public origin, PUBLIC_URL). A
 * provider nothing was saved for shows the sandbox and its documented address.
 */
export async function readProviderSettings(
  db: Db,
  { publicUrl }: { publicUrl: string },
): Promise<ProviderSettingsView[]> {
  const rows = await db
    .selectFrom("payment_providers")
    .select([
      "provider",
      "mode",
      "api_url",
      "public_id",
      "secret_encrypted",
      "secret_last4",
      "webhook_id",
      "updated_at",
    ])
    .execute();
  const origin = publicUrl.replace(/\/+$/, "");
  return PAYMENT_PROVIDERS.map((provider) => {
    const row = rows.find((found) => found.provider === provider);
    const configured = Boolean(row?.secret_encrypted);
    return {
      provider,
      // A CHECK keeps it one of the two.
      mode: (row?.mode ?? "sandbox") as ProviderMode,
      apiUrl: row?.api_url ?? defaultProviderUrl(provider, "sandbox"),
      publicId: row?.public_id ?? "",
      secretLast4: configured ? (row?.secret_last4 ?? "") : null,
      webhookId: row?.webhook_id ?? "",
      configured,
      updatedAt: row?.updated_at ?? null,
      webhookUrl: `${origin}${providerWebhookPath(provider)}`,
    };
  });
}

/**
 * The notifications the providers sent that were refused (a bad signature, an unknown payment, an amount
 * or currency that differs), and beside them the ones refused before anything was kept (a body over the
 * size limit, a replay: counted, by when last seen), newest first, `REFUSED_NOTIFICATIONS_PAGE_SIZE` a
 * page; `hasMore` says whether another page follows. Each source is read up to the page's end, and
 * the two merged.
 */
export async function listRefusedNotifications(
  db: Db,
  { page }: { page: number },
): Promise<{ notifications: RefusedListEntry[]; page: number; hasMore: boolean }> {
  const end = page * REFUSED_NOTIFICATIONS_PAGE_SIZE;
  const [rows, counted] = await Promise.all([
    db
      .selectFrom("provider_notifications")
      .select(["id", "provider", "event_type", "outcome", "detail", "received_at"])
      .where("outcome", "in", [...REFUSED_OUTCOMES])
      .orderBy("received_at", "desc")
      .orderBy("id", "desc")
      .limit(end + 1)
      .execute(),
    db
      .selectFrom("provider_notification_refusals")
      .selectAll()
      .orderBy("last_seen_at", "desc")
      .orderBy("id", "desc")
      .limit(end + 1)
      .execute(),
  ]);
  const entries: RefusedListEntry[] = [
    ...rows.map((row): RefusedNotification => ({
      id: Number(row.id),
      provider: row.provider as ProviderCode,
      eventType: row.event_type,
      outcome: row.outcome as RefusedOutcome,
      detail: row.detail,
      receivedAt: row.received_at,
    })),
    ...counted.map((row): CountedRefusalEntry => ({
      id: Number(row.id),
      provider: row.provider as ProviderCode,
      outcome: row.reason as CountedRefusal,
      eventId: row.key,
      bytes: row.bytes === null ? null : Number(row.bytes),
      count: Number(row.count),
      firstSeenAt: row.first_seen_at,
      receivedAt: row.last_seen_at,
    })),
  ];
  // Newest first; at the same moment, the later row first (as each source orders its own).
  entries.sort((a, b) => b.receivedAt.localeCompare(a.receivedAt) || b.id - a.id);
  const start = (page - 1) * REFUSED_NOTIFICATIONS_PAGE_SIZE;
  return {
    notifications: entries.slice(start, end),
    page,
    hasMore: entries.length > end,
  };
}

/**
 * What /admin/gateways shows beside the methods: each provider's connection and a page of the refused
 * notifications.
 */
export async function loadProviderSections(
  db: Db,
  { publicUrl, refusedPage }: { publicUrl: string; refusedPage: number },
) {
  const [providers, refused] = await Promise.all([
    readProviderSettings(db, { publicUrl }),
    listRefusedNotifications(db, { page: refusedPage }),
  ]);
  return { providers, refused };
}
