import { idField } from "~/lib/id-field";
import { z } from "~/lib/zod";
import { westernDigits } from "~/lib/western-digits";
import { parseCoinAmount } from "~/domain/coins/coins";
import {
  DEFAULT_REFERRAL_SETTINGS,
  MAX_MONTHLY_CAP_CENTS,
  MAX_PERCENT_BASIS_POINTS,
  parsePercent,
  REFERRAL_STATES,
} from "./referrals";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The settings as stored (the `referrals` row of the settings table): anything missing is a default. */
export const storedReferralSettingsSchema = z.object({
  enabled: z.boolean().catch(DEFAULT_REFERRAL_SETTINGS.enabled),
  percentBasisPoints: z
    .number()
    .int()
    .min(0)
    .max(MAX_PERCENT_BASIS_POINTS)
    .catch(DEFAULT_REFERRAL_SETTINGS.percentBasisPoints),
  monthlyCapCents: z
    .number()
    .int()
    .min(0)
    .max(MAX_MONTHLY_CAP_CENTS)
    .catch(DEFAULT_REFERRAL_SETTINGS.monthlyCapCents),
});

/** The admin's settings form: the switch, a percentage ("10", "7.5") and a cap in coins ("50", "0"). */
export const referralSettingsFormSchema = z.object({
  intent: z.literal("settings"),
  enabled: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "1" || value === "true"),
  percent: z.string({ error: "referrals.errors.percentInvalid" }).transform((value, ctx) => {
    const points = parsePercent(westernDigits(value));
    if (points === null) {
      ctx.addIssue({ code: "custom", message: "referrals.errors.percentInvalid" });
      return z.NEVER;
    }
    return points;
  }),
  cap: z.string({ error: "referrals.errors.capInvalid" }).transform((value, ctx) => {
    const cents = value.trim() === "0" ? 0 : parseCoinAmount(value);
    if (cents === null || cents < 0 || cents > MAX_MONTHLY_CAP_CENTS) {
      ctx.addIssue({ code: "custom", message: "referrals.errors.capInvalid" });
      return z.NEVER;
    }
    return cents;
  }),
});

/** A flagged referral's decision. */
export const referralDecisionSchema = z.object({
  intent: z.enum(["pay", "reject"], { error: "referrals.errors.decisionInvalid" }),
  id: idField("referrals.errors.referralNotFound"),
});

/** Every form of /admin/affiliates: the settings, or a flagged referral's decision. */
export const affiliatesActionSchema = z.discriminatedUnion("intent", [
  referralSettingsFormSchema,
  referralDecisionSchema,
]);

/** The admin page's query: a state to filter by, and the page. */
export const affiliatesQuerySchema = z.object({
  state: z.enum(REFERRAL_STATES).optional().catch(undefined),
  page: z.coerce.number().int().min(1).max(10_000).catch(1),
});

/** The customer's referrals page's one form: "Get my link" makes their code, once. */
export const referralLinkActionSchema = z.object({ intent: z.literal("createLink") });
