import {
  serviceLabel,
  type HostingService,
  type ServiceAction,
  type ServiceStatus,
  type SuspensionReason,
} from "~/domain/hosting-services/hosting-services";
import type { RenewalTerms } from "~/domain/mail/mail-events";
import {
  reminderKey,
  renewalShortKey,
  runDay,
  terminationWarningKey,
} from "~/domain/lifecycle/lifecycle";
import type { PanelLink } from "~/domain/provisioning/panel-link.server";
import type { AuditEntry } from "~/domain/audit/audit.server";
import { SERVICES_TAB, type Change, type Notice, type ReactionTable } from "./reaction.server";

/** A service as its events name it: whose it is, its plan and its server's name. */
export interface ServiceRef {
  id: number;
  userId: string;
  name: string;
  serverName: string;
}

export type ServiceEvent =
  | { type: "service.added"; actorId: string; service: HostingService }
  /** An admin suspended, reactivated or terminated it (`at`: when); the game panel follows. */
  | {
      type: "service.statusChanged";
      actorId: string;
      action: ServiceAction;
      service: ServiceRef;
      from: string;
      to: ServiceStatus;
      reason?: string;
      panel: PanelLink;
      at: string;
    }
  | { type: "service.edited"; actorId: string; serviceId: number; change: Change }
  /** Deleted by an admin (`service` as it was); the game panel's server goes too. */
  | { type: "service.deleted"; actorId: string; service: HostingService; panel: PanelLink }
  /**
   * One term paid from coins (`renewalId`), by the customer or by the lifecycle (`automatic`, no actor);
   * `reactivated`: the suspension for expiry it lifted (the game panel follows).
   */
  | {
      type: "service.renewed";
      actorId: string | null;
      automatic: boolean;
      service: ServiceRef;
      renewalId: number;
      ledgerEntryId: number | null;
      amountCents: number;
      previousExpiresAt: string;
      expiresAt: string;
      reactivated: { status: ServiceStatus; suspensionReason: SuspensionReason | null } | null;
      panel: PanelLink;
    }
  /**
   * The lifecycle suspended it, its expiry passed by the grace days (no actor): told when it will be
   * terminated and what renewing costs from the balance it has (`renewal`).
   */
  | {
      type: "service.suspendedForExpiry";
      service: ServiceRef;
      expiresAt: string;
      suspendedAt: string;
      terminatesAt: string;
      renewal: RenewalTerms;
      panel: PanelLink;
    }
  /** The lifecycle terminated it, suspended for expiry since `suspendedAt` (no actor). */
  | {
      type: "service.terminatedForExpiry";
      service: ServiceRef;
      suspendedAt: string | null;
      panel: PanelLink;
    }
  /**
   * A renewal's invoice refunded: the term taken back (`expiresAt` restored, `suspended` again when the
   * renewal had lifted a suspension) or kept, and the automatic renewal switched off (`autoRenewOff`).
   */
  | {
      type: "service.renewalRefunded";
      actorId: string;
      service: ServiceRef;
      change: Change;
      reason: string;
      expiresAt: string;
      suspended: boolean;
      autoRenewOff: boolean;
      /** The game panel follows a service suspended again. */
      panel: PanelLink | null;
    }
  // The lifecycle's notices, recorded a batch at a time (`recordAll`), each told once by its key.
  /** It expires at `expiresAt`, `days` from the run (the reminder threshold reached, no actor). */
  | { type: "service.expiryReminded"; service: ServiceRef; expiresAt: string; days: number }
  /**
   * Its automatic renewal is due but the balance lacks `missingCents` (told at `at`, once a day while it
   * is due): what renewing costs, and when it is suspended, then terminated, unless renewed.
   */
  | {
      type: "service.renewalShort";
      service: ServiceRef;
      expiresAt: string;
      missingCents: number;
      at: string;
      renewal: RenewalTerms;
      suspendsAt: string;
      terminatesAt: string;
    }
  /** Suspended for expiry at `suspendedAt`, it is terminated at `terminatesAt`, `days` from the run. */
  | {
      type: "service.terminationWarned";
      service: ServiceRef;
      suspendedAt: string;
      terminatesAt: string;
      days: number;
    };

