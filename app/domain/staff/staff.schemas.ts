import { requiredText, z } from "~/lib/zod";
import { MAX_EMAIL_LENGTH } from "~/domain/accounts/accounts";
import { STAFF_ROLES } from "./permissions";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

const userId = requiredText("admin-staff.members.errors.notStaff", 100);
const role = z.enum(STAFF_ROLES, { error: "admin-staff.members.errors.roleInvalid" });

/** The /admin/staff page's one action: add an account by its email, change a role, remove a member. */
export const staffActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("add"),
      email: requiredText("auth.errors.emailRequired", MAX_EMAIL_LENGTH, "auth.errors.emailInvalid")
        .pipe(z.email("auth.errors.emailInvalid"))
        .transform((value) => value.toLowerCase()),
      role,
    }),
    z.object({ intent: z.literal("role"), userId, role }),
    z.object({ intent: z.literal("remove"), userId }),
  ],
  { error: "admin-staff.members.errors.unknownAction" },
);
export type StaffActionInput = z.infer<typeof staffActionSchema>;
