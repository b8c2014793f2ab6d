import { idField } from "~/lib/id-field";
import { ticked, z } from "~/lib/zod";
import {
  CAMPAIGN_LOCALES,
  CAMPAIGN_PRODUCT_TYPES,
  MAX_CAMPAIGN_BODY,
  MAX_CAMPAIGN_SUBJECT,
  type CampaignAudience,
  type CampaignTexts,
} from "./campaigns";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code.

/** A text typed in one language: line ends made "\n", NUL dropped, trimmed; "" when left out. */
const clean = (value: string | undefined) =>
  (value ?? "").replaceAll("\u0000", "").replace(/\r\n?/g, "\n").trim();

const subject = (required: boolean) =>
  z
    .string()
    .optional()
    .transform(clean)
    .refine((value) => !required || value !== "", "campaigns.errors.subjectRequired")
    .refine((value) => value.length <= MAX_CAMPAIGN_SUBJECT, "campaigns.errors.subjectTooLong")
    .refine((value) => !value.includes("\n"), "campaigns.errors.subjectOneLine");

const body = (required: boolean) =>
  z
    .string()
    .optional()
    .transform(clean)
    .refine((value) => !required || value !== "", "campaigns.errors.bodyRequired")
    .refine((value) => value.length <= MAX_CAMPAIGN_BODY, "campaigns.errors.bodyTooLong");

export const campaignIdSchema = idField("campaigns.errors.notFound");

/** The editor's fields: a subject and a body per language (English's required), then the audience. */
export const campaignFields = {
  subject_en: subject(true),
  body_en: body(true),
  subject_fr: subject(false),
  body_fr: body(false),
  subject_ar: subject(false),
  body_ar: body(false),
  newsletter: ticked(),
  ...(Object.fromEntries(CAMPAIGN_PRODUCT_TYPES.map((type) => [`type_${type}`, ticked()])) as {
    [T in (typeof CAMPAIGN_PRODUCT_TYPES)[number] as `type_${T}`]: ReturnType<typeof ticked>;
  }),
  ...(Object.fromEntries(CAMPAIGN_LOCALES.map((locale) => [`locale_${locale}`, ticked()])) as {
    [L in (typeof CAMPAIGN_LOCALES)[number] as `locale_${L}`]: ReturnType<typeof ticked>;
  }),
};

type Fields = z.output<z.ZodObject<typeof campaignFields>>;

function campaignInputFrom(form: Fields): { texts: CampaignTexts; audience: CampaignAudience } {
  return {
    texts: {
      en: { subject: form.subject_en, body: form.body_en },
      fr: { subject: form.subject_fr, body: form.body_fr },
      ar: { subject: form.subject_ar, body: form.body_ar },
    },
    audience: {
      newsletter: form.newsletter,
      productTypes: CAMPAIGN_PRODUCT_TYPES.filter((type) => form[`type_${type}`]),
      locales: CAMPAIGN_LOCALES.filter((locale) => form[`locale_${locale}`]),
    },
  };
}

/** /admin/email-marketing's form: a new campaign. */
export const newCampaignSchema = z
  .object({ intent: z.literal("save"), ...campaignFields })
  .transform((form) => ({ intent: form.intent, ...campaignInputFrom(form) }));

/** A campaign's page: save the draft, send it to oneself, or send it. */
export const campaignActionSchema = z.discriminatedUnion(
  "intent",
  [
    z
      .object({ intent: z.literal("save"), ...campaignFields })
      .transform((form) => ({ intent: form.intent, ...campaignInputFrom(form) })),
    z.object({ intent: z.literal("test") }),
    z.object({ intent: z.literal("send") }),
  ],
  { error: "campaigns.errors.unknownAction" },
);
export type CampaignAction = z.infer<typeof campaignActionSchema>;

/** The token of an unsubscribe or confirmation link, as its address carries it. */
export const campaignTokenSchema = z.string().min(1).max(2048);

/** A one-click post (RFC 8058) or the page's button: the same field and value. */
export const unsubscribeSchema = z.object({
  "List-Unsubscribe": z.literal("One-Click", { error: "campaigns.unsubscribe.invalid" }),
});
