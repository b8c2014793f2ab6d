import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import type { PlanChangeDirection } from "~/domain/hosting-services/plan-change";
import type { DocumentRef } from "~/domain/mail/mail-events";
import { PANEL_RESIZE_JOB } from "~/domain/provisioning/panel-job-types";
import { SERVICES_TAB, type ReactionTable } from "./reaction.server";
import type { ServiceRef } from "./service-events.server";

/** A plan of a change, as its event names it. */
interface PlanRef {
  productId: number;
  name: string;
}

export type PlanChangeEvent =
  /**
   * A customer moved a service to another plan of its type (docs/self-service.md): `amountCents`
   * charged (an upgrade, its invoice) or credited (a downgrade, its credit note) for the rest of the
   * term, which ends at `expiresAt` as before. `service` names it by its new plan. `resize`: the server
   * on the game panel to take the new plan's limits (null for a service no panel knows).
   */
  {
    type: "service.planChanged";
    actorId: string;
    service: ServiceRef;
    planChangeId: number;
    from: PlanRef;
    to: PlanRef;
    direction: PlanChangeDirection;
    amountCents: number;
    previousCyclePriceCents: number;
    newCyclePriceCents: number;
    expiresAt: string;
    ledgerEntryId: number | null;
    document: DocumentRef;
    resize: { serviceId: number; planChangeId: number } | null;
  };

/**
 * A resize is a few calls to the panel: with the worker's backoff, five attempts cover a panel down for
 * a quarter of an hour before the job is dead and staff told.
 */
const RESIZE_ATTEMPTS = 5;

/** What follows a change of plan: its audit row, the customer's notice and mail, the server's resize. */
export const planChangeReactions: ReactionTable<PlanChangeEvent> = {
  "service.planChanged": {
    audit: (event) => ({
      actorId: event.actorId,
      action: "service.plan_change",
      targetType: "hosting_service",
      targetId: event.service.id,
      before: {
        productId: event.from.productId,
        plan: event.from.name,
        cyclePriceCents: event.previousCyclePriceCents,
      },
      after: {
        productId: event.to.productId,
        plan: event.to.name,
        cyclePriceCents: event.newCyclePriceCents,
        direction: event.direction,
        amountCents: event.amountCents,
        document: event.document.number,
        planChangeId: event.planChangeId,
      },
    }),
    notice: ({ service, to, direction, amountCents }) => ({
      userId: service.userId,
      kind: direction === "upgrade" ? "service_plan_upgraded" : "service_plan_downgraded",
      params: { service: serviceLabel(service), plan: to.name, amountCents },
      link: SERVICES_TAB,
    }),
    // Its document goes with it, whatever the account tab says (a document always reaches its customer).
    mail: (event) => ({
      kind: "servicePlanChanged",
      userId: event.service.userId,
      serviceId: event.service.id,
      service: serviceLabel(event.service),
      planChangeId: event.planChangeId,
      fromPlan: event.from.name,
      toPlan: event.to.name,
      direction: event.direction,
      amountCents: event.amountCents,
      expiresAt: event.expiresAt,
      resized: event.resize !== null,
      document: event.document,
    }),
    jobs: ({ resize }) =>
      resize
        ? {
            type: PANEL_RESIZE_JOB,
            payload: { serviceId: resize.serviceId, planChangeId: resize.planChangeId },
            maxAttempts: RESIZE_ATTEMPTS,
          }
        : null,
  },
};
