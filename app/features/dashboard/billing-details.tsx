import { Form, useNavigation } from "react-router";
import { TitledCard } from "~/components/ui/card";
import { FormFields } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import {
  BILLING_ADDRESS_MAX,
  BILLING_NAME_MAX,
  type BillingDetails,
  type CountryChoice,
} from "~/domain/invoices/billing-details";
import { useTranslation } from "~/i18n/use-translation";
import type { MessageKey } from "~/i18n/use-message";
import { CardSubmit } from "./card-submit";

export interface BillingDetailsResult {
  ok: boolean;
  form: "billing";
  message: MessageKey;
  fieldErrors?: Partial<Record<string, MessageKey>>;
  /** What was typed, shown again after a refusal. */
  values?: Record<string, string>;
}

/**
 * The account tab's billing card (docs/invoices.md): the name, address and country the next
 * invoices are made out to; the country decides the VAT rate.
 */
export function BillingDetailsCard({
  details,
  countries,
  result,
}: {
  details: BillingDetails;
  /** The countries in the reader's language and order, named on the server (the loader's). */
  countries: readonly CountryChoice[];
  result?: BillingDetailsResult;
}) {
  const { t } = useTranslation("invoices");
  const busy = useNavigation().state !== "idle";
  const typed = result && !result.ok ? result.values : undefined;
  return (
    <TitledCard title={t("billing.title")}>
      <Form method="post" className="grid gap-3" noValidate>
        <input type="hidden" name="intent" value="billing-details" />
        <p className="text-sm text-muted-foreground">{t("billing.intro")}</p>
        {result ? <ResultMessage result={result} /> : null}
        <FormFields
          idPrefix="billing"
          fields={[
            {
              kind: "input",
              name: "billingName",
              label: t("billing.name"),
              hint: t("billing.nameHint"),
              maxLength: BILLING_NAME_MAX,
              autoComplete: "billing name",
              dir: "auto",
            },
            {
              kind: "textarea",
              variant: "validated",
              rows: 3,
              name: "billingAddress",
              label: t("billing.address"),
              maxLength: BILLING_ADDRESS_MAX,
              autoComplete: "billing street-address",
              dir: "auto",
            },
            {
              kind: "select",
              variant: "form",
              name: "billingCountry",
              label: t("billing.country"),
              hint: t("billing.countryHint"),
              autoComplete: "billing country",
              // Sized by its box, not by its longest name ("Territoire britannique de l’océan Indien"),
              // which would widen the card past a 360 px phone's screen.
              style: { contain: "inline-size" },
              options: [{ value: "", label: t("billing.noCountry") }, ...countries],
            },
          ]}
          values={
            typed ?? {
              billingName: details.name,
              billingAddress: details.address,
              billingCountry: details.country,
            }
          }
          errors={result?.fieldErrors ?? {}}
        />
        <CardSubmit busy={busy}>{t("billing.save")}</CardSubmit>
      </Form>
    </TitledCard>
  );
}
