import { z } from "~/lib/zod";
import { MAX_PASSWORD_LENGTH } from "./accounts";

// A customer's request to delete their account, and the admin's completion of it (ADR 19,
// docs/security.md#account-deletion). Messages are catalogue keys ("namespace.key").

/** The account tab's two deletion forms: ask (with the current password) and cancel. */
export const deletionActionSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("request-deletion"),
    currentPassword: z
      .string({ error: "dashboard.deletion.passwordRequired" })
      .min(1, "dashboard.deletion.passwordRequired")
      .max(MAX_PASSWORD_LENGTH, "dashboard.account.currentPasswordWrong"),
  }),
  z.object({ intent: z.literal("cancel-deletion") }),
]);
export type DeletionActionInput = z.infer<typeof deletionActionSchema>;

/** A pending request as the account tab shows it: when, and what the account held then. */
export interface PendingDeletion {
  requestedAt: string;
  activeServices: number;
  pendingOrders: number;
  balanceCents: number;
}
