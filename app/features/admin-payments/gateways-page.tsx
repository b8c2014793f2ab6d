import { PencilIcon, PlusIcon } from "lucide-react";
import { useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { actionsColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { CellWithNote, type Column } from "~/components/data-table/data-table";
import { ListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { EditorForm } from "~/components/ui/form-actions";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { typedIn } from "~/components/ui/fieldset";
import { choicesOf, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { IntentButton } from "~/components/ui/intent-button";
import { Notice } from "~/components/ui/notice";
import { BackLink, PageHeading } from "~/components/ui/page-heading";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";
import {
  CURRENCY_LABELS,
  formatBasisPoints,
  formatMethodAmount,
  INSTRUCTIONS_FIELDS,
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

// /admin/gateways (docs/payments.md): the payment methods as a list, and the editor of one on
// the same address (?edit=<id>, ?edit=new), built from the kit's list and form pieces.

const LIST_PATH = "/admin/gateways";

/** What a post to the page did: "save" for the editor's form, "row" for a row's buttons (`id`). */
export interface GatewaysActionResult extends ActionResult {
  intent: "save" | "row";
  id?: string;
}

interface GatewaysPageProps {
  methods: PaymentMethod[];
  /** The method whose form is open, "new", null when the asked one does not exist, or none. */
  editing: PaymentMethod | "new" | null | undefined;
  defaultLocale: PaymentTextLocale;
  query: PaymentMethodListQuery;
  locale: string;
  result?: GatewaysActionResult;
}

export function GatewaysPage(page: GatewaysPageProps) {
  const { editing, result } = page;
  if (editing)
    return (
      <MethodEditor
        method={editing === "new" ? undefined : editing}
        result={result?.intent === "save" ? result : undefined}
        page={page}
      />
    );
  return <MethodList {...page} />;
}

/** "MAD 5.00 + 2.5%", "2.5%", "None". */
function feeText(method: PaymentMethod, locale: string, none: string): string {
  const parts = [
    method.feeFixed > 0 ? formatMethodAmount(method.feeFixed, method.currency, locale) : null,
    method.feePercentBp > 0 ? formatBasisPoints(method.feePercentBp, locale) : null,
  ].filter((part) => part !== null);
  return parts.length > 0 ? parts.join(" + ") : none;
}

function MethodList({ methods, editing, defaultLocale, query, locale, result }: GatewaysPageProps) {
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
              {method.builtin ? <Badge tone="blue">{t("admin.builtin")}</Badge> : null}
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
    actionsColumn(
      t("admin.columns.actions"),
      (method) => <RowActions method={method} name={nameOf(method)} />,
      { wide: true },
    ),
  ];
  return (
    <ListPage
      header={
        <PageHeading
          title={tAdmin("nav.gateways")}
          intro={t("admin.intro")}
          action={
            <Button asChild>
              <Link to="?edit=new">
                <PlusIcon aria-hidden />
                {t("admin.new")}
              </Link>
            </Button>
          }
        />
      }
      table={{
        caption: tAdmin("nav.gateways"),
        columns,
        rows: methods,
        rowKey: (method) => method.id,
      }}
      empty={t("admin.empty")}
    >
      {query.notice && !result ? (
        <StatusMessage ok>
          {t(query.notice === "created" ? "admin.created" : "admin.updated")}
        </StatusMessage>
      ) : null}
      {editing === null ? <StatusMessage ok={false}>{t("errors.notFound")}</StatusMessage> : null}
      {result?.intent === "row" ? <ResultMessage result={result} /> : null}
    </ListPage>
  );
}

/** A row's buttons: edit, switch on or off, and delete for a method of the admin's own. */
function RowActions({ method, name }: { method: PaymentMethod; name: string }) {
  const { t } = useTranslation("payments");
  return (
    <div className="flex flex-wrap items-center gap-2 md:flex-nowrap">
      <Button asChild variant="outline" size="sm">
        <Link to={`?edit=${method.id}`} aria-label={t("admin.editFor", { name })}>
          <PencilIcon aria-hidden />
          {t("admin.edit")}
        </Link>
      </Button>
      <IntentButton
        action={LIST_PATH}
        intent={method.enabled ? "disable" : "enable"}
        fields={{ id: method.id }}
        variant="outline"
        accessibleName={t(method.enabled ? "admin.disableFor" : "admin.enableFor", { name })}
      >
        {t(method.enabled ? "admin.disable" : "admin.enable")}
      </IntentButton>
      {method.builtin ? null : (
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
      )}
    </div>
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

function MethodEditor({
  method,
  result,
  page,
}: {
  method?: PaymentMethod;
  result?: GatewaysActionResult;
  page: GatewaysPageProps;
}) {
  const { t } = useTranslation("payments");
  const busy = useNavigation().state !== "idle";
  const { locale, defaultLocale } = page;
  const values = result?.values ?? initialValues(method, page.methods.length);
  const errors = result?.fieldErrors;
  const name = method ? textIn(method.names, locale, defaultLocale) : "";
  const terms: FieldSpec[] = [
    termsRow(
      {
        kind: "select",
        name: "currency",
        label: t("admin.fields.currency"),
        hint: t("admin.fields.currencyHint"),
        variant: "validated",
        options: choicesOf(PAYMENT_CURRENCIES, (currency) => t(CURRENCY_LABELS[currency])),
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
    <main className="grid min-w-0 gap-4">
      <BackLink to={LIST_PATH}>{t("admin.back")}</BackLink>
      <PageHeading
        title={method ? t("admin.editTitle", { name }) : t("admin.newTitle")}
        intro={t("admin.formIntro")}
      />
      {result && !result.ok ? <ResultMessage result={result} /> : null}
      {method?.builtin ? <Notice tone="info">{t("admin.builtinNote")}</Notice> : null}
      {method ? <Example method={method} locale={locale} /> : null}
      <EditorForm
        id={method?.id}
        action={LIST_PATH}
        submitLabel={t(method ? "admin.save" : "admin.create")}
        busy={busy}
        cancelTo={LIST_PATH}
        cancelLabel={t("admin.cancel")}
      >
        {PAYMENT_TEXT_LOCALES.map((language) => (
          <LanguageTexts
            key={language}
            language={language}
            isDefault={language === defaultLocale}
            values={values}
            errors={errors}
          />
        ))}
        <FormFields
          fields={terms}
          idPrefix="method"
          values={values}
          checked={{ enabled: values.enabled === "on" }}
          errors={errors}
          order="hint-first"
        />
      </EditorForm>
    </main>
  );
}

/**
 * One language's name and instructions, as a group named by the language, typed in it (lang, and
 * right to left for Arabic); the site's default language says what it requires.
 */
function LanguageTexts({
  language,
  isDefault,
  values,
  errors,
}: {
  language: PaymentTextLocale;
  isDefault: boolean;
  values: Record<string, string>;
  errors?: GatewaysActionResult["fieldErrors"];
}) {
  const { t } = useTranslation("payments");
  return (
    <fieldset className="grid gap-3 rounded-md border p-3">
      <legend className="px-1 text-sm font-semibold">{t(TEXT_LOCALE_LABELS[language])}</legend>
      {isDefault ? (
        <p className="text-sm text-muted-foreground">{t("admin.defaultLanguage")}</p>
      ) : null}
      <FormFields
        idPrefix="method"
        values={values}
        errors={errors}
        order="hint-first"
        fields={[
          {
            kind: "input",
            name: NAME_FIELDS[language],
            label: t("admin.fields.name"),
            maxLength: MAX_METHOD_NAME_LENGTH,
            ...typedIn(language),
          },
          {
            kind: "textarea",
            name: INSTRUCTIONS_FIELDS[language],
            label: t("admin.fields.instructions"),
            hint: t("admin.fields.instructionsHint"),
            rows: 4,
            maxLength: MAX_INSTRUCTIONS_LENGTH,
            ...typedIn(language),
            variant: "form",
          },
        ]}
      />
    </fieldset>
  );
}