/** What follows a service's changes, by an admin, its customer or the lifecycle. */
export const serviceReactions: ReactionTable<ServiceEvent> = {
  "service.added": {
    audit: ({ actorId, service }) => ({
      actorId,
      action: "service.add",
      targetType: "hosting_service",
      targetId: service.id,
      after: service,
    }),
  },
  "service.statusChanged": {
    panelSync: ({ panel }) => panel,
    audit: (event) => ({
      actorId: event.actorId,
      action: `service.${event.action}`,
      targetType: "hosting_service",
      targetId: event.service.id,
      before: { status: event.from },
      after: { status: event.to },
      reason: event.reason,
    }),
    notice: ({ action, service }) =>
      action === "terminate"
        ? null
        : {
            userId: service.userId,
            kind: action === "suspend" ? "service_suspended" : "service_reactivated",
            params: { service: serviceLabel(service) },
            link: SERVICES_TAB,
          },
    // Stopped or ended by an admin: the customer is told by mail too (docs/mail.md); a reactivation
    // is in their list only.
    mail: ({ action, service, at }) => {
      const mailed = {
        userId: service.userId,
        serviceId: service.id,
        service: serviceLabel(service),
      };
      if (action === "suspend")
        return { kind: "serviceSuspended", ...mailed, suspendedAt: at, reason: "admin" };
      if (action === "terminate") return { kind: "serviceTerminated", ...mailed, reason: "admin" };
      return null;
    },
  },
  "service.edited": {
    audit: ({ actorId, serviceId, change }) => ({
      actorId,
      action: "service.edit",
      targetType: "hosting_service",
      targetId: serviceId,
      ...change,
    }),
  },
  "service.deleted": {
    panelSync: ({ panel }) => panel,
    audit: ({ actorId, service }) => ({
      actorId,
      action: "service.delete",
      targetType: "hosting_service",
      targetId: service.id,
      before: service,
    }),
  },
  "service.renewed": {
    panelSync: ({ reactivated, panel }) => (reactivated ? panel : null),
    audit: (event): AuditEntry[] => [
      ...(event.reactivated
        ? [
            {
              actorId: event.actorId,
              action: "service.reactivate",
              targetType: "hosting_service" as const,
              targetId: event.service.id,
              before: {
                status: event.reactivated.status,
                suspensionReason: event.reactivated.suspensionReason,
                expiresAt: event.previousExpiresAt,
              },
              after: { status: "active", expiresAt: event.expiresAt },
              reason: "renewal",
            },
          ]
        : []),
      ...(event.automatic
        ? [
            {
              actorId: null,
              action: "service.auto_renew",
              targetType: "hosting_service" as const,
              targetId: event.service.id,
              before: { expiresAt: event.previousExpiresAt },
              after: { expiresAt: event.expiresAt, chargedCents: event.amountCents },
            },
          ]
        : []),
    ],
    // The customer's notices and mail name the server too (two servers of one plan).
    notice: (event): Notice[] => [
      ...(event.reactivated
        ? [
            {
              userId: event.service.userId,
              kind: "service_reactivated" as const,
              params: { service: serviceLabel(event.service) },
              link: SERVICES_TAB,
            },
          ]
        : []),
      ...(event.automatic
        ? [
            {
              userId: event.service.userId,
              kind: "service_auto_renewed" as const,
              params: { service: serviceLabel(event.service), amountCents: event.amountCents },
              link: SERVICES_TAB,
            },
          ]
        : []),
    ],
    // A receipt by mail, whoever renewed it: once per renewal (docs/mail.md).
    mail: (event) => ({
      kind: "serviceRenewed",
      userId: event.service.userId,
      serviceId: event.service.id,
      renewalId: event.renewalId,
      ledgerEntryId: event.ledgerEntryId,
      service: serviceLabel(event.service),
      expiresAt: event.expiresAt,
      amountCents: event.amountCents,
      automatic: event.automatic,
      reactivated: event.reactivated !== null,
    }),
  },
  "service.suspendedForExpiry": {
    panelSync: ({ panel }) => panel,
    audit: ({ service, expiresAt }) => ({
      actorId: null,
      action: "service.suspend",
      targetType: "hosting_service",
      targetId: service.id,
      before: { status: "active", expiresAt },
      after: { status: "suspended", suspensionReason: "expired" },
      reason: "expired",
    }),
    notice: ({ service }) => ({
      userId: service.userId,
      kind: "service_suspended_expired",
      params: { service: serviceLabel(service) },
      link: SERVICES_TAB,
    }),
    // Until when it can be saved, and what that costs from the balance it has now.
    mail: ({ service, suspendedAt, terminatesAt, renewal }) => ({
      kind: "serviceSuspended",
      userId: service.userId,
      serviceId: service.id,
      service: serviceLabel(service),
      suspendedAt,
      reason: "expired",
      terminatesAt,
      renewal,
    }),
  },
  "service.terminatedForExpiry": {
    panelSync: ({ panel }) => panel,
    audit: ({ service, suspendedAt }) => ({
      actorId: null,
      action: "service.terminate",
      targetType: "hosting_service",
      targetId: service.id,
      before: { status: "suspended", suspensionReason: "expired", suspendedAt },
      after: { status: "terminated" },
      reason: "expired",
    }),
    notice: ({ service }) => ({
      userId: service.userId,
      kind: "service_terminated",
      params: { service: serviceLabel(service) },
      link: SERVICES_TAB,
    }),
    mail: ({ service }) => ({
      kind: "serviceTerminated",
      userId: service.userId,
      serviceId: service.id,
      service: serviceLabel(service),
      reason: "expired",
    }),
  },
  "service.renewalRefunded": {
    panelSync: ({ panel }) => panel,
    audit: ({ actorId, service, change, reason }) => ({
      actorId,
      action: "service.renewal_refund",
      targetType: "hosting_service",
      targetId: service.id,
      ...change,
      reason,
    }),
    // No mail of a suspension again: its own went when the service was first suspended (its key is
    // that moment), and the credit note's mail tells of the refund. Each notice says whether the
    // automatic renewal went off too: suspended again, a customer who renews by hand would otherwise
    // find it off without having been told.
    notice: ({ service, expiresAt, suspended, autoRenewOff }) => ({
      userId: service.userId,
      kind: suspended
        ? autoRenewOff
          ? "service_renewal_refunded_suspended_auto_off"
          : "service_renewal_refunded_suspended"
        : autoRenewOff
          ? "service_renewal_refunded_auto_off"
          : "service_renewal_refunded",
      params: { service: serviceLabel(service), expires: expiresAt },
      link: SERVICES_TAB,
    }),
  },
  "service.expiryReminded": {
    keyedNotice: ({ service, expiresAt, days }) => ({
      userId: service.userId,
      kind: "service_expiry_reminder",
      params: { service: serviceLabel(service), count: days },
      link: SERVICES_TAB,
      dedupeKey: reminderKey(service.id, expiresAt, days),
    }),
    mail: ({ service, expiresAt, days }) => ({
      kind: "serviceExpiring",
      ...mailedService(service),
      expiresAt,
      days,
    }),
  },
  "service.renewalShort": {
    keyedNotice: ({ service, expiresAt, missingCents, at }) => ({
      userId: service.userId,
      kind: "service_renewal_short",
      params: { service: serviceLabel(service), amountCents: missingCents },
      link: "/coins",
      dedupeKey: renewalShortKey(service.id, expiresAt, new Date(at)),
    }),
    // Whether it has expired already: the message says "ended" rather than "ends".
    mail: (event) => ({
      kind: "serviceRenewalShort",
      ...mailedService(event.service),
      expiresAt: event.expiresAt,
      missingCents: event.missingCents,
      day: runDay(new Date(event.at)),
      renewal: event.renewal,
      expired: Date.parse(event.expiresAt) <= Date.parse(event.at),
      suspendsAt: event.suspendsAt,
      terminatesAt: event.terminatesAt,
    }),
  },
  "service.terminationWarned": {
    keyedNotice: ({ service, suspendedAt, days }) => ({
      userId: service.userId,
      kind: "service_termination_warning",
      params: { service: serviceLabel(service), count: days },
      link: SERVICES_TAB,
      dedupeKey: terminationWarningKey(service.id, suspendedAt),
    }),
    mail: ({ service, suspendedAt, terminatesAt, days }) => ({
      kind: "serviceTerminationWarning",
      ...mailedService(service),
      suspendedAt,
      terminatesAt,
      days,
    }),
  },
};

/** Who a service's mail goes to and what it names. */
const mailedService = (service: ServiceRef) => ({
  userId: service.userId,
  serviceId: service.id,
  service: serviceLabel(service),
});
