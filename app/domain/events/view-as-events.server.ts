import type { ViewAsEnding } from "~/domain/staff/view-as.server";
import type { ReactionTable } from "./reaction.server";

export type ViewAsEvent =
  /** A member of the staff began viewing the site as a customer (read-only). */
  | { type: "viewAs.started"; actorId: string; customerId: string }
  /** They stopped: by leaving the view, signing out, or viewing another customer. */
  | { type: "viewAs.ended"; actorId: string; customerId: string; via: ViewAsEnding };

/** Viewing as a customer is audited when it starts and when it ends, on the customer's account. */
export const viewAsReactions: ReactionTable<ViewAsEvent> = {
  "viewAs.started": {
    audit: (event) => ({
      actorId: event.actorId,
      action: "viewAs.start",
      targetType: "user",
      targetId: event.customerId,
    }),
  },
  "viewAs.ended": {
    audit: (event) => ({
      actorId: event.actorId,
      action: "viewAs.end",
      targetType: "user",
      targetId: event.customerId,
      after: { via: event.via },
    }),
  },
};
