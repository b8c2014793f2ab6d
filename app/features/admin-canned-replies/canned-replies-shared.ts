import type { ActionResult } from "~/components/ui/result-message";
import type { CannedReplyAction } from "~/domain/tickets/canned-replies";

export type { CannedReply } from "~/domain/tickets/canned-replies";

/** The intents of /admin/tickets/replies' forms: the editor's two, a row's three. */
export type CannedReplyIntent = CannedReplyAction["intent"];

/**
 * What the canned replies' page answers: what it did or why it refused, about which form (`intent`) and
 * reply (`id`); `title` names the reply in the message; `values` is what the editor had typed.
 */
export interface CannedReplyActionResult extends ActionResult {
  intent?: CannedReplyIntent;
  id?: number;
  title?: string;
}
