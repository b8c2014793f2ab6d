import { z } from "~/lib/zod";
import { MAX_PASSWORD_LENGTH } from "./accounts";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

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
