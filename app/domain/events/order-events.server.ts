import { serviceLabel } from "~/domain/hosting-services/hosting-services";
import type { DocumentRef } from "~/domain/mail/mail-events";
import { SERVICES_TAB, type Notice, type ReactionTable } from "./reaction.server";

/** An order as its events name it: whose it is, its plan and its server's name. */
export interface OrderRef {
  id: number;
  userId: string;
  productName: string;
  serverName: string;
}

export type OrderEvent =
  /**
   * Placed and paid from coins; it waits for an admin, unless the system approves it at once
   * (`approvedAutomatically`: its `order.approved` follows in the same transaction).
   */
  | { type: "order.placed"; order: OrderRef; totalCents: number; approvedAutomatically: boolean }
  /**
   * Approved: its service made (`setup`: a server made on the game panel, or by hand), by an admin or by
   * the system as it was placed (`automatic`, no actor: its plan activates when paid).
   */
  | {
      type: "order.approved";
      actorId: string | null;
      automatic: boolean;
      order: OrderRef;
      serviceId: number;
      expiresAt: string;
      setup: "panel" | "manual";
      totalCents: number;
    }
  /**
   * Rejected by an admin, or given up on by the lifecycle (`expired`, no actor): the coins paid back
   * (`refundCents`) with its invoice's credit note.
   */
  | {
      type: "order.rejected";
      actorId: string | null;
      order: OrderRef;
      reason: string;
      totalCents: number;
      refundCents: number;
      expired?: { days: number; now: Date };
      creditNote: DocumentRef | null;
    };

/** An order's plan and server, as every notice and mail names a service (`serviceLabel`). */
const orderLabel = (order: OrderRef) =>
  serviceLabel({ name: order.productName, serverName: order.serverName });

/** What follows an order's placing, approval and rejection. */
export const orderReactions: ReactionTable<OrderEvent> = {
  "order.placed": {
    // The customer's "order received" and each admin's "order waiting" (docs/mail.md).
    mail: ({ order, totalCents }) => ({
      kind: "orderReceived",
      orderId: order.id,
      userId: order.userId,
      product: orderLabel(order),
      totalCents,
    }),
    // A new order that waits for an admin's approval: the staff's Discord hears of it (when set), told
    // the plan alone (nothing the customer wrote); the admins' notifications name it as their mail does.
    // One the system approved is told by its approval instead.
    staffPost: ({ order, totalCents, approvedAutomatically }) =>
      approvedAutomatically
        ? null
        : {
            kind: "orderWaiting",
            orderId: order.id,
            product: order.productName,
            service: orderLabel(order),
            totalCents,
          },
  },
  "order.approved": {
    audit: ({ actorId, automatic, order, serviceId, expiresAt }) => ({
      actorId,
      action: "order.approve",
      targetType: "order",
      targetId: order.id,
      before: { status: "pending" },
      after: {
        status: "approved",
        hostingServiceId: serviceId,
        expiresAt,
        ...(automatic ? { automatic: true } : {}),
      },
      ...(automatic
        ? { reason: "Activated when paid: a trusted customer, room on the panel" }
        : {}),
    }),
    notice: ({ order }) => ({
      userId: order.userId,
      kind: "order_approved",
      params: { id: order.id, product: orderLabel(order) },
      link: SERVICES_TAB,
    }),
    // Approved is not ready: a server made on the panel is mailed again once installed (serviceReady).
    mail: ({ order, setup }) => ({
      kind: "orderApproved",
      orderId: order.id,
      userId: order.userId,
      product: orderLabel(order),
      setup,
    }),
    // The system approved it as it was placed: staff hear of it as of an order waiting, told it is
    // approved already (the same notice and post an order gets, once).
    staffPost: ({ automatic, order, totalCents }) =>
      automatic
        ? {
            kind: "orderApprovedAutomatically",
            orderId: order.id,
            product: order.productName,
            service: orderLabel(order),
            totalCents,
          }
        : null,
  },
  "order.rejected": {
    audit: ({ actorId, order, reason, totalCents, expired }) => ({
      actorId,
      action: expired ? "order.expire" : "order.reject",
      targetType: "order",
      targetId: order.id,
      before: { status: "pending" },
      after: { status: "rejected", refundedCents: totalCents },
      reason,
    }),
    notice: ({ order, reason, expired }): Notice =>
      expired
        ? {
            userId: order.userId,
            kind: "order_expired",
            params: { id: order.id, product: orderLabel(order), count: expired.days },
            link: "/dashboard/billing",
          }
        : {
            userId: order.userId,
            kind: "order_rejected",
            params: { id: order.id, product: orderLabel(order), reason },
            link: "/dashboard/billing",
          },
    mail: ({ order, reason, refundCents, expired, creditNote }) => ({
      kind: "orderRejected",
      orderId: order.id,
      userId: order.userId,
      product: orderLabel(order),
      reason,
      refundCents,
      // The lifecycle's reason is the audit log's English: the message says it in the reader's words.
      expiredDays: expired?.days,
      // The credit note, named and linked in the same message (docs/mail.md#documents-and-top-ups).
      document: creditNote && {
        kind: creditNote.kind,
        number: creditNote.number,
        totalCents: creditNote.totalCents,
      },
    }),
  },
};
