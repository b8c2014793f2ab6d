import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import type { Db } from "~/db/transaction";
import { inTransaction } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { getSettings } from "~/domain/settings/settings.server";
import { requireStaffPermission, type StaffForbidden } from "~/domain/staff/staff-actor.server";
import { panelAddressRefused, panelBaseUrl } from "./panel-address";
import {
  parseFailure,
  parseLocationMap,
  parseSnapshot,
  type LocationMap,
  type PanelCheckView,
  type PanelConnectionView,
  type PanelSnapshot,
} from "./panel-connection";
import { createPanelClientApi, type PanelClientApi } from "./pterodactyl-client-api.server";
import {
  createPanelClient,
  PanelAddressRefused,
  PanelError,
  PanelUnreachable,
  type PanelCall,
  type PanelClient,
} from "./pterodactyl-client.server";

// The one game panel (docs/provisioning.md "The connection"). The Application API key is
// encrypted with the auth secret, as better-auth keeps two-factor secrets: a copy of the
// database alone does not give the key away. It is never sent back to a browser: the page shows its
// last four characters. It is encrypted together with the address it was saved for, and a client is
// made only when that address is the row's: a key goes to no other address, however the row's
// changed (a save without the key typed again is refused; a row edited by hand reads as no key).
// The optional Client API key (a root admin's, docs/server-control.md) follows the same rules: the
// worker alone reads servers' states and sends their power signals with it.

export const PANEL_CHECK_JOB = "provisioning.check";

export async function readPanelConnection(
  db: Db,
): Promise<(PanelConnectionView & { check: PanelCheckView }) | null> {
  const row = await db
    .selectFrom("panel_connections")
    .select([
      "url",
      "api_key_last4",
      "client_key_last4",
      "location_map",
      "updated_at",
      "snapshot",
      "checked_at",
      "check_error",
      "check_requested_at",
    ])
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    url: row.url,
    keyLast4: row.api_key_last4,
    clientKeyLast4: row.client_key_last4,
    locationMap: parseLocationMap(row.location_map),
    updatedAt: row.updated_at,
    check: {
      snapshot: parseSnapshot(row.snapshot),
      checkedAt: row.checked_at,
      error: parseFailure(row.check_error),
      pending:
        row.check_requested_at !== null &&
        (row.checked_at === null || row.checked_at < row.check_requested_at),
    },
  };
}

/**
 * The connected panel's address (what its customers sign in at), or null when none is connected: the
 * site's footer links there (read through the settings cache, `AppServices.settings.panelUrl`).
 */
export async function readPanelAddress(db: Db): Promise<string | null> {
  const row = await db
    .selectFrom("panel_connections")
    .select("url")
    .where("id", "=", 1)
    .executeTakeFirst();
  return row ? panelBaseUrl(row.url) : null;
}

/** The last check's snapshot alone (the product editor, the order form's capacity check). */
export async function readPanelSnapshot(db: Db): Promise<PanelSnapshot | null> {
  const row = await db
    .selectFrom("panel_connections")
    .select("snapshot")
    .where("id", "=", 1)
    .executeTakeFirst();
  return parseSnapshot(row?.snapshot ?? null);
}

export type RequestCheckResult =
  { ok: true } | { ok: false; kind: "invalid"; error: "provisioning.errors.notConnected" };

/**
 * "Check connection": a job reads the panel (the request never waits on it) and the page shows what it
 * found once it has run, within a second or two on a running worker.
 */
export async function requestPanelCheck(
  db: Db,
  { now = new Date() }: { now?: Date } = {},
): Promise<RequestCheckResult> {
  return inTransaction(db, async (trx) => {
    const updated = await trx
      .updateTable("panel_connections")
      .set({ check_requested_at: now.toISOString() })
      .where("id", "=", 1)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      return {
        ok: false as const,
        kind: "invalid" as const,
        error: "provisioning.errors.notConnected" as const,
      };
    await enqueueJob(trx, { type: PANEL_CHECK_JOB, uniqueKey: "panel:check", now });
    return { ok: true as const };
  });
}

