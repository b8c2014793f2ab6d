import { recordAudit } from "~/domain/audit/audit.server";
import { queueStaffPost } from "~/domain/jobs/staff-posts.server";
import { forgetMailOf, queueMail } from "~/domain/mail/mail.server";
import { notify } from "~/domain/notifications/notifications.server";
import { queuePanelSync } from "~/domain/provisioning/provisioning.server";
import type { Tx } from "~/db/transaction";
import type { Settings } from "~/domain/settings/settings";
import { accountReactions } from "./account-events.server";
import { coinReactions } from "./coin-events.server";
import type { DomainEvent } from "./events.server";
import { orderReactions } from "./order-events.server";
import type { ReactionTable, Reactions, Some } from "./reaction.server";
import { serviceReactions } from "./service-events.server";
import { ticketReactions } from "./ticket-events.server";
import { topUpReactions } from "./top-up-events.server";

const all = <T>(some: Some<T>): readonly T[] =>
  some === null ? [] : Array.isArray(some) ? some : [some as T];

/** The table: every event's reactions, one part per area (`<area>-events.server.ts`). */
export const REACTIONS: ReactionTable<DomainEvent> = {
  ...ticketReactions,
  ...orderReactions,
  ...serviceReactions,
  ...topUpReactions,
  ...coinReactions,
  ...accountReactions,
};

/**
 * Writes `event`'s reactions in `trx`, in the order the use-cases wrote them: the panel's sync, the
 * audit, the notices, the mail, the staff's post; `now` is when it happened (a clock's), now by default.
 */
export async function react(
  trx: Tx,
  event: DomainEvent,
  now?: Date,
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<void> {
  const reactions = REACTIONS[event.type] as Reactions<DomainEvent>;
  const panel = reactions.panelSync?.(event);
  if (panel) await queuePanelSync(trx, panel, now);
  for (const entry of all(reactions.audit?.(event) ?? null)) await recordAudit(trx, entry);
  for (const notice of all(reactions.notice?.(event) ?? null))
    await notify(trx, { ...notice, ...(now ? { now } : {}) });
  for (const mail of all(reactions.mail?.(event) ?? null))
    await queueMail(trx, mail, now, settings);
  if (reactions.staffPost) await queueStaffPost(trx, reactions.staffPost(event), now, settings);
  if (reactions.forgetMail) await forgetMailOf(trx, reactions.forgetMail(event));
}
