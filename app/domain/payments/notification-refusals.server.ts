import { sql } from "kysely";
import type { Db, Tx } from "~/db/transaction";
import { isProviderCode } from "./providers/provider-config.server";

// The notifications a provider's webhook refuses before anything is kept (docs/online-payments.md): a
// body over the size limit and a replay of an event already had. Each is counted on one row per
// provider, reason and key (migration 0049), so a flood moves a count, never adds rows.

export type NotificationRefusalReason = "tooLarge" | "replay";

/**
 * Counts one refusal at `now`: the row of (provider, reason, key) made, or its count raised and its last
 * sighting and size updated. A provider we do not have is not recorded (its name is the caller's: a
 * flood of made-up names must not make rows). The key is cut to a length a provider's id never passes.
 */
export async function recordNotificationRefusal(
  db: Db | Tx,
  input: {
    provider: string;
    reason: NotificationRefusalReason;
    key?: string;
    bytes?: number | null;
    now?: Date;
  },
): Promise<void> {
  if (!isProviderCode(input.provider)) return;
  const at = (input.now ?? new Date()).toISOString();
  const bytes =
    input.bytes !== undefined && input.bytes !== null && Number.isSafeInteger(input.bytes)
      ? input.bytes
      : null;
  await db
    .insertInto("provider_notification_refusals")
    .values({
      provider: input.provider,
      reason: input.reason,
      key: (input.key ?? "").slice(0, 200),
      bytes,
      count: 1,
      first_seen_at: at,
      last_seen_at: at,
    })
    .onConflict((oc) =>
      oc.columns(["provider", "reason", "key"]).doUpdateSet({
        count: sql`provider_notification_refusals.count + 1`,
        last_seen_at: at,
        bytes: (eb) =>
          eb.fn.coalesce(eb.val(bytes), eb.ref("provider_notification_refusals.bytes")),
      }),
    )
    .execute();
}

/**
 * The provider a webhook's address names (`/hooks/payments/<provider>`, spelled any way the router
 * takes it: another case, a trailing slash, `.data`), or null.
 */
export function webhookProviderOf(path: string): string | null {
  const match = /^\/hooks\/payments\/([^/?#]+?)(?:\.data)?\/?(?:[?#]|$)/i.exec(path);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]!).toLowerCase();
  } catch {
    return null;
  }
}
