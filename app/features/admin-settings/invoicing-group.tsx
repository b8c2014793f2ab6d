import type { CountryChoice } from "~/domain/invoices/billing-details";
import { useTranslation } from "~/i18n/use-translation";
import {
  formatVatRates,
  MAX_RETENTION_YEARS,
  MAX_VAT_RATES,
  SELLER_ADDRESS_MAX,
  type Settings,
} from "~/domain/settings/settings";
import { SectionState, settingsRow, type SettingsGroup } from "./settings-group";

/**
 * Invoices and receipts (docs/invoices.md): the seller's details every document carries, the
 * VAT switch and its rates per billing country (with how many customers have no country, whom no rate
 * reaches), the shop's country that registration offers first, whether the storefront's prices include
 * VAT, and how many years the accounting records are kept.
 */
export function useInvoicingGroup(
  settings: Settings,
  {
    countries,
    customersWithoutCountry,
  }: { countries: readonly CountryChoice[]; customersWithoutCountry: number },
): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  const invoicing = settings.invoicing;
  return {
    form: "invoicing",
    title: t("invoicing.title"),
    description: t("invoicing.description"),
    // The rates are edited one "MA 20" a line.
    stored: { ...invoicing, vatRates: formatVatRates(invoicing.vatRates) },
    aside: <SectionState section="invoicing" holds={invoicing.vatEnabled} />,
    fields: [
      settingsRow(2, [
        {
          kind: "input",
          type: "text",
          name: "sellerName",
          label: t("invoicing.sellerName"),
          maxLength: 120,
          dir: "auto",
        },
        {
          kind: "input",
          type: "text",
          name: "sellerTaxId",
          label: t("invoicing.sellerTaxId"),
          hint: t("invoicing.sellerTaxIdHint"),
          maxLength: 60,
          dir: "ltr",
        },
      ]),
      {
        kind: "textarea",
        rows: 3,
        variant: "validated",
        name: "sellerAddress",
        label: t("invoicing.sellerAddress"),
        maxLength: SELLER_ADDRESS_MAX,
        dir: "auto",
      },
      {
        kind: "switch",
        name: "vatEnabled",
        label: t("invoicing.vatEnabled"),
        hint: t("invoicing.vatEnabledHint"),
      },
      {
        kind: "textarea",
        rows: 3,
        variant: "validated",
        name: "vatRates",
        label: t("invoicing.vatRates"),
        hint: t("invoicing.vatRatesHint", { max: MAX_VAT_RATES }),
        maxLength: MAX_VAT_RATES * 12,
        dir: "ltr",
      },
      {
        kind: "custom",
        key: "customersWithoutCountry",
        content: (
          <p className="text-sm" data-testid="customers-without-country">
            {customersWithoutCountry === 0
              ? t("invoicing.withoutCountryNone")
              : t("invoicing.withoutCountry", { count: customersWithoutCountry })}
          </p>
        ),
      },
      {
        kind: "select",
        variant: "form",
        name: "shopCountry",
        label: t("invoicing.shopCountry"),
        hint: t("invoicing.shopCountryHint"),
        // Sized by its box, not by its longest name, which would widen the card past a phone's screen.
        style: { contain: "inline-size" },
        options: countries,
      },
      {
        kind: "switch",
        name: "pricesIncludeVat",
        label: t("invoicing.pricesIncludeVat"),
        hint: t("invoicing.pricesIncludeVatHint"),
      },
      {
        kind: "input",
        type: "number",
        name: "retentionYears",
        label: t("invoicing.retentionYears"),
        hint: t("invoicing.retentionYearsHint"),
        min: 1,
        max: MAX_RETENTION_YEARS,
        step: 1,
        inputMode: "numeric",
        dir: "ltr",
        className: "w-28",
      },
    ],
  };
}
