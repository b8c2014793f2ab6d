import { z } from "~/lib/zod";
import { registerSchema } from "./accounts.schemas";

// The forgot-password and reset-password forms (messages in the auth namespace). The new password
// follows the register form's rules and words (6+ characters, confirmed); the use-case refuses a common
// one, as registration does.

const { email, password, confirmPassword } = registerSchema.shape;

export const forgotPasswordSchema = z.object({ email });

/** Longer than any token better-auth makes; the use-case checks its form (isResetToken). */
const MAX_TOKEN_LENGTH = 200;

/** The link's token travels in the form (a hidden field), as the page received it. */
const token = z.string().max(MAX_TOKEN_LENGTH).default("");

export const resetPasswordSchema = z
  .object({ token, newPassword: password, confirmPassword })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "errors.passwordsDoNotMatch",
    path: ["confirmPassword"],
  });

/** The page's query: the token of the link followed (anything, checked by the use-case). */
export const resetLinkQuerySchema = z.object({ token: z.string().max(MAX_TOKEN_LENGTH).catch("") });
