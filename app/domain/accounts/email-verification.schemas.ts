import { z } from "~/lib/zod";

// The verification page's inputs (docs/accounts.md). A token is better-auth's JWT: a few hundred
// characters; anything longer or empty is no token of ours and reads as an invalid link.
export const verifyEmailTokenSchema = z.string().trim().min(20).max(4000);

/** /verify-email's one form: "send the message again". */
export const verifyEmailActionSchema = z.object({ intent: z.literal("resend") });
