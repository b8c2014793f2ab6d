import { pageParam } from "~/lib/query-params";
import { requiredText, z } from "~/lib/zod";
import { MAX_EMAIL_LENGTH } from "./accounts";
import { MAX_ADDRESS_LENGTH, THROTTLE_KINDS } from "./login-throttle";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The page's query string: anything unexpected is ignored rather than failing. */
export const securityQuerySchema = z.object({
  email: z.string().trim().max(MAX_EMAIL_LENGTH).optional().catch(undefined),
  address: z.string().trim().max(MAX_ADDRESS_LENGTH).optional().catch(undefined),
  page: pageParam,
});
export type SecurityQuery = z.infer<typeof securityQuerySchema>;

export const securityActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("revoke-session"),
      sessionId: requiredText("admin-security.errors.sessionNotFound", 100),
    }),
    z.object({ intent: z.literal("revoke-others") }),
    z.object({
      intent: z.literal("lift-block"),
      kind: z.enum(THROTTLE_KINDS, { error: "admin-security.errors.notBlocked" }),
      // The address, email or pair exactly as listed (it is compared, never parsed).
      key: z
        .string({ error: "admin-security.errors.notBlocked" })
        .min(1, "admin-security.errors.notBlocked")
        .max(MAX_EMAIL_LENGTH + 1 + MAX_ADDRESS_LENGTH, "admin-security.errors.notBlocked"),
    }),
  ],
  { error: "admin-security.errors.unknownAction" },
);
export type SecurityActionInput = z.infer<typeof securityActionSchema>;
