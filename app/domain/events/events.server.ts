import type { Tx } from "~/db/transaction";
import type { Settings } from "~/domain/settings/settings";
import type { AdminEvent } from "./admin-events.server";
import type { CancellationEvent } from "./cancellation-events.server";
import type { CatalogueEvent } from "./catalogue-events.server";
import type { AccountEvent } from "./account-events.server";
import type { CampaignEvent } from "./campaign-events.server";
import type { CannedReplyEvent } from "./canned-reply-events.server";
import type { KnowledgeBaseEvent } from "./knowledgebase-events.server";
import type { CoinsEvent } from "./coin-events.server";
import type { DataExportEvent } from "./data-export-events.server";
import type { DiscordEvent } from "./discord-events.server";
import type { InvoiceEvent } from "./invoice-events.server";
import type { JobEvent } from "./job-events.server";
import type { OnlinePaymentEvent } from "./online-payment-events.server";
import type { OrderEvent } from "./order-events.server";
import type { PlanChangeEvent } from "./plan-change-events.server";
import type { ProvisioningEvent } from "./provisioning-events.server";
import type { ReferralEvent } from "./referral-events.server";
import type { Recorded } from "./reaction.server";
import { react, reactAll } from "./reactions.server";
import type { ServerActionEvent } from "./server-action-events.server";
import type { ServerEvent } from "./server-events.server";
import type { ServiceEvent } from "./service-events.server";
import type { StaffEvent } from "./staff-events.server";
import type { TicketEvent } from "./ticket-events.server";
import type { TopUpEvent } from "./top-up-events.server";
import type { ViewAsEvent } from "./view-as-events.server";

/**
 * What happened, as the use-case that did it records it (`record`), in its transaction: the facts the
 * reactions need (who, what, the amounts, the state before and after), never what to do about it. Its
 * name is `<area>.<past participle>`; each area's events and their reactions live in one file here
 * (`<area>-events.server.ts`). What is the rule stays in the use-case (the ledger, numbering, guards); what
 * follows from the change (the audit row, the customer's notice and mail, the staff's post) is the
 * reactions' table's (reactions.server.ts), so that a provider's webhook, an API call or an admin's
 * click that makes the same change get the same tail.
 */
export type DomainEvent =
  | TopUpEvent
  | OnlinePaymentEvent
  | CoinsEvent
  | ServiceEvent
  | CancellationEvent
  | OrderEvent
  | TicketEvent
  | CatalogueEvent
  | AdminEvent
  | InvoiceEvent
  | AccountEvent
  | ProvisioningEvent
  | ServerActionEvent
  | ServerEvent
  | JobEvent
  | StaffEvent
  | ViewAsEvent
  | CannedReplyEvent
  | KnowledgeBaseEvent
  | CampaignEvent
  | DataExportEvent
  | ReferralEvent
  | DiscordEvent
  | PlanChangeEvent;

/**
 * Step: records `event` in the caller's transaction: its reactions (the audit row, the notices, the
 * outbox's mail, the staff's post) are written now and commit or roll back with the change. `now`: when
 * it happened (a clock's), now by default; `settings`: what the caller read already, so that the mail
 * and the staff's post do not read them again. Says back what a staff notice found, for the rules that
 * depend on it (an alert raised once per episode).
 */
export async function record(
  trx: Tx,
  event: DomainEvent,
  now?: Date,
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<Recorded> {
  return react(trx, event, now, settings);
}

/**
 * Step: records many events at once in the caller's transaction (the lifecycle's reminders, warnings and
 * renewals short of coins, a few hundred to a transaction): the same reactions as `record`, each sink
 * written for all of them in a few statements. Returns how many of their keyed notices were new: how
 * many events were told for the first time.
 */
export async function recordAll(
  trx: Tx,
  events: readonly DomainEvent[],
  now?: Date,
  settings?: Pick<Settings, "general" | "alerts">,
): Promise<number> {
  return reactAll(trx, events, now, settings);
}
