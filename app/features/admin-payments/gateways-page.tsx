import { badgeColumn, column } from "~/components/data-table/column-presets";
import { CellWithNote, type Column } from "~/components/data-table/data-table";
import {
  EditorFields,
  EditorPage,
  useEditorForm,
  type EditorFormState,
} from "~/components/list-editor/editor-page";
import {
  ListEditorPage,
  NewLink,
  type EditorActionResult,
  type EditorProps,
  type RowActionsProps,
} from "~/components/list-editor/list-editor-page";
import { Badge } from "~/components/ui/badge";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { typedIn } from "~/components/ui/fieldset";
import { FreshProofField } from "~/components/ui/fresh-proof-field";
import { choicesOf, type FieldSpec } from "~/components/ui/form-card";
import { Notice } from "~/components/ui/notice";
import { PageHeading } from "~/components/ui/page-heading";
import {
  CURRENCY_LABELS,
  formatBasisPoints,
  formatMethodAmount,
  INSTRUCTIONS_FIELDS,
  isOnlineKind,
  ONLINE_KIND_LABELS,
  ONLINE_METHOD_CURRENCY,
  MAX_INSTRUCTIONS_LENGTH,
  MAX_METHOD_NAME_LENGTH,
  NAME_FIELDS,
  PAYMENT_CURRENCIES,
  PAYMENT_TEXT_LOCALES,
  quoteTopUp,
  TEXT_LOCALE_LABELS,
  textIn,
  type PaymentMethod,
  type PaymentMethodListQuery,
  type PaymentTextLocale,
} from "~/domain/payments/payment-methods";
import { useTranslation } from "~/i18n/use-translation";
import { centsToEuroInput } from "~/lib/euro-input";
import {
  ProviderSections,
  type ProviderActionResult,
  type RefusedNotificationsPage,
} from "./provider-sections";
import type { ProviderSettingsView } from "~/domain/payments/providers/provider-settings";

export type { ProviderActionResult } from "./provider-sections";

// /admin/gateways (docs/payments.md): the payment methods as a list, and the editor of one on
// the same address (?edit=<id>, ?edit=new), built from the kit's list with an editor.

const LIST_PATH = "/admin/gateways";

interface GatewaysPageProps {
  methods: PaymentMethod[];
  /** The method whose form is open, "new", null when the asked one does not exist, or none. */
  editing: PaymentMethod | "new" | null | undefined;
  defaultLocale: PaymentTextLocale;
  query: PaymentMethodListQuery;
  locale: string;
  result?: EditorActionResult;
  /** The online providers' connections and the notifications they sent that were refused. */
  providers: ProviderSettingsView[];
  refused: RefusedNotificationsPage;
  providerResult?: ProviderActionResult;
  /** The session's proof of identity is fresh: saving a method or a provider asks for none. */
  proofFresh: boolean;
}

