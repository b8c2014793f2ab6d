import { requiredText, z } from "~/lib/zod";
import { MAX_PASSWORD_LENGTH, MAX_REDIRECT_LENGTH } from "./accounts";
import { MAX_CODE_LENGTH } from "./two-factor";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/**
 * The password each form of the card asks for, missing with that form's own message: the profile
 * card's ("to change your email") belongs to the profile card.
 */
const currentPassword = (
  required:
    | "dashboard.twoFactor.errors.passwordToStart"
    | "dashboard.twoFactor.errors.passwordToRegenerate"
    | "dashboard.twoFactor.errors.passwordToDisable",
) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(MAX_PASSWORD_LENGTH, "dashboard.account.currentPasswordWrong");

const accountCode = requiredText(
  "dashboard.twoFactor.errors.codeRequired",
  MAX_CODE_LENGTH,
  "dashboard.twoFactor.errors.codeWrong",
);

/** The account tab's two-factor card: its forms, told apart by `intent`. */
export const twoFactorActionSchema = z.discriminatedUnion(
  "intent",
  [
    z.object({
      intent: z.literal("two-factor-start"),
      currentPassword: currentPassword("dashboard.twoFactor.errors.passwordToStart"),
    }),
    z.object({ intent: z.literal("two-factor-confirm"), code: accountCode }),
    z.object({ intent: z.literal("two-factor-cancel") }),
    z.object({
      intent: z.literal("two-factor-regenerate"),
      currentPassword: currentPassword("dashboard.twoFactor.errors.passwordToRegenerate"),
    }),
    z.object({
      intent: z.literal("two-factor-disable"),
      currentPassword: currentPassword("dashboard.twoFactor.errors.passwordToDisable"),
      code: accountCode,
    }),
  ],
  { error: "dashboard.twoFactor.errors.unknownForm" },
);
export type TwoFactorActionInput = z.infer<typeof twoFactorActionSchema>;

/** The code step of the login page (auth namespace keys). */
export const signInCodeSchema = z.object({
  step: z.literal("code"),
  method: z.enum(["totp", "backup"]).catch("totp"),
  code: requiredText(
    "twoFactor.errors.codeRequired",
    MAX_CODE_LENGTH,
    "twoFactor.errors.codeWrong",
  ),
  trustDevice: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true"),
  redirectTo: z.string().max(MAX_REDIRECT_LENGTH).optional(),
});
export type SignInCodeInput = z.infer<typeof signInCodeSchema>;

/** Which code the login page's code step asks for (`?step=`). */
export const codeStepQuerySchema = z.object({
  step: z.enum(["code", "backup"]).optional().catch(undefined),
});
