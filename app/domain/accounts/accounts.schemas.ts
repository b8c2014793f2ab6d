import { isCountryCode } from "~/domain/invoices/billing-details";
import { requiredText, z } from "~/lib/zod";
import {
  MAX_EMAIL_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PASSWORD_LENGTH,
  MAX_REDIRECT_LENGTH,
  MIN_PASSWORD_LENGTH,
} from "./accounts";

// The sign-in, registration and password forms. Only actions, loaders, *.server.ts and tests import this
// file, so zod never reaches the browser (docs/architecture.md).

/**
 * Error messages are message-catalogue keys (namespace "auth"); the server's answer carries them and the UI
 * translates them.
 */
const email = requiredText("errors.emailRequired", MAX_EMAIL_LENGTH, "errors.emailInvalid")
  .pipe(z.email("errors.emailInvalid"))
  .transform((value) => value.toLowerCase());

const requiredPassword = z
  .string({ error: "errors.passwordRequired" })
  .min(1, "errors.passwordRequired")
  .max(MAX_PASSWORD_LENGTH, "errors.passwordTooLong");

const newPassword = z
  .string({ error: "errors.passwordRequired" })
  .min(1, "errors.passwordRequired")
  .min(MIN_PASSWORD_LENGTH, "errors.passwordTooShort")
  .max(MAX_PASSWORD_LENGTH, "errors.passwordTooLong");

export const registerSchema = z
  .object({
    name: requiredText("errors.nameRequired", MAX_NAME_LENGTH, "errors.nameTooLong"),
    email,
    password: newPassword,
    confirmPassword: z.string({ error: "errors.confirmRequired" }).min(1, "errors.confirmRequired"),
    // The billing country, whose VAT rate the invoices carry (docs/invoices.md); the page offers the
    // shop's own first. Not sent (a form from before it), the route gives the shop's.
    country: z
      .string({ error: "errors.countryInvalid" })
      .trim()
      .toUpperCase()
      .refine(isCountryCode, "errors.countryInvalid")
      .optional(),
  })
  .refine((value) => value.password === value.confirmPassword, {
    message: "errors.passwordsDoNotMatch",
    path: ["confirmPassword"],
  });

export const loginSchema = z.object({
  email,
  password: requiredPassword,
  redirectTo: z.string().max(MAX_REDIRECT_LENGTH).optional(),
});

export const changePasswordSchema = z
  .object({
    currentPassword: requiredPassword,
    newPassword,
    confirmPassword: z.string({ error: "errors.confirmRequired" }).min(1, "errors.confirmRequired"),
  })
  .refine((value) => value.newPassword === value.confirmPassword, {
    message: "errors.passwordsDoNotMatch",
    path: ["confirmPassword"],
  })
  .refine((value) => value.newPassword !== value.currentPassword, {
    message: "errors.passwordUnchanged",
    path: ["newPassword"],
  });

export type RegisterInput = z.infer<typeof registerSchema>;
export type LoginInput = z.infer<typeof loginSchema>;
