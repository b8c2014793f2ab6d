import { recordAudit } from "~/domain/audit/audit.server";
import { enqueueJob } from "~/domain/jobs/jobs.server";
import { queueStaffPost } from "~/domain/jobs/staff-posts.server";
import { forgetMailOf } from "~/domain/mail/mail-erasure.server";
import { queueAddressedMail, queueMail, queueMails } from "~/domain/mail/mail.server";
import { notify, notifyOnce, notifyStaff } from "~/domain/notifications/notifications.server";
import { queuePanelSync } from "~/domain/provisioning/panel-link.server";
import type { Tx } from "~/db/transaction";
import type { Settings } from "~/domain/settings/settings";
import { adminReactions } from "./admin-events.server";
import { cancellationReactions } from "./cancellation-events.server";
import { catalogueReactions } from "./catalogue-events.server";
import { accountReactions } from "./account-events.server";
import { campaignReactions } from "./campaign-events.server";
import { cannedReplyReactions } from "./canned-reply-events.server";
import { knowledgeBaseReactions } from "./knowledgebase-events.server";
import { coinReactions } from "./coin-events.server";
import { dataExportReactions } from "./data-export-events.server";
import { discordReactions, serviceStateChangedFor } from "./discord-events.server";
import { queueDiscordRoleSync } from "~/domain/discord/discord-role-queue.server";
import type { DomainEvent } from "./events.server";
import { invoiceReactions } from "./invoice-events.server";
import { onlinePaymentReactions } from "./online-payment-events.server";
import { orderReactions } from "./order-events.server";
import { planChangeReactions } from "./plan-change-events.server";
import { jobReactions } from "./job-events.server";
import { provisioningReactions } from "./provisioning-events.server";
import { referralReactions } from "./referral-events.server";
import type { ReactionTable, Reactions, Recorded, Some } from "./reaction.server";
import { serverActionReactions } from "./server-action-events.server";
import { serverReactions } from "./server-events.server";
import { serviceReactions } from "./service-events.server";
import { staffReactions } from "./staff-events.server";
import { ticketReactions } from "./ticket-events.server";
import { topUpReactions } from "./top-up-events.server";
import { viewAsReactions } from "./view-as-events.server";

const all = <T>(some: Some<T>): readonly T[] =>
  some === null ? [] : Array.isArray(some) ? some : [some as T];

/** The table: every event's reactions, one part per area (`<area>-events.server.ts`). */
export const REACTIONS: ReactionTable<DomainEvent> = {
  ...ticketReactions,
  ...orderReactions,
  ...serviceReactions,
  ...cancellationReactions,
  ...topUpReactions,
  ...onlinePaymentReactions,
  ...coinReactions,
  ...catalogueReactions,
  ...adminReactions,
  ...invoiceReactions,
  ...accountReactions,
  ...provisioningReactions,
  ...serverActionReactions,
  ...serverReactions,
  ...jobReactions,
  ...staffReactions,
  ...viewAsReactions,
  ...cannedReplyReactions,
  ...knowledgeBaseReactions,
  ...campaignReactions,
  ...dataExportReactions,
  ...referralReactions,
  ...planChangeReactions,
  ...discordReactions,
};

/**
 * Writes `event`'s reactions in `trx`, in the order the use-cases wrote them: the panel's sync, the
 * audit, the notices, each admin's notice, the mail, the staff's post, the jobs; `now` is when it happened (a
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
  if (reactions.keyedNotice)
    await notifyOnce(trx, [reactions.keyedNotice(event)], now ?? new Date());
  const staffNotice = reactions.staffNotice?.(event);
  const staffTold = staffNotice
    ? await notifyStaff(trx, { ...staffNotice, ...(now ? { now } : {}) })
    : null;
  for (const mail of all(reactions.mail?.(event) ?? null))
    await queueMail(trx, mail, now, settings);
  const addressed = all(reactions.addressedMail?.(event) ?? null);
  if (addressed.length > 0) await queueAddressedMail(trx, addressed, now);
  const news = reactions.staffPost?.(event);
  if (news) await queueStaffPost(trx, news, now, settings);
  if (reactions.forgetMail) await forgetMailOf(trx, reactions.forgetMail(event));
  for (const job of all(reactions.jobs?.(event) ?? null))
    await enqueueJob(trx, { ...job, now: job.now ?? now });
  // A customer's services changed state: their Discord role follows, if they linked Discord.
  const roleHolder = serviceStateChangedFor(event);
  if (roleHolder) await queueDiscordRoleSync(trx, roleHolder, now);
  return { staffTold };
}

/**
 * Writes the reactions of many events at once, each sink in turn for all of them, in the order `react`
 * writes them; the keyed notices and the mail of the whole batch in a few statements each. Returns how
 * many keyed notices were new.
 */
export async function reactAll(
  trx: Tx,
  events: readonly DomainEvent[],
  now = new Date(),
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<number> {
  const each = <T>(sink: (reactions: Reactions<DomainEvent>, event: DomainEvent) => Some<T>) =>
    events.flatMap((event) => all(sink(REACTIONS[event.type] as Reactions<DomainEvent>, event)));
  for (const panel of each((reactions, event) => reactions.panelSync?.(event) ?? null))
    await queuePanelSync(trx, panel, now);
  for (const entry of each((reactions, event) => reactions.audit?.(event) ?? null))
    await recordAudit(trx, entry);
  for (const notice of each((reactions, event) => reactions.notice?.(event) ?? null))
    await notify(trx, { ...notice, now });
  const told = await notifyOnce(
    trx,
    each((reactions, event) => reactions.keyedNotice?.(event) ?? null),
    now,
  );
  for (const notice of each((reactions, event) => reactions.staffNotice?.(event) ?? null))
    await notifyStaff(trx, { ...notice, now });
  await queueMails(
    trx,
    each((reactions, event) => reactions.mail?.(event) ?? null),
    now,
    settings,
  );
  await queueAddressedMail(
    trx,
    each((reactions, event) => reactions.addressedMail?.(event) ?? null),
    now,
  );
  for (const news of each((reactions, event) => reactions.staffPost?.(event) ?? null))
    await queueStaffPost(trx, news, now, settings);
  for (const userId of each((reactions, event) => reactions.forgetMail?.(event) ?? null))
    await forgetMailOf(trx, userId);
  for (const job of each((reactions, event) => reactions.jobs?.(event) ?? null))
    await enqueueJob(trx, { ...job, now: job.now ?? now });
  const roleHolders = new Set(events.map(serviceStateChangedFor).filter((id) => id !== null));
  for (const userId of roleHolders) await queueDiscordRoleSync(trx, userId, now);
  return told;
}
