import { symmetricDecrypt, symmetricEncrypt } from "better-auth/crypto";
import { recordAudit } from "~/domain/audit/audit.server";
import type { Db } from "~/db/transaction";
import { inTransaction } from "~/db/transaction";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import {
  parseFailure,
  parseLocationMap,
  parseSnapshot,
  type LocationMap,
  type PanelCheckView,
  type PanelConnectionView,
  type PanelSnapshot,
} from "./panel-connection";
import {
  createPanelClient,
  PanelError,
  PanelUnreachable,
  type PanelCall,
  type PanelClient,
} from "./pterodactyl-client.server";

// The one game panel (docs/provisioning.md "The connection"). The Application API key is
// encrypted with the auth secret, as better-auth keeps two-factor secrets: a copy of the
// database alone does not give the key away. It is never sent back to a browser: the page shows its
// last four characters.

export const PANEL_CHECK_JOB = "provisioning.check";

export async function readPanelConnection(
  db: Db,
): Promise<(PanelConnectionView & { check: PanelCheckView }) | null> {
  const row = await db
    .selectFrom("panel_connections")
    .select([
      "url",
      "api_key_last4",
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
  | { ok: false; kind: "invalid"; field: "apiKey"; error: "provisioning.errors.keyRequired" };

/**
 * Saves the panel's address, its key (left as it is when `apiKey` is null: the form never shows the
 * saved one) and the location map. Audited without the key.
 */
export async function savePanelConnection(
  db: Db,
  input: { url: string; apiKey: string | null; locationMap: LocationMap; actorId: string },
  { secret }: { secret: string },
): Promise<SavePanelConnectionResult> {
  const encrypted = input.apiKey
    ? await symmetricEncrypt({ key: secret, data: input.apiKey })
    : null;
  return inTransaction(db, async (trx) => {
    const before = await trx
      .selectFrom("panel_connections")
      .select(["url", "api_key_last4", "location_map"])
      .where("id", "=", 1)
      .executeTakeFirst();
    if (!before && !encrypted)
      return {
        ok: false as const,
        kind: "invalid" as const,
        field: "apiKey" as const,
        error: "provisioning.errors.keyRequired" as const,
      };
    const now = new Date().toISOString();
    const key = encrypted
      ? { api_key_encrypted: encrypted, api_key_last4: input.apiKey!.slice(-4) }
      : {};
    const values = {
      url: input.url,
      location_map: JSON.stringify(input.locationMap),
      updated_by: input.actorId,
      updated_at: now,
      ...key,
    };
    if (before)
      await trx.updateTable("panel_connections").set(values).where("id", "=", 1).execute();
    else
      await trx
        .insertInto("panel_connections")
        .values({ id: 1, api_key_encrypted: "", api_key_last4: "", ...values })
        .execute();
    await recordAudit(trx, {
      actorId: input.actorId,
      action: "panel.connection.save",
      targetType: "settings",
      targetId: "gamePanel",
      before: before ? { url: before.url, keyLast4: before.api_key_last4 } : null,
      after: { url: input.url, keyLast4: key.api_key_last4 ?? before?.api_key_last4 },
    });
    return {
      ok: true as const,
      connection: {
        url: input.url,
        keyLast4: key.api_key_last4 ?? before?.api_key_last4 ?? "",
        locationMap: input.locationMap,
        updatedAt: now,
      },
    };
  });
}

/** The saved key cannot be read with this auth secret (a database restored without its secret). */
export class PanelKeyUnreadable extends Error {
  constructor() {
    super("The game panel's key cannot be read with this auth secret: save it again");
    this.name = "PanelKeyUnreadable";
  }
}

export interface PanelClientSettings {
  secret: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
  onCall?: (call: PanelCall) => void;
  /** The client's `retryReads`: the jobs ask for it (the check job included). */
  retryReads?: boolean;
}

/** A client of the saved panel, or null when none is saved. Throws PanelKeyUnreadable. */
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
  let apiKey: string;
  try {
    apiKey = await symmetricDecrypt({ key: settings.secret, data: row.api_key_encrypted });
  } catch {
    throw new PanelKeyUnreadable();
  }
  if (!apiKey) throw new PanelKeyUnreadable();
  return {
    client: createPanelClient({
      url: row.url,
      apiKey,
      timeoutMs: settings.timeoutMs,
      fetch: settings.fetch,
      onCall: settings.onCall,
      retryReads: settings.retryReads,
    }),
    connection: {
      url: row.url,
      keyLast4: row.api_key_last4,
      locationMap: parseLocationMap(row.location_map),
      updatedAt: row.updated_at,
    },
  };
}

export type CheckFailure =
  | "provisioning.errors.keyUnreadable"
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
