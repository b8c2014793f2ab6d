import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { panelBaseUrl } from "~/domain/provisioning/panel-address";
import type { Db, Tx } from "~/db/transaction";
import {
  PAYMENT_PROVIDERS,
  type ProviderCode,
  type ProviderConfig,
  type ProviderMode,
} from "./provider";

// A provider's connection as stored in `payment_providers` (ADR 55): the secret is encrypted with the
// auth secret together with the API address it was saved for, as the game panel's key is, so a changed
// address without the secret typed again sends the secret nowhere.

/** What is encrypted: the secret and the address it may be sent to. */
interface BoundSecret {
  url: string;
  secret: string;
}

/** The secret bound to `apiUrl` (already made a base address by `panelBaseUrl`), encrypted. */
export async function encryptProviderSecret(
  apiUrl: string,
  secret: string,
  authSecret: string,
): Promise<string> {
  const bound: BoundSecret = { url: apiUrl, secret };
  return symmetricEncrypt({ key: authSecret, data: JSON.stringify(bound) });
}

/** Why a provider cannot be used: each is the admin's to fix on /admin/gateways. */
export type ProviderConfigProblem =
  /** No row, or no secret saved yet. */
  | "notConfigured"
  /** The secret cannot be decrypted with this auth secret (a database restored without it). */
  | "keyUnreadable"
  /** The secret was saved for another address (the row edited by hand). */
  | "keyNotForUrl";

export type ProviderConfigRead =
  { ok: true; config: ProviderConfig } | { ok: false; problem: ProviderConfigProblem };

export function isProviderCode(value: string): value is ProviderCode {
  return (PAYMENT_PROVIDERS as readonly string[]).includes(value);
}

/** The provider's connection with its secret decrypted: for the server's calls to it, never a page. */
export async function readProviderConfig(
  db: Db | Tx,
  provider: ProviderCode,
  { secret: authSecret }: { secret: string },
): Promise<ProviderConfigRead> {
  const row = await db
    .selectFrom("payment_providers")
    .selectAll()
    .where("provider", "=", provider)
    .executeTakeFirst();
  if (!row?.secret_encrypted) return { ok: false, problem: "notConfigured" };
  let decrypted: string;
  try {
    decrypted = await symmetricDecrypt({ key: authSecret, data: row.secret_encrypted });
  } catch {
    return { ok: false, problem: "keyUnreadable" };
  }
  if (!decrypted) return { ok: false, problem: "keyUnreadable" };
  let bound: Partial<BoundSecret> | null;
  try {
    bound = JSON.parse(decrypted) as Partial<BoundSecret> | null;
  } catch {
    return { ok: false, problem: "keyNotForUrl" };
  }
  const url = panelBaseUrl(row.api_url);
  if (!bound || typeof bound.secret !== "string" || !bound.secret || bound.url !== url || !url)
    return { ok: false, problem: "keyNotForUrl" };
  return {
    ok: true,
    config: {
      provider,
      mode: row.mode as ProviderMode,
      apiUrl: url,
      publicId: row.public_id,
      secret: bound.secret,
      webhookId: row.webhook_id,
    },
  };
}
