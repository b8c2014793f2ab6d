import { recordAudit } from "~/domain/audit/audit.server";
import { queueStaffPost } from "~/domain/jobs/staff-posts.server";
import { queueMail } from "~/domain/mail/mail.server";
import { notify, notifyStaff } from "~/domain/notifications/notifications.server";
import { queuePanelSync } from "~/domain/provisioning/panel-link.server";
import type { Tx } from "~/db/transaction";
import type { Settings } from "~/domain/settings/settings";
import { coinReactions } from "./coin-events.server";
import type { DomainEvent } from "./events.server";
import { orderReactions } from "./order-events.server";
import { jobReactions } from "./job-events.server";
import { provisioningReactions } from "./provisioning-events.server";
import type { ReactionTable, Reactions, Recorded, Some } from "./reaction.server";
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
  ...provisioningReactions,
  ...jobReactions,
};

/**
 * Writes `event`'s reactions in `trx`, in the order the use-cases wrote them: the panel's sync, the
 * audit, the notices, each admin's notice, the mail, the staff's post; `now` is when it happened (a
 * clock's), now by default. Says back what a staff notice found (`Recorded`).
 */
export async function react(
  trx: Tx,
  event: DomainEvent,
  now?: Date,
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<Recorded> {
  const reactions = REACTIONS[event.type] as Reactions<DomainEvent>;
  const panel = reactions.panelSync?.(event);
  if (panel) await queuePanelSync(trx, panel, now);
  for (const entry of all(reactions.audit?.(event) ?? null)) await recordAudit(trx, entry);
  for (const notice of all(reactions.notice?.(event) ?? null))
    await notify(trx, { ...notice, ...(now ? { now } : {}) });
  const staffNotice = reactions.staffNotice?.(event);
  const staffTold = staffNotice
    ? await notifyStaff(trx, { ...staffNotice, ...(now ? { now } : {}) })
    : null;
  for (const mail of all(reactions.mail?.(event) ?? null))
    await queueMail(trx, mail, now, settings);
  if (reactions.staffPost) await queueStaffPost(trx, reactions.staffPost(event), now, settings);
  return { staffTold };
}
