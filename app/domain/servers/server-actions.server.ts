import type { Db } from "~/db/transaction";
import type { PowerSignal, ServerRefusal } from "./server-control";
import type { SERVER_REFUSAL_LABELS } from "./server-control";

// What a customer or an admin asks of a server (docs/server-control.md): checked here (the service is
// theirs, not suspended, not installing, within its limits), recorded in `server_actions`, audited, and
// done by a job on the worker; the card shows it moving.

export type ServerActionRequest =
  | { kind: "power"; signal: PowerSignal }
  | { kind: "reinstall" }
  | { kind: "variable"; env: string; value: string };

export interface ServerActionInput {
  serviceId: number;
  actorId: string;
  /** Staff act on any service; a customer only on their own. */
  asStaff: boolean;
  now?: Date;
}

export type ServerActionResult =
  | { ok: true; actionId: number }
  | { ok: false; kind: "notFound"; error: "services.errors.notFound" }
  | {
      ok: false;
      kind: "conflict" | "limited";
      refusal: ServerRefusal;
      error: (typeof SERVER_REFUSAL_LABELS)[ServerRefusal];
    }
  | { ok: false; kind: "invalid"; fieldErrors: Record<string, string>; error: string };

/** A power signal, a reinstall or a variable: queued as a job, or refused with its reason. */
export async function requestServerAction(
  _db: Db,
  _input: ServerActionInput & { request: ServerActionRequest },
): Promise<ServerActionResult> {
  throw new Error("requestServerAction: not built yet");
}

export type PanelPasswordResult =
  | { ok: true; actionId: number; password: string; username: string | null }
  | Exclude<ServerActionResult, { ok: true }>;

/**
 * A new password for the customer's game panel and SFTP account: drawn here, shown once to the person
 * who asked, sent to the panel by a job (encrypted in its payload until then, erased after), never kept.
 */
export async function requestPanelPassword(
  _db: Db,
  _input: ServerActionInput & { secret: string },
): Promise<PanelPasswordResult> {
  throw new Error("requestPanelPassword: not built yet");
}
