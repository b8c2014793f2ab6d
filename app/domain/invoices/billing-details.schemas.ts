import { withoutDirectionalControls } from "~/lib/bidi";
import { z } from "~/lib/zod";
import { BILLING_ADDRESS_MAX, BILLING_NAME_MAX, isCountryCode } from "./billing-details";

// Schemas only: actions, *.server.ts and tests import this file, never a page's code.

/** What a person typed, as a document will keep it: trimmed, without directional controls (lib/bidi.ts). */
const plain = (value: string) => withoutDirectionalControls(value).trim();

/** The account tab's billing card: each field may be left empty; the country is a code of the list. */
export const billingDetailsSchema = z.object({
  intent: z.literal("billing-details"),
  billingName: z
    .string()
    .transform(plain)
    .pipe(z.string().max(BILLING_NAME_MAX, "invoices.errors.billingNameTooLong"))
    .default(""),
  billingAddress: z
    .string()
    .transform(plain)
    .pipe(z.string().max(BILLING_ADDRESS_MAX, "invoices.errors.billingAddressTooLong"))
    .default(""),
  billingCountry: z
    .string()
    .trim()
    .toUpperCase()
    .default("")
    .refine((code) => code === "" || isCountryCode(code), "invoices.errors.countryInvalid"),
});
export type BillingDetailsInput = z.infer<typeof billingDetailsSchema>;
