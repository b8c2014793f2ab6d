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
  /** Placed and paid from coins; it waits for an admin. */
  | { type: "order.placed"; order: OrderRef; totalCents: number }
  /** Approved: its service made (`setup`: a server made on the game panel, or by hand). */
  | {
      type: "order.approved";
      actorId: string;
      order: OrderRef;
      serviceId: number;
      expiresAt: string;
      setup: "panel" | "manual";
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
    // Every new order waits for an admin's approval: the staff's Discord hears of it (when set), told
    // the plan alone (nothing the customer wrote); the admins' notifications name it as their mail does.
    staffPost: ({ order, totalCents }) => ({
      kind: "orderWaiting",
      orderId: order.id,
      product: order.productName,
      service: orderLabel(order),
      totalCents,
    }),
  },
  "order.approved": {
    audit: ({ actorId, order, serviceId, expiresAt }) => ({
      actorId,
      action: "order.approve",
      targetType: "order",
      targetId: order.id,
      before: { status: "pending" },
      after: { status: "approved", hostingServiceId: serviceId, expiresAt },
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