/** The check job's work: read everything the pages need from the panel, or say why it could not. */
export async function runPanelCheck(
  db: Db,
  settings: PanelClientSettings,
  now: Date,
): Promise<{ ok: boolean; connected: boolean }> {
  let snapshot: PanelSnapshot | null = null;
  let failure: string | null = null;
  try {
    const found = await panelClientFor(db, settings);
    if (!found) return { ok: false, connected: false };
    const { client } = found;
    const [locations, nodes, nests] = await Promise.all([
      client.listLocations(),
      client.listNodes(),
      client.listNests(),
    ]);
    const withEggs = [];
    for (const nest of nests) withEggs.push({ ...nest, eggs: await client.listEggs(nest.id) });
    snapshot = { locations, nodes, nests: withEggs };
  } catch (error) {
    const { error: key, detail } = connectionFailure(error);
    failure = detail ? `${key}|${detail}` : key;
  }
  await db
    .updateTable("panel_connections")
    .set({
      checked_at: now.toISOString(),
      check_error: failure,
      ...(snapshot ? { snapshot: JSON.stringify(snapshot) } : {}),
    })
    .where("id", "=", 1)
    .execute();
  return { ok: failure === null, connected: true };
}

export type SavePanelConnectionResult =
  | { ok: true; connection: PanelConnectionView }
  | {
      ok: false;
      kind: "invalid";
      field: "apiKey";
      error: "provisioning.errors.keyRequired" | "provisioning.errors.keyForNewUrl";
    }
  | {
      ok: false;
      kind: "invalid";
      field: "clientKey";
      error: "provisioning.errors.clientKeyForNewUrl";
    }
  | {
      ok: false;
      kind: "invalid";
      field: "url";
      error: "provisioning.errors.urlInvalid" | "provisioning.errors.urlLocal";
    }
  /** The actor's role does not manage the panel (`panel.manage`): said beside the key. */
  | (StaffForbidden & { field: "apiKey" });

/** What is encrypted: the key and the address (panelBaseUrl) it may be sent to. */
interface BoundKey {
  url: string;
  key: string;
}

const refusal = <F extends "apiKey" | "clientKey" | "url", E extends string>(
  field: F,
  error: E,
) => ({
  ok: false as const,
  kind: "invalid" as const,
  field,
  error,
});

/** A key and the address it may be sent to, encrypted together (null when no key was typed). */
async function encryptBound(secret: string, url: string, key: string | null) {
  if (!key) return null;
  const bound: BoundKey = { url, key };
  return symmetricEncrypt({ key: secret, data: JSON.stringify(bound) });
}

/**
 * Saves the panel's address, its key (left as it is when `apiKey` is null: the form never shows the
 * saved one), the optional Client API key (the same: null keeps the saved one, if any) and the location
 * map. Audited without the keys. Refused: an address on the local network while the setting
 * gamePanel.allowLocalNetwork is off, and a new address (another scheme, host, port or path) without
 * each saved key typed again: a saved key is only ever sent to the address it was saved with, so a
 * stolen admin session cannot send it elsewhere by changing the address alone. A client key that is not
 * wanted at the new address is removed first (`removePanelClientKey`). The actor is a member of the
 * staff whose role holds `panel.manage`, checked in the transaction that saves.
 */
export async function savePanelConnection(
  db: Db,
  input: {
    url: string;
    apiKey: string | null;
    clientKey?: string | null;
    locationMap: LocationMap;
    actorId: string;
  },
  { secret }: { secret: string },
): Promise<SavePanelConnectionResult> {
  const url = panelBaseUrl(input.url);
  if (!url) return refusal("url", "provisioning.errors.urlInvalid");
  const encrypted = await encryptBound(secret, url, input.apiKey);
  const clientKey = input.clientKey ?? null;
  const clientEncrypted = await encryptBound(secret, url, clientKey);
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "panel.manage", {
      about: { field: "apiKey" },
    });
    const before = await trx
      .selectFrom("panel_connections")
      .select(["url", "api_key_last4", "client_key_encrypted", "client_key_last4", "location_map"])
      .where("id", "=", 1)
      .executeTakeFirst();
    const { gamePanel } = await getSettings(trx);
    if (panelAddressRefused(url, gamePanel.allowLocalNetwork))
      return refusal("url", "provisioning.errors.urlLocal");
    if (!before && !encrypted) return refusal("apiKey", "provisioning.errors.keyRequired");
    const moved = before !== undefined && panelBaseUrl(before.url) !== url;
    if (moved && !encrypted) return refusal("apiKey", "provisioning.errors.keyForNewUrl");
    if (moved && before.client_key_encrypted && !clientEncrypted)
      return refusal("clientKey", "provisioning.errors.clientKeyForNewUrl");
    const now = new Date().toISOString();
    const key = encrypted
      ? { api_key_encrypted: encrypted, api_key_last4: input.apiKey!.slice(-4) }
      : {};
    const client = clientEncrypted
      ? { client_key_encrypted: clientEncrypted, client_key_last4: clientKey!.slice(-4) }
      : {};
    const values = {
      url,
      location_map: JSON.stringify(input.locationMap),
      updated_by: input.actorId,
      updated_at: now,
      ...key,
      ...client,
    };
    if (before)
      await trx.updateTable("panel_connections").set(values).where("id", "=", 1).execute();
    else
      await trx
        .insertInto("panel_connections")
        .values({ id: 1, api_key_encrypted: "", api_key_last4: "", ...values })
        .execute();
    const clientKeyLast4 = client.client_key_last4 ?? before?.client_key_last4 ?? null;
    await record(trx, {
      type: "panel.connectionSaved",
      actorId: input.actorId,
      change: {
        before: before
          ? {
              url: before.url,
              keyLast4: before.api_key_last4,
              clientKeyLast4: before.client_key_last4,
            }
          : null,
        after: { url, keyLast4: key.api_key_last4 ?? before?.api_key_last4, clientKeyLast4 },
      },
    });
    return {
      ok: true as const,
      connection: {
        url,
        keyLast4: key.api_key_last4 ?? before?.api_key_last4 ?? "",
        clientKeyLast4,
        locationMap: input.locationMap,
        updatedAt: now,
      },
    };
  });
}

