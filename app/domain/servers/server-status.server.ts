import type { Db } from "~/db/transaction";
import type { ServerPageView, ServerStatusView } from "./server-control";

// The cached state of a customer's server and its page (docs/server-control.md): read from
// `server_status`, never from the panel; a state older than STATUS_CACHE_MS queues one refresh job.

export interface ServerReadInput {
  serviceId: number;
  /** The customer asking (only their own service), or null for staff (any service). */
  userId: string | null;
  /** The connected panel's address (for its pages' links), null when none is connected. */
  panelUrl: string | null;
  now?: Date;
}

/** The server's page, or null when the service is not this customer's or has no server on the panel. */
export async function readServerPage(
  _db: Db,
  _input: ServerReadInput,
): Promise<ServerPageView | null> {
  throw new Error("readServerPage: not built yet");
}

/** The card's state alone (the page's refresh while open), or null as above. */
export async function readServerStatus(
  _db: Db,
  _input: Omit<ServerReadInput, "panelUrl">,
): Promise<ServerStatusView | null> {
  throw new Error("readServerStatus: not built yet");
}

export type OfflineNoticeResult =
  { ok: true } | { ok: false; kind: "notFound"; error: "services.errors.notFound" };

/** The customer's "tell me when my server has been offline for 10 minutes" switch. */
export async function setOfflineNotice(
  _db: Db,
  _input: { serviceId: number; userId: string; on: boolean; now?: Date },
): Promise<OfflineNoticeResult> {
  throw new Error("setOfflineNotice: not built yet");
}
