import { useTranslation } from "~/i18n/use-translation";
import { EditorFields, editorRow } from "~/components/list-editor/editor-page";
import type { EditorProps } from "~/components/list-editor/list-editor-page";
import { Fieldset, typedIn } from "~/components/ui/fieldset";
import { choicesOf } from "~/components/ui/form-card";
import {
  categoryOf,
  PRODUCT_CATEGORIES,
  PRODUCT_STATUSES,
  PRODUCT_TEXT_LOCALES,
  PRODUCT_TYPES,
  type ProductTextLocale,
  type ProductType,
} from "~/domain/catalogue/catalogue";
import {
  MAX_FEATURE_LENGTH,
  MAX_FEATURES,
  MAX_PRODUCT_DESCRIPTION_LENGTH,
  MAX_PRODUCT_NAME_LENGTH,
  MAX_SLUG_LENGTH,
  PRODUCT_CATEGORY_LABELS,
  PRODUCT_STATUS_LABELS,
  PRODUCT_TYPE_LABELS,
  SPEC_FIELDS,
  SPEC_LABELS,
  SPEC_LIMITS,
  TEXT_FIELD_NAMES,
  type AdminProduct,
  type ProductChoice,
  type ProductListQuery,
} from "~/domain/catalogue/catalogue-admin";
import { changeToFieldName } from "~/domain/catalogue/plan-paths";
import type { PanelSnapshot } from "~/domain/provisioning/panel-connection";
import { provisioningStartValues } from "~/domain/provisioning/product-editor";
import { centsToEuroInput } from "~/lib/euro-input";
import { formatEuros } from "~/lib/money";
import { CatalogueEditor, useCatalogueForm, type CatalogueForm } from "./catalogue-page";
import { PlanPathsFields } from "./plan-paths-fields";
import { EggPicker, ProvisioningFields } from "./provisioning-fields";

/** What the product editor reads of its page's data besides the product. */
export interface ProductEditorPage {
  locale: string;
  /** What the game panel had at its last check (null: never checked). */
  panel: PanelSnapshot | null;
  /** Its `eggId`: the egg chosen with the picker, whose values the provisioning block starts from. */
  query: ProductListQuery;
  /** Every product: those of the edited one's type are where its services may change to. */
  planChoices: ProductChoice[];
}

/**
 * /admin/products?edit=<id> or ?edit=new: a product's English texts, type, status, price and features,
 * its French and Arabic texts, its specs, whether it is recommended, whether it activates as soon as it is
 * paid, the plans its services may change to, and its provisioning block.
 */
