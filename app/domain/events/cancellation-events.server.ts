import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import {
  serviceCancelPath,
  type CancellationKind,
  type CancellationReason,
} from "~/domain/hosting-services/cancellation";
import type { DocumentRef } from "~/domain/mail/mail-events";
import type { PanelLink } from "~/domain/provisioning/panel-link.server";
import type { MailEvent } from "~/domain/mail/mail-events";
import type { ServiceRef } from "./service-events.server";
import { SERVICES_TAB, type ReactionTable } from "./reaction.server";

/** Where the staff decide refunds. */
const REFUNDS_QUEUE = "/admin/refunds";

/**
 * A customer's cancellation of a service (docs/self-service.md): at the end of its term, or a refund
 * within 14 days of its order, decided by the system or an admin. `cancellationId` is the request's row.
 */
export type CancellationEvent =
  /** The customer asked for the service to end at its expiry: its automatic renewal went off. */
  | {
      type: "cancellation.scheduled";
      service: ServiceRef;
      cancellationId: number;
      reason: CancellationReason;
      endsAt: string;
      autoRenewWas: boolean;
    }
  /** The customer withdrew their open request (kept the server, or no longer wants the refund). */
  | {
      type: "cancellation.withdrawn";
      service: ServiceRef;
      cancellationId: number;
      kind: CancellationKind;
      /** An end of term withdrawn: the automatic renewal as it was restored. */
      autoRenew: boolean | null;
    }
  /** The customer asked for a refund; `automatic`: the system decides it at once (under the ceiling). */
  | {
      type: "cancellation.refundRequested";
      service: ServiceRef;
      cancellationId: number;
      reason: CancellationReason;
      amountCents: number;
      automatic: boolean;
    }
  /**
   * A refund approved, by an admin or the system (`actorId` null): the coins back, each paid invoice
   * credited (`creditNotes`), the service terminated and its server deleted on the game panel.
   */
  | {
      type: "cancellation.refundApproved";
      actorId: string | null;
      service: ServiceRef;
      cancellationId: number;
      amountCents: number;
      creditNotes: DocumentRef[];
      /** The service's status before (it was terminated now unless it already was). */
      statusBefore: string;
      panel: PanelLink;
    }
  /** An admin refused a refund, with the reason the customer is told. */
  | {
      type: "cancellation.refundRefused";
      actorId: string;
      service: ServiceRef;
      cancellationId: number;
      amountCents: number;
      reason: string;
    }
  /** The lifecycle ended a service cancelled at the end of its term, at its expiry (no actor). */
  | {
      type: "cancellation.endedAtTerm";
      service: ServiceRef;
      cancellationId: number;
      expiresAt: string;
      panel: PanelLink;
    };

/** The customer's mail of a service ended by a cancellation. */
function terminatedMail(service: ServiceRef, reason: "cancelled" | "refunded"): MailEvent {
  return {
    kind: "serviceTerminated",
    userId: service.userId,
    serviceId: service.id,
    service: serviceLabel(service),
    reason,
  };
}

/** What follows a cancellation's steps. */
export const cancellationReactions: ReactionTable<CancellationEvent> = {
  "cancellation.scheduled": {
    audit: ({ service, cancellationId, reason, endsAt, autoRenewWas }) => ({
      actorId: service.userId,
      action: "service.cancel_scheduled",
      targetType: "hosting_service",
      targetId: service.id,
      before: { autoRenew: autoRenewWas, endsAtExpiry: false },
      after: { autoRenew: false, endsAtExpiry: true, endsAt, cancellation: cancellationId },
      reason,
    }),
  },
  "cancellation.withdrawn": {
    audit: ({ service, cancellationId, kind, autoRenew }) => ({
      actorId: service.userId,
      action: "service.cancel_withdrawn",
      targetType: "hosting_service",
      targetId: service.id,
      before: { cancellation: cancellationId, kind },
      after: kind === "end_of_term" ? { endsAtExpiry: false, autoRenew } : { withdrawn: true },
    }),
  },
  "cancellation.refundRequested": {
    audit: ({ service, cancellationId, reason, amountCents }) => ({
      actorId: service.userId,
      action: "service.refund_requested",
      targetType: "hosting_service",
      targetId: service.id,
      after: { cancellation: cancellationId, amountCents },
      reason,
    }),
    // A request the system decides at once is told by its approval.
    staffNotice: ({ service, cancellationId, amountCents, automatic }) =>
      automatic
        ? null
        : {
            kind: "refund_requested",
            params: { service: serviceLabel(service), amountCents, id: cancellationId },
            link: REFUNDS_QUEUE,
            dedupeKey: `refund:requested:${cancellationId}`,
          },
  },
  "cancellation.refundApproved": {
    panelSync: ({ panel }) => panel,
    audit: ({ actorId, service, cancellationId, amountCents, creditNotes, statusBefore }) => ({
      actorId,
      action: "service.refund_approved",
      targetType: "hosting_service",
      targetId: service.id,
      before: { status: statusBefore, cancellation: cancellationId },
      after: {
        status: "terminated",
        refundedCents: amountCents,
        creditNotes: creditNotes.map((note) => note.number),
      },
    }),
    notice: ({ service, amountCents }) => ({
      userId: service.userId,
      kind: "service_refunded",
      params: { service: serviceLabel(service), amountCents },
      link: "/coins",
    }),
    staffNotice: ({ actorId, service, cancellationId, amountCents }) => ({
      kind: actorId === null ? "refund_auto_approved" : "refund_approved",
      params: { service: serviceLabel(service), amountCents, id: cancellationId },
      link: `${REFUNDS_QUEUE}?state=approved`,
      dedupeKey: `refund:approved:${cancellationId}`,
    }),
    // Each credit note by itself (as an admin's refund mails it), and the service's end.
    mail: ({ service, creditNotes }) => [
      ...creditNotes.map((document): MailEvent => ({
        kind: "documentIssued",
        userId: service.userId,
        document,
      })),
      terminatedMail(service, "refunded"),
    ],
  },
  "cancellation.refundRefused": {
    audit: ({ actorId, service, cancellationId, amountCents, reason }) => ({
      actorId,
      action: "service.refund_refused",
      targetType: "hosting_service",
      targetId: service.id,
      after: { cancellation: cancellationId, amountCents, refused: true },
      reason,
    }),
    notice: ({ service, reason }) => ({
      userId: service.userId,
      kind: "service_refund_refused",
      params: { service: serviceLabel(service), reason },
      link: serviceCancelPath(service.id),
    }),
  },
  "cancellation.endedAtTerm": {
    panelSync: ({ panel }) => panel,
    audit: ({ service, cancellationId, expiresAt }) => ({
      actorId: null,
      action: "service.ended_at_term",
      targetType: "hosting_service",
      targetId: service.id,
      before: { status: "active", expiresAt, cancellation: cancellationId },
      after: { status: "terminated" },
      reason: "cancelled",
    }),
    notice: ({ service }) => ({
      userId: service.userId,
      kind: "service_ended_at_term",
      params: { service: serviceLabel(service) },
      link: SERVICES_TAB,
    }),
    mail: ({ service }) => terminatedMail(service, "cancelled"),
  },
};
