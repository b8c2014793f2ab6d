import type { Db } from "~/db/transaction";
import {
  requestPanelPassword,
  requestServerAction,
  type PanelPasswordResult,
  type ServerActionInput,
  type ServerActionResult,
} from "./server-actions.server";
import { serverActionRequestOf, type ServerControlInput } from "./server-control.schemas";
import { setOfflineNotice, type OfflineNoticeResult } from "./server-status.server";

// A server page's form, whichever it is, as one use-case: the customer's page and the staff's section
// post the same forms, and each route calls this once with what it parsed.

export type ServerFormResult =
  | { ok: true; password?: string; username?: string | null }
  | Exclude<ServerActionResult, { ok: true }>
  | Exclude<PanelPasswordResult, { ok: true }>
  | Exclude<OfflineNoticeResult, { ok: true }>;

/**
 * Does what `form` asks of the server: a power signal, a reinstall or a variable
 * (`requestServerAction`), a new panel password (`requestPanelPassword`: the password in the result,
 * once), or the offline notice (the actor's own service: customers only).
 */
export async function runServerForm(
  db: Db,
  input: ServerActionInput & { secret: string; form: ServerControlInput },
): Promise<ServerFormResult> {
  const { form, secret, ...asked } = input;
  if (form.intent === "notice") {
    return setOfflineNotice(db, {
      serviceId: asked.serviceId,
      userId: asked.actorId,
      on: form.notice,
      now: asked.now,
    });
  }
  if (form.intent === "password") {
    const result = await requestPanelPassword(db, { ...asked, secret });
    return result.ok ? { ok: true, password: result.password, username: result.username } : result;
  }
  const result = await requestServerAction(db, { ...asked, request: serverActionRequestOf(form)! });
  return result.ok ? { ok: true } : result;
}