export function ProductEditor(props: EditorProps<AdminProduct, ProductEditorPage>) {
  const product = props.item;
  const { locale, panel, query, planChoices } = props.page;
  const { t } = useTranslation("admin-catalogue");
  // The block as stored, or the egg chosen with "Choose egg" (?eggId=) with its own values.
  const provisioning = provisioningStartValues(
    product?.provisioning ?? { provisioner: "none" },
    panel,
    query.eggId,
  );
  const form = useCatalogueForm(
    "products",
    props,
    product
      ? {
          ...provisioning,
          name: product.name,
          slug: product.slug,
          type: product.type,
          // The type's usual category shows as "usual for the type", so changing the type changes it too.
          category: product.category === categoryOf(product.type) ? "" : product.category,
          status: product.status,
          description: product.description,
          price: centsToEuroInput(product.priceCents),
          features: product.features.join("\n"),
          ramGb: product.specs.ramGb?.toString() ?? "",
          storageGb: product.specs.storageGb?.toString() ?? "",
          cpuCores: product.specs.cpuCores?.toString() ?? "",
          slots: product.specs.slots?.toString() ?? "",
          recommended: product.recommended ? "on" : "",
          activateWhenPaid: product.activateWhenPaid ? "on" : "",
          ...Object.fromEntries(product.changeTo.map((id) => [changeToFieldName(id), "on"])),
          ...Object.fromEntries(
            PRODUCT_TEXT_LOCALES.flatMap((locale) => {
              const names = TEXT_FIELD_NAMES[locale];
              const texts = product.translations[locale];
              return [
                [names.name, texts.name],
                [names.description, texts.description],
                [names.features, texts.features.join("\n")],
              ];
            }),
          ),
        }
      : // A new product's category follows its type unless the admin picks one.
        { type: "samp", category: "", status: "active", ...provisioning },
  );
  return (
    <CatalogueEditor
      form={form}
      editTitle={product && t("products.editTitle", { name: product.name })}
      note={
        product && (product.orderCount > 0 || product.serviceCount > 0)
          ? t("products.historyNote", {
              orders: t("products.orderCount", { count: product.orderCount }),
              services: t("products.serviceCount", { count: product.serviceCount }),
            })
          : undefined
      }
      after={<EggPicker edit={product?.id ?? "new"} />}
      fields={[
        editorRow(2, [
          {
            kind: "input",
            name: "name",
            label: t("products.fields.name"),
            required: true,
            maxLength: MAX_PRODUCT_NAME_LENGTH,
            dir: "auto",
          },
          {
            kind: "input",
            name: "slug",
            label: t("products.fields.slug"),
            hint: t("products.hints.slug"),
            dir: "ltr",
            maxLength: MAX_SLUG_LENGTH,
            autoComplete: "off",
          },
        ]),
        editorRow(3, [
          {
            kind: "select",
            name: "type",
            variant: "validated",
            label: t("products.fields.type"),
            options: choicesOf(PRODUCT_TYPES, (type) => t(PRODUCT_TYPE_LABELS[type])),
          },
          {
            kind: "select",
            name: "category",
            variant: "validated",
            label: t("products.fields.category"),
            options: [
              { value: "", label: t("products.categoryFromType") },
              ...choicesOf(PRODUCT_CATEGORIES, (category) => t(PRODUCT_CATEGORY_LABELS[category])),
            ],
          },
          {
            kind: "select",
            name: "status",
            variant: "validated",
            label: t("products.fields.status"),
            options: choicesOf(PRODUCT_STATUSES, (status) => t(PRODUCT_STATUS_LABELS[status])),
          },
        ]),
        {
          kind: "textarea",
          name: "description",
          label: t("products.fields.description"),
          rows: 2,
          maxLength: MAX_PRODUCT_DESCRIPTION_LENGTH,
          dir: "auto",
          variant: "validated",
        },
        {
          kind: "input",
          name: "price",
          label: t("products.fields.price"),
          hint: t("products.hints.price", { example: formatEuros(499, locale) }),
          inputMode: "decimal",
          dir: "ltr",
          required: true,
          autoComplete: "off",
          className: "sm:max-w-48",
        },
        {
          kind: "textarea",
          name: "features",
          label: t("products.fields.features"),
          hint: t("products.hints.features", { lines: MAX_FEATURES, length: MAX_FEATURE_LENGTH }),
          rows: 5,
          dir: "auto",
          variant: "validated",
        },
      ]}
    >
      <p className="text-sm text-muted-foreground">{t("products.texts.intro")}</p>
      {PRODUCT_TEXT_LOCALES.map((language) => (
        <TranslatedFields key={language} editor={form} language={language} />
      ))}
      <Fieldset legend={t("products.fields.specs")}>
        <p className="text-sm text-muted-foreground">{t("products.hints.specs")}</p>
        <EditorFields
          editor={form}
          fields={[
            {
              kind: "row",
              className: "grid grid-cols-2 items-start gap-4 sm:grid-cols-4",
              fields: SPEC_FIELDS.map((field) => ({
                kind: "input",
                name: field,
                label: t(SPEC_LABELS[field]),
                inputMode: "numeric",
                dir: "ltr",
                autoComplete: "off",
                max: SPEC_LIMITS[field],
              })),
            },
          ]}
        />
      </Fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input
          type="checkbox"
          name="recommended"
          defaultChecked={form.value("recommended") === "on"}
        />
        {t("products.fields.recommendedLong")}
      </label>
      <div className="grid gap-1">
        <label className="flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            name="activateWhenPaid"
            aria-describedby="activate-when-paid-hint"
            defaultChecked={form.value("activateWhenPaid") === "on"}
          />
          {t("products.fields.activateWhenPaid")}
        </label>
        <p id="activate-when-paid-hint" className="ms-6 text-sm text-muted-foreground">
          {t("products.fields.activateWhenPaidHint")}
        </p>
      </div>
      <PlanPathsFields
        form={form}
        productId={product?.id}
        type={product?.type ?? typedType(form.value("type"))}
        choices={planChoices}
      />
      <ProvisioningFields
        // A new egg (chosen with the picker) starts its fields afresh, script or not.
        key={query.eggId ?? "stored"}
        form={form}
        panel={panel}
        unreadable={product?.provisioningUnreadable ?? false}
        names={Object.keys(provisioning)}
      />
    </CatalogueEditor>
  );
}

/** A new product's type as its form holds it (SA-MP, the form's first, until one is chosen). */
function typedType(value: string): ProductType {
  return (PRODUCT_TYPES as readonly string[]).includes(value) ? (value as ProductType) : "samp";
}

// The legend and labels of each language's fields (admin-catalogue keys, written out).
const TEXT_LABELS = {
  fr: {
    legend: "products.texts.fr.legend",
    name: "products.texts.fr.name",
    description: "products.texts.fr.description",
    features: "products.texts.fr.features",
  },
  ar: {
    legend: "products.texts.ar.legend",
    name: "products.texts.ar.name",
    description: "products.texts.ar.description",
    features: "products.texts.ar.features",
  },
} as const satisfies Record<ProductTextLocale, object>;

/**
 * One language's name, description and features, after the English ones: optional, with the English
 * limits, typed in that language (lang, and dir="rtl" for Arabic) and each falling back to English.
 */
function TranslatedFields({
  editor,
  language,
}: {
  editor: CatalogueForm;
  language: ProductTextLocale;
}) {
  const { t } = useTranslation("admin-catalogue");
  const names = TEXT_FIELD_NAMES[language];
  const labels = TEXT_LABELS[language];
  return (
    <Fieldset legend={t(labels.legend)}>
      <EditorFields
        editor={editor}
        fields={[
          {
            kind: "input",
            name: names.name,
            label: t(labels.name),
            hint: t("products.texts.hints.name"),
            maxLength: MAX_PRODUCT_NAME_LENGTH,
            ...typedIn(language),
          },
          {
            kind: "textarea",
            name: names.description,
            label: t(labels.description),
            hint: t("products.texts.hints.description"),
            rows: 2,
            maxLength: MAX_PRODUCT_DESCRIPTION_LENGTH,
            ...typedIn(language),
            variant: "validated",
          },
          {
            kind: "textarea",
            name: names.features,
            label: t(labels.features),
            hint: t("products.texts.hints.features", {
              lines: MAX_FEATURES,
              length: MAX_FEATURE_LENGTH,
            }),
            rows: 5,
            ...typedIn(language),
            variant: "validated",
          },
        ]}
      />
    </Fieldset>
  );
}
