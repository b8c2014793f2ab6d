import { pageParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { PAYMENT_PROVIDERS, PROVIDER_MODES } from "./provider";
import {
  MAX_PROVIDER_URL_LENGTH,
  MAX_PUBLIC_ID_LENGTH,
  MAX_SECRET_LENGTH,
  MAX_WEBHOOK_ID_LENGTH,
} from "./provider-settings";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The intents of /admin/gateways' provider forms: one a provider, named by it. */
export const PROVIDER_INTENTS = PAYMENT_PROVIDERS.map(
  (provider) => `provider-${provider}` as const,
);

/** Printable characters without spaces: what providers' identifiers and keys are made of. */
const TOKEN = /^[\x21-\x7e]*$/;

/** An identifier or key as typed: trimmed, printable, at most `max` characters ("" when left out). */
function token(max: number, invalid: string) {
  return z
    .string()
    .optional()
    .transform((value) => (value ?? "").trim())
    .refine((value) => value.length <= max && TOKEN.test(value), invalid);
}

/** The address as typed (empty: the mode's documented one); the save reads and checks it. */
const apiUrl = z
  .string()
  .optional()
  .transform((value) => (value ?? "").trim())
  .refine(
    (value) => value.length <= MAX_PROVIDER_URL_LENGTH,
    "payments.providers.errors.urlInvalid",
  );

const providerFields = {
  mode: z.enum(PROVIDER_MODES, "payments.providers.errors.modeInvalid"),
  apiUrl,
  publicId: token(MAX_PUBLIC_ID_LENGTH, "payments.providers.errors.publicIdInvalid"),
  // Empty keeps the saved secret (the page never shows it).
  secret: token(MAX_SECRET_LENGTH, "payments.providers.errors.secretInvalid").transform((value) =>
    value === "" ? null : value,
  ),
  webhookId: token(MAX_WEBHOOK_ID_LENGTH, "payments.providers.errors.webhookIdInvalid"),
};

/**
 * /admin/gateways' provider forms: `provider-paypal` or `provider-youcanpay`, each with its mode, API
 * address, public identifier, secret (empty keeps the saved one) and, for PayPal, webhook id.
 */
export const providerSettingsActionSchema = z
  .discriminatedUnion(
    "intent",
    [
      z.object({ intent: z.literal("provider-paypal"), ...providerFields }),
      z.object({ intent: z.literal("provider-youcanpay"), ...providerFields }),
    ],
    { error: "payments.errors.unknownAction" },
  )
  .transform(({ intent, ...fields }) => ({
    intent,
    provider: intent === "provider-paypal" ? ("paypal" as const) : ("youcanpay" as const),
    ...fields,
  }));
export type ProviderSettingsAction = z.output<typeof providerSettingsActionSchema>;

/** The refused notifications' page on /admin/gateways (`?refused=2`). */
export const refusedNotificationsQuerySchema = z.object({ refused: pageParam });