/** "MAD 5.00 + 2.5%", "2.5%", "None". */
function feeText(method: PaymentMethod, locale: string, none: string): string {
  const parts = [
    method.feeFixed > 0 ? formatMethodAmount(method.feeFixed, method.currency, locale) : null,
    method.feePercentBp > 0 ? formatBasisPoints(method.feePercentBp, locale) : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(" + ") : none;
}

export function GatewaysPage(page: GatewaysPageProps) {
  const { methods, defaultLocale, locale } = page;
  const { t } = useTranslation("payments");
  const { t: tAdmin } = useTranslation("admin");
  const nameOf = (method: PaymentMethod) => textIn(method.names, locale, defaultLocale);
  const columns: Column<PaymentMethod>[] = [
    column(
      "name",
      t("admin.columns.name"),
      (method) => (
        <CellWithNote
          value={
            <p className="scroll-mt-20 font-semibold" id={`method-${method.id}`}>
              <bdi>{nameOf(method)}</bdi>{" "}
              {method.builtin ? <Badge tone="blue">{t("admin.builtin")}</Badge> : null}{" "}
              {isOnlineKind(method.kind) ? (
                <Badge tone="green">{t(ONLINE_KIND_LABELS[method.kind])}</Badge>
              ) : null}
            </p>
          }
          note={method.code}
          dir="ltr"
        />
      ),
      { wide: true },
    ),
    column("currency", t("admin.columns.currency"), (method) =>
      t(CURRENCY_LABELS[method.currency]),
    ),
    column(
      "rate",
      t("admin.columns.rate"),
      (method) => (
        <span className="font-mono md:whitespace-nowrap" dir="ltr">
          {formatMethodAmount(method.rate, method.currency, locale)}
        </span>
      ),
      { headerClassName: "md:text-end", className: "md:text-end" },
    ),
    column("bounds", t("admin.columns.bounds"), (method) =>
      t("admin.bounds", {
        min: method.minCoins.toLocaleString(locale),
        max: method.maxCoins.toLocaleString(locale),
      }),
    ),
    column("fee", t("admin.columns.fee"), (method) => (
      <span dir="ltr">{feeText(method, locale, t("admin.noFee"))}</span>
    )),
    badgeColumn(
      "state",
      t("admin.columns.state"),
      (method) => ({
        tone: method.enabled ? "green" : "grey",
        text: t(method.enabled ? "admin.on" : "admin.off"),
      }),
      { label: true },
    ),
  ];
  /** A row's buttons: edit, switch on or off, and delete for a method of the admin's own. */
  const actionsOf = (method: PaymentMethod): RowActionsProps => {
    const name = nameOf(method);
    return {
      action: LIST_PATH,
      id: method.id,
      edit: { label: t("admin.edit"), accessibleName: t("admin.editFor", { name }) },
      toggle: {
        intent: method.enabled ? "disable" : "enable",
        label: t(method.enabled ? "admin.disable" : "admin.enable"),
        accessibleName: t(method.enabled ? "admin.disableFor" : "admin.enableFor", { name }),
      },
      children: method.builtin ? null : (
        <ConfirmDialog
          fields={{ intent: "delete", id: String(method.id) }}
          labels={{
            title: t("admin.deleteTitle"),
            confirm: t("admin.delete"),
            cancel: t("admin.cancel"),
            close: t("admin.close"),
            trigger: t("admin.delete"),
            triggerFor: t("admin.deleteFor", { name }),
            text: t("admin.deleteText", { name }),
          }}
        />
      ),
    };
  };
  return (
    <ListEditorPage
      page={page}
      editor={MethodEditor}
      header={
        <PageHeading
          title={tAdmin("nav.gateways")}
          intro={t("admin.intro")}
          action={<NewLink label={t("admin.new")} />}
        />
      }
      table={{ caption: tAdmin("nav.gateways"), columns, rows: methods }}
      rowActions={{
        header: t("admin.columns.actions"),
        className: "flex flex-wrap items-center gap-2 md:flex-nowrap",
        of: actionsOf,
      }}
      empty={t("admin.empty")}
      footer={
        <ProviderSections
          providers={page.providers}
          refused={page.refused}
          result={page.providerResult}
          locale={locale}
          proofNeeded={!page.proofFresh}
        />
      }
      notices={{
        created: t("admin.created"),
        updated: t("admin.updated"),
        notFound: t("errors.notFound"),
      }}
    />
  );
}

/** The form's fields as the stored method writes them (a new one: euros, 1 to 1,000 coins, last). */
function initialValues(method: PaymentMethod | undefined, count: number): Record<string, string> {
  if (!method)
    return {
      currency: "EUR",
      rate: "",
      minCoins: "1",
      maxCoins: "1000",
      sortOrder: `${count + 1}`,
    };
  return {
    ...Object.fromEntries(
      PAYMENT_TEXT_LOCALES.flatMap((locale) => [
        [NAME_FIELDS[locale], method.names[locale]],
        [INSTRUCTIONS_FIELDS[locale], method.instructions[locale]],
      ]),
    ),
    currency: method.currency,
    rate: method.currency === "MAD" ? centsToEuroInput(method.rate) : "",
    minCoins: String(method.minCoins),
    maxCoins: String(method.maxCoins),
    feeFixed: method.feeFixed > 0 ? centsToEuroInput(method.feeFixed) : "",
    // Basis points are hundredths of a percent: 250 is "2.50".
    feePercent: method.feePercentBp > 0 ? centsToEuroInput(method.feePercentBp) : "",
    sortOrder: String(method.sortOrder),
    enabled: method.enabled ? "on" : "",
  };
}

/** A sample top-up with the method's saved terms: ten coins, or the nearest its bounds allow. */
function Example({ method, locale }: { method: PaymentMethod; locale: string }) {
  const { t } = useTranslation("payments");
  const coins = Math.min(Math.max(10, method.minCoins), method.maxCoins);
  const quote = quoteTopUp(method, coins);
  if (!quote.ok) return null;
  const money = (minor: number) => formatMethodAmount(minor, method.currency, locale);
  return (
    <p className="text-sm text-muted-foreground">
      {t("admin.example", {
        coins,
        amount: money(quote.quote.amount),
        total: money(quote.quote.total),
      })}
    </p>
  );
}

/** Two of the terms' fields side by side from 640 px. */
function termsRow(...fields: FieldSpec[]): FieldSpec {
  return { kind: "row", className: "grid items-start gap-4 sm:grid-cols-2", fields };
}

/** A figure the admin types (a rate, a fee, a bound): no suggestions, left to right, a number pad. */
function figure(
  name: string,
  label: string,
  hint: string | undefined,
  inputMode: "decimal" | "numeric",
): FieldSpec {
  return { kind: "input", name, label, hint, inputMode, autoComplete: "off", dir: "ltr" };
}

function MethodEditor(props: EditorProps<PaymentMethod, GatewaysPageProps>) {
  const method = props.item;
  const { locale, defaultLocale, methods } = props.page;
  const { t } = useTranslation("payments");
  const form = useEditorForm("method", props, initialValues(method, methods.length));
  const name = method ? textIn(method.names, locale, defaultLocale) : "";
  // An online method's provider shows how to pay and charges in its own currency: no instructions, and
  // the currency is the provider's alone.
  const online = method && isOnlineKind(method.kind) ? method.kind : null;
  const currencies = online ? [ONLINE_METHOD_CURRENCY[online]] : PAYMENT_CURRENCIES;
  const terms: FieldSpec[] = [
    termsRow(
      {
        kind: "select",
        name: "currency",
        label: t("admin.fields.currency"),
        hint: online ? t("admin.currencyFixedHint") : t("admin.fields.currencyHint"),
        variant: "validated",
        options: choicesOf(currencies, (currency) => t(CURRENCY_LABELS[currency])),
      },
      figure("rate", t("admin.fields.rate"), t("admin.fields.rateHint"), "decimal"),
    ),
    termsRow(
      figure("minCoins", t("admin.fields.minCoins"), t("admin.fields.coinsHint"), "numeric"),
      figure("maxCoins", t("admin.fields.maxCoins"), undefined, "numeric"),
    ),
    termsRow(
      figure("feeFixed", t("admin.fields.feeFixed"), t("admin.fields.feeFixedHint"), "decimal"),
      figure(
        "feePercent",
        t("admin.fields.feePercent"),
        t("admin.fields.feePercentHint"),
        "decimal",
      ),
    ),
    termsRow(
      figure("sortOrder", t("admin.fields.sortOrder"), t("admin.fields.sortOrderHint"), "numeric"),
      {
        kind: "switch",
        name: "enabled",
        label: t("admin.fields.enabled"),
        hint: t("admin.fields.enabledHint"),
      },
    ),
  ];
  return (
    <EditorPage
      form={form}
      back={{ to: LIST_PATH, label: t("admin.back") }}
      header={
        <PageHeading
          title={method ? t("admin.editTitle", { name }) : t("admin.newTitle")}
          intro={t("admin.formIntro")}
        />
      }
      notes={
        <>
          {method?.builtin ? <Notice tone="info">{t("admin.builtinNote")}</Notice> : null}
          {online ? <Notice tone="info">{t("admin.onlineNote")}</Notice> : null}
          {method ? <Example method={method} locale={locale} /> : null}
        </>
      }
      action={LIST_PATH}
      labels={{ create: t("admin.create"), save: t("admin.save"), cancel: t("admin.cancel") }}
    >
      {PAYMENT_TEXT_LOCALES.map((language) => (
        <LanguageTexts
          key={language}
          form={form}
          language={language}
          isDefault={language === defaultLocale}
          instructions={!online}
        />
      ))}
      <EditorFields editor={form} fields={terms} />
      <FreshProofField id="method-proof" needed={!props.page.proofFresh} result={props.result} />
    </EditorPage>
  );
}

/**
 * One language's name and instructions, as a group named by the language, typed in it (lang, and
 * right to left for Arabic); the site's default language says what it requires.
 */
function LanguageTexts({
  form,
  language,
  isDefault,
  instructions,
}: {
  form: EditorFormState;
  language: PaymentTextLocale;
  isDefault: boolean;
  /** A manual method's instructions; an online one has none. */
  instructions: boolean;
}) {
  const { t } = useTranslation("payments");
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-semibold">{t(TEXT_LOCALE_LABELS[language])}</legend>
      {isDefault ? (
        <p className="text-sm text-muted-foreground">{t("admin.defaultLanguage")}</p>
      ) : null}
      <EditorFields
        editor={form}
        fields={[
          {
            kind: "input",
            name: NAME_FIELDS[language],
            label: t("admin.fields.name"),
            maxLength: MAX_METHOD_NAME_LENGTH,
            ...typedIn(language),
          },
          ...(instructions
            ? [
                instructionsField(
                  language,
                  t("admin.fields.instructions"),
                  t("admin.fields.instructionsHint"),
                ),
              ]
            : []),
        ]}
      />
    </fieldset>
  );
}

/** One language's instructions: how to pay a manual method, typed in that language. */
function instructionsField(language: PaymentTextLocale, label: string, hint: string): FieldSpec {
  return {
    kind: "textarea",
    name: INSTRUCTIONS_FIELDS[language],
    label,
    hint,
    rows: 4,
    maxLength: MAX_INSTRUCTIONS_LENGTH,
    ...typedIn(language),
    variant: "form",
  };
}