export type RemoveClientKeyResult =
  | { ok: true; removed: boolean }
  | { ok: false; kind: "invalid"; error: "provisioning.errors.notConnected" }
  | StaffForbidden;

/**
 * Removes the saved Client API key (audited): the worker reads no server's state and sends no power
 * signal until one is saved again. Nothing to remove is no failure (`removed: false`). The actor is a
 * member of the staff whose role holds `panel.manage`.
 */
export async function removePanelClientKey(
  db: Db,
  input: { actorId: string; now?: Date },
): Promise<RemoveClientKeyResult> {
  return inTransaction(db, async (trx) => {
    await requireStaffPermission(trx, input.actorId, "panel.manage");
    const before = await trx
      .selectFrom("panel_connections")
      .select(["url", "api_key_last4", "client_key_last4"])
      .where("id", "=", 1)
      .executeTakeFirst();
    if (!before)
      return {
        ok: false as const,
        kind: "invalid" as const,
        error: "provisioning.errors.notConnected" as const,
      };
    if (before.client_key_last4 === null) return { ok: true as const, removed: false };
    await trx
      .updateTable("panel_connections")
      .set({
        client_key_encrypted: null,
        client_key_last4: null,
        updated_by: input.actorId,
        updated_at: (input.now ?? new Date()).toISOString(),
      })
      .where("id", "=", 1)
      .execute();
    const ref = { url: before.url, keyLast4: before.api_key_last4 };
    await record(trx, {
      type: "panel.connectionSaved",
      actorId: input.actorId,
      change: {
        before: { ...ref, clientKeyLast4: before.client_key_last4 },
        after: { ...ref, clientKeyLast4: null },
      },
    });
    return { ok: true as const, removed: true };
  });
}

/** The saved key cannot be read with this auth secret (a database restored without its secret). */
export class PanelKeyUnreadable extends Error {
  constructor() {
    super("The game panel's key cannot be read with this auth secret: save it again");
    this.name = "PanelKeyUnreadable";
  }
}

/**
 * The saved key is not the saved address's: the address changed without the key being saved again
 * (the row edited by hand), or the key was saved before keys were bound to their address.
 */
export class PanelKeyNotForUrl extends Error {
  constructor() {
    super("The game panel's key was not saved for its address: save the key again");
    this.name = "PanelKeyNotForUrl";
  }
}

/** The key in a stored `api_key_encrypted`, when it was saved for `url`. */
function keyFor(decrypted: string, url: string | null): string {
  let bound: Partial<BoundKey> | null = null;
  try {
    bound = JSON.parse(decrypted) as Partial<BoundKey> | null;
  } catch {
    // A key saved on its own, before keys were bound to their address: not sent anywhere.
  }
  if (!bound || typeof bound.key !== "string" || typeof bound.url !== "string" || !bound.key)
    throw new PanelKeyNotForUrl();
  if (url === null || bound.url !== url) throw new PanelKeyNotForUrl();
  return bound.key;
}

/** A stored key read with the auth secret, when it was saved for `url` (the row's address). */
async function savedKey(secret: string, encrypted: string, url: string | null): Promise<string> {
  let decrypted: string;
  try {
    decrypted = await symmetricDecrypt({ key: secret, data: encrypted });
  } catch {
    throw new PanelKeyUnreadable();
  }
  if (!decrypted) throw new PanelKeyUnreadable();
  return keyFor(decrypted, url);
}

