import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { FormFields, Switch, type FieldSpec } from "~/components/ui/form-card";
import { Fieldset, typedIn } from "~/components/ui/fieldset";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import {
  CAMPAIGN_LOCALE_LABELS,
  CAMPAIGN_LOCALES,
  CAMPAIGN_PRODUCT_TYPES,
  CAMPAIGN_TYPE_LABELS,
  MAX_CAMPAIGN_BODY,
  MAX_CAMPAIGN_SUBJECT,
  type Campaign,
} from "~/domain/campaigns/campaigns";
import { useTranslation } from "~/i18n/use-translation";
import type { CampaignActionResult } from "./campaign-shared";

/** The fields' values of a stored campaign, or of what was typed in a refused save. */
function valuesOf(
  campaign: Campaign | undefined,
  typed: Record<string, unknown> | undefined,
): { values: Record<string, string>; checked: Record<string, boolean> } {
  if (typed) {
    const values: Record<string, string> = {};
    const checked: Record<string, boolean> = {};
    for (const [name, value] of Object.entries(typed)) {
      if (typeof value !== "string") continue;
      if (/^(newsletter|type_|locale_)/.test(name)) checked[name] = value === "on";
      else values[name] = value;
    }
    return { values, checked };
  }
  const values: Record<string, string> = {};
  const checked: Record<string, boolean> = {};
  for (const locale of CAMPAIGN_LOCALES) {
    values[`subject_${locale}`] = campaign?.texts[locale].subject ?? "";
    values[`body_${locale}`] = campaign?.texts[locale].body ?? "";
  }
  checked.newsletter = campaign?.audience.newsletter ?? false;
  for (const type of campaign?.audience.productTypes ?? []) checked[`type_${type}`] = true;
  for (const locale of campaign?.audience.locales ?? []) checked[`locale_${locale}`] = true;
  return { values, checked };
}

/**
 * A campaign's editor: a subject and a body per language (English required, the others fall back to
 * it), then who it goes to. A new campaign's, or a draft's.
 */
export function CampaignEditor({
  campaign,
  result,
}: {
  campaign?: Campaign;
  result?: CampaignActionResult;
}) {
  const { t } = useTranslation("campaigns");
  const busy = useBusy();
  const refused = result && !result.ok && result.intent === "save" ? result : undefined;
  const { values, checked } = valuesOf(campaign, refused?.values);
  const textFields = (locale: (typeof CAMPAIGN_LOCALES)[number]): FieldSpec[] => [
    {
      kind: "input",
      name: `subject_${locale}`,
      label: t("fields.subject"),
      required: locale === "en",
      maxLength: MAX_CAMPAIGN_SUBJECT,
      autoComplete: "off",
      ...typedIn(locale),
    },
    {
      kind: "textarea",
      name: `body_${locale}`,
      label: t("fields.body"),
      hint: locale === "en" ? t("fields.bodyHint") : t("fields.fallbackHint"),
      variant: "validated",
      rows: 8,
      required: locale === "en",
      maxLength: MAX_CAMPAIGN_BODY,
      ...typedIn(locale),
    },
  ];
  const title = campaign ? t("editor.editTitle") : t("editor.newTitle");
  return (
    <Card id="editor" className="scroll-mt-20">
      <CardHeader>
        <CardTitle>{title}</CardTitle>
        <CardDescription>{t("editor.intro")}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-6" noValidate aria-label={title}>
          <input type="hidden" name="intent" value="save" />
          {refused ? <ResultMessage result={refused} /> : null}
          {CAMPAIGN_LOCALES.map((locale) => (
            <Fieldset key={locale} legend={t(CAMPAIGN_LOCALE_LABELS[locale])}>
              <FormFields
                fields={textFields(locale)}
                idPrefix="campaign"
                values={values}
                errors={refused?.fieldErrors}
              />
            </Fieldset>
          ))}
          <Fieldset legend={t("audience.title")}>
            <p className="text-sm text-muted-foreground">{t("audience.intro")}</p>
            <Switch
              id="campaign-newsletter"
              name="newsletter"
              label={t("audience.newsletter")}
              checked={checked.newsletter ?? false}
            />
            {CAMPAIGN_PRODUCT_TYPES.map((type) => (
              <Switch
                key={type}
                id={`campaign-type-${type}`}
                name={`type_${type}`}
                label={t("audience.customersOf", { type: t(CAMPAIGN_TYPE_LABELS[type]) })}
                checked={checked[`type_${type}`] ?? false}
              />
            ))}
          </Fieldset>
          <Fieldset legend={t("audience.languages")}>
            <p className="text-sm text-muted-foreground">{t("audience.languagesHint")}</p>
            {CAMPAIGN_LOCALES.map((locale) => (
              <Switch
                key={locale}
                id={`campaign-locale-${locale}`}
                name={`locale_${locale}`}
                label={t(CAMPAIGN_LOCALE_LABELS[locale])}
                checked={checked[`locale_${locale}`] ?? false}
              />
            ))}
          </Fieldset>
          <Button type="submit" disabled={busy} aria-busy={busy} className="w-fit">
            {busy ? t("editor.saving") : t("editor.save")}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
