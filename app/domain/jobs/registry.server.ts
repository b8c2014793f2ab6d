import type { ScheduleDefinition } from "./schedule-slots";
import type { JobHandler } from "./jobs.server";
import { discordAlertHandlerWith } from "./alerts.server";
import { DISCORD_ALERT_JOB, type StaffPostWriter } from "./discord-posts.server";
import { housekeepingHandlers, housekeepingSchedules } from "./housekeeping.server";
import {
  dataExportHandlers,
  dataExportPurgeHandlers,
  dataExportSchedules,
  type DataExportWiring,
} from "~/domain/data-exports/data-export-jobs.server";
import {
  discordRoleHandlers,
  discordSchedules,
  type DiscordRoleWiring,
} from "~/domain/discord/discord-roles.server";
import { lifecycleHandlers, lifecycleSchedules } from "~/domain/lifecycle/lifecycle-jobs.server";
import { MAIL_SEND_JOB, mailSendHandlerWith } from "~/domain/mail/mail-sender.server";
import {
  onlinePaymentHandlers,
  onlinePaymentSchedules,
} from "~/domain/payments/online-payment-jobs.server";
import type { PaymentProvider, ProviderCode } from "~/domain/payments/providers/provider";
import {
  proofRetentionHandlers,
  proofRetentionSchedules,
} from "~/domain/payments/proof-retention-jobs.server";
import { proofThumbnailHandlers } from "~/domain/payments/proof-thumbnail-jobs.server";
import type { ProvisioningConfig } from "~/domain/provisioning/panel-job-kit.server";
import {
  provisioningHandlers,
  provisioningSchedules,
} from "~/domain/provisioning/provisioning-jobs.server";
import { referralHandlers, referralSchedules } from "~/domain/referrals/referral-jobs.server";
import { serverControlHandlers, serverControlSchedules } from "~/domain/servers/server-jobs.server";
import { ticketFileHandlers, ticketFileSchedules } from "~/domain/tickets/ticket-file-jobs.server";

// Every job type the worker runs and every recurring schedule, in one place: a new area (the service
// lifecycle, email, provisioning) adds its handlers and schedules here, each job type once
// (registry.test.ts checks that every type the code queues has one handler).

/**
 * What the handlers that reach the outside world are made with, given by the process that runs them:
 * server/worker.ts from its env, a test with its stand-ins (a fake Discord, panel or SMTP server).
 */
export interface JobWiring {
  /**
   * The Discord post: `write` writes the text of a post that carries an event (a new order or ticket,
   * in the site's default language); `send` is how it goes out (fetch by default). Without a writer the
   * posts that carry their text are sent, the others retried.
   */
  discord?: { write?: StaffPostWriter; send?: typeof fetch };
  /** Email's send job: the templates, the SMTP transport (null keeps messages), MAIL_FROM (docs/mail.md). */
  mail?: Parameters<typeof mailSendHandlerWith>[0];
  /**
   * The game panel's jobs and server control's: the secret their keys are encrypted with, the timeouts
   * (docs/provisioning.md, docs/server-control.md).
   */
  panel?: ProvisioningConfig;
  /**
   * The online payments' jobs (docs/online-payments.md): the auth secret the providers' keys are
   * encrypted with, and the provider clients (a test's scripted ones).
   */
  payments?: { secret: string; providers: Record<ProviderCode, PaymentProvider> };
  /**
   * A customer's data archive (docs/self-service.md): the auth secret its link's token is derived with,
   * and the words of the customer's language (the README's, the PDFs').
   */
  dataExports?: DataExportWiring;
  /**
   * The Discord "client" role's jobs (docs/discord.md): the auth secret the bot's token is encrypted
   * with, Discord's address (DISCORD_BASE_URL) and how the calls go out (a test's stand-in).
   */
  discordRoles?: DiscordRoleWiring;
}

/** Each area's part: its job types and their handlers. A part not wired has no handler here. */
function handlerParts(wiring: JobWiring): Readonly<Record<string, JobHandler>>[] {
  return [
    housekeepingHandlers,
    lifecycleHandlers,
    proofRetentionHandlers,
    proofThumbnailHandlers,
    ticketFileHandlers,
    {
      [DISCORD_ALERT_JOB]: discordAlertHandlerWith(wiring.discord?.write, {
        send: wiring.discord?.send,
      }),
    },
    wiring.mail ? { [MAIL_SEND_JOB]: mailSendHandlerWith(wiring.mail) } : {},
    wiring.panel ? provisioningHandlers(wiring.panel) : {},
    wiring.panel ? serverControlHandlers(wiring.panel) : {},
    wiring.payments ? onlinePaymentHandlers(wiring.payments) : {},
    dataExportPurgeHandlers,
    referralHandlers,
    wiring.dataExports ? dataExportHandlers(wiring.dataExports) : {},
    wiring.discordRoles ? discordRoleHandlers(wiring.discordRoles) : {},
  ];
}

/**
 * Every job type's handler, made with `wiring`. A type listed by two parts is refused here rather than
 * one handler silently replacing the other.
 */
export function jobHandlers(wiring: JobWiring = {}): Readonly<Record<string, JobHandler>> {
  const handlers: Record<string, JobHandler> = {};
  for (const part of handlerParts(wiring))
    for (const [type, handler] of Object.entries(part)) {
      if (type in handlers) throw new Error(`The job type "${type}" has two handlers`);
      handlers[type] = handler;
    }
  return handlers;
}

/**
 * The handlers that need nothing from the process: email's send job and the game panel's jobs have none
 * here, and the Discord post sends only the alerts that carry their text (server/worker.ts wires them all).
 */
export const JOB_HANDLERS = jobHandlers();

export const SCHEDULES: readonly ScheduleDefinition[] = [
  ...housekeepingSchedules,
  ...lifecycleSchedules,
  ...proofRetentionSchedules,
  ...provisioningSchedules,
  ...serverControlSchedules,
  ...onlinePaymentSchedules,
  ...dataExportSchedules,
  ...ticketFileSchedules,
  ...referralSchedules,
  ...discordSchedules,
];

export function scheduleNamed(name: string): ScheduleDefinition | undefined {
  return SCHEDULES.find((schedule) => schedule.name === name);
}