export interface PanelClientSettings {
  secret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  onCall?: (call: PanelCall) => void;
  /** The client's `retryReads`: the jobs ask for it (the check job included). */
  retryReads?: boolean;
}

/**
 * A client of the saved panel, or null when none is saved. Throws PanelKeyUnreadable, PanelKeyNotForUrl
 * (the key was saved for another address), and PanelAddressRefused (a local address while the setting
 * gamePanel.allowLocalNetwork is off; the client refuses a name that resolves to one when it connects).
 */
export async function panelClientFor(
  db: Db,
  settings: PanelClientSettings,
): Promise<{ client: PanelClient; connection: PanelConnectionView } | null> {
  const row = await db
    .selectFrom("panel_connections")
    .selectAll()
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row) return null;
  const url = panelBaseUrl(row.url);
  const apiKey = await savedKey(settings.secret, row.api_key_encrypted, url);
  const { gamePanel } = await getSettings(db);
  return {
    client: createPanelClient({
      // The address the key was saved for, which is the row's (keyFor).
      url: url!,
      apiKey,
      allowLocalNetwork: gamePanel.allowLocalNetwork,
      timeoutMs: settings.timeoutMs,
      fetch: settings.fetch,
      onCall: settings.onCall,
      retryReads: settings.retryReads,
    }),
    connection: {
      url: row.url,
      keyLast4: row.api_key_last4,
      clientKeyLast4: row.client_key_last4,
      locationMap: parseLocationMap(row.location_map),
      updatedAt: row.updated_at,
    },
  };
}

/** No Client API key is saved (or no panel at all): the worker cannot read or drive servers. */
export class PanelClientKeyMissing extends Error {
  constructor() {
    super("No Client API key of the game panel is saved");
    this.name = "PanelClientKeyMissing";
  }
}

/**
 * A Client API client of the saved panel, with the saved client key: for the worker only (reading a
 * server's state, sending its power signals), and only ever for the identifier of the service a job is
 * about. Throws PanelClientKeyMissing (no panel, or no client key saved), PanelKeyUnreadable,
 * PanelKeyNotForUrl (the client key was saved for another address), PanelAddressRefused.
 */
export async function panelClientApiFor(
  db: Db,
  secret: string,
  options: Omit<PanelClientSettings, "secret"> = {},
): Promise<PanelClientApi> {
  const row = await db
    .selectFrom("panel_connections")
    .select(["url", "client_key_encrypted"])
    .where("id", "=", 1)
    .executeTakeFirst();
  if (!row?.client_key_encrypted) throw new PanelClientKeyMissing();
  const url = panelBaseUrl(row.url);
  const apiKey = await savedKey(secret, row.client_key_encrypted, url);
  const { gamePanel } = await getSettings(db);
  return createPanelClientApi({
    // The address the key was saved for, which is the row's (keyFor).
    url: url!,
    apiKey,
    allowLocalNetwork: gamePanel.allowLocalNetwork,
    timeoutMs: options.timeoutMs,
    fetch: options.fetch,
    onCall: options.onCall,
    retryReads: options.retryReads,
  });
}

export type CheckFailure =
  | "provisioning.errors.keyUnreadable"
  | "provisioning.errors.keyNotForUrl"
  | "provisioning.errors.addressRefused"
  | "provisioning.errors.unreachable"
  | "provisioning.errors.keyRefused"
  | "provisioning.errors.panelAnswered";

/**
 * A panel failure as the message an admin reads (a key of the catalogue) and the panel's own words.
 * Anything else (a bug of ours) is thrown on.
 */
export function connectionFailure(error: unknown): {
  error: CheckFailure;
  detail: string | null;
} {
  if (error instanceof PanelKeyUnreadable)
    return { error: "provisioning.errors.keyUnreadable", detail: null };
  if (error instanceof PanelKeyNotForUrl)
    return { error: "provisioning.errors.keyNotForUrl", detail: null };
  if (error instanceof PanelAddressRefused)
    return { error: "provisioning.errors.addressRefused", detail: null };
  if (error instanceof PanelUnreachable)
    return { error: "provisioning.errors.unreachable", detail: error.kind };
  if (error instanceof PanelError && (error.status === 401 || error.status === 403))
    return { error: "provisioning.errors.keyRefused", detail: `${error.status} ${error.code}` };
  if (error instanceof PanelError)
    return {
      error: "provisioning.errors.panelAnswered",
      detail: `${error.status} ${error.detail}`,
    };
  throw error;
}
