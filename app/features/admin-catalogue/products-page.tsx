import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { FilterBar, FilterSelect } from "~/components/data-table/filter-bar";
import {
  CardCell,
  CardRow,
  HeadCell,
  ResponsiveTable,
} from "~/components/data-table/responsive-table";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Field, fieldAria, Hint } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  categoryOf,
  PRODUCT_CATEGORIES,
  PRODUCT_STATUSES,
  PRODUCT_TYPES,
  type ProductType,
} from "~/domain/catalogue/catalogue";
import {
  canDeleteProduct,
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
  type AdminProduct,
  type ProductListQuery,
} from "~/domain/catalogue/catalogue-admin";
import type { ActionResult } from "~/components/ui/result-message";
import { Select } from "~/components/ui/select";
import { useMessage } from "~/i18n/use-message";
import { centsToEuroInput } from "~/lib/euro-input";
import { formatEuros } from "~/lib/money";
import {
  EditLink,
  EditorPage,
  ListMessages,
  NewLink,
  PageHeader,
  RowIntentButton,
  textareaClass,
  useBusy,
} from "./shared";

export interface ProductActionResult extends ActionResult {
  /** "save" for the create and edit form, "row" for a row's buttons. */
  intent: "save" | "row";
  id?: string;
}

export function ProductsPage({
  products,
  typeCounts,
  editing,
  query,
  locale,
  result,
}: {
  products: AdminProduct[];
  typeCounts: Partial<Record<ProductType, number>>;
  editing: AdminProduct | "new" | null | undefined;
  query: ProductListQuery;
  locale: string;
  result?: ProductActionResult;
}) {
  if (editing)
    return (
      <ProductEditor
        product={editing === "new" ? undefined : editing}
        locale={locale}
        result={result?.intent === "save" ? result : undefined}
      />
    );
  return (
    <ProductList
      products={products}
      typeCounts={typeCounts}
      notFound={editing === null}
      query={query}
      locale={locale}
      result={result?.intent === "row" ? result : undefined}
    />
  );
}

function ProductList({
  products,
  typeCounts,
  notFound,
  query,
  locale,
  result,
}: {
  products: AdminProduct[];
  typeCounts: Partial<Record<ProductType, number>>;
  notFound: boolean;
  query: ProductListQuery;
  locale: string;
  result?: ProductActionResult;
}) {
  const { t } = useTranslation("admin-catalogue");
  const { t: tAdmin } = useTranslation("admin");
  const busy = useBusy();
  const filtered = Boolean(query.type || query.status);
  // Row buttons post to the list with its filters but without the last save's notice, which would
  // otherwise stay on the page beside the new message.
  const filters = new URLSearchParams();
  if (query.type) filters.set("type", query.type);
  if (query.status) filters.set("status", query.status);
  const action = `/admin/products${filters.size ? `?${filters}` : ""}`;
  return (
    <main className="grid min-w-0 gap-4">
      <PageHeader title={tAdmin("nav.products")} intro={t("products.intro")}>
        <NewLink label={t("products.new")} />
      </PageHeader>

      <FilterBar
        label={t("products.filter")}
        applyLabel={t("apply")}
        clearLabel={t("clear")}
        filtered={filtered}
        className="sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
      >
        <FilterSelect
          id="product-type-filter"
          label={t("products.fields.type")}
          name="type"
          defaultValue={query.type ?? ""}
          anyLabel={t("products.anyType")}
          values={PRODUCT_TYPES}
          labelOf={(type) => t(PRODUCT_TYPE_LABELS[type])}
        />
        <FilterSelect
          id="product-status-filter"
          label={t("products.fields.status")}
          name="status"
          defaultValue={query.status ?? ""}
          anyLabel={t("products.anyStatus")}
          values={PRODUCT_STATUSES}
          labelOf={(status) => t(PRODUCT_STATUS_LABELS[status])}
        />
      </FilterBar>

      <ListMessages
        notice={
          query.notice
            ? t(query.notice === "created" ? "products.created" : "products.updated")
            : undefined
        }
        notFound={notFound ? t("products.errors.notFound") : undefined}
        result={result}
      />

      {products.length === 0 ? (
        <p className="text-muted-foreground">
          {t(filtered ? "products.noMatch" : "products.empty")}
        </p>
      ) : (
        <ResponsiveTable
          caption={tAdmin("nav.products")}
          head={
            <>
              <HeadCell>{t("products.columns.product")}</HeadCell>
              <HeadCell>{t("products.columns.type")}</HeadCell>
              <HeadCell className="md:text-end">{t("products.columns.price")}</HeadCell>
              <HeadCell>{t("products.columns.status")}</HeadCell>
              <HeadCell>{t("products.columns.use")}</HeadCell>
              <HeadCell>{t("products.columns.order")}</HeadCell>
              <HeadCell>{t("products.columns.actions")}</HeadCell>
            </>
          }
        >
          {products.map((product) => {
            const last = (typeCounts[product.type] ?? 0) - 1;
            return (
              <CardRow key={product.id}>
                <CardCell wide>
                  <p className="font-semibold" id={`product-${product.id}`}>
                    <bdi>{product.name}</bdi>
                  </p>
                  <p className="text-xs text-muted-foreground" dir="ltr">
                    {product.slug}
                  </p>
                  {product.recommended ? (
                    <span className="block">
                      <Badge tone="blue">{t("products.fields.recommended")}</Badge>
                    </span>
                  ) : null}
                </CardCell>
                <CardCell label={t("products.columns.type")}>
                  <span className="block">{t(PRODUCT_TYPE_LABELS[product.type])}</span>
                  <span className="block text-xs text-muted-foreground">
                    {t(PRODUCT_CATEGORY_LABELS[product.category])}
                  </span>
                </CardCell>
                <CardCell label={t("products.columns.price")} className="md:text-end">
                  <span className="block font-mono whitespace-nowrap" dir="ltr">
                    {formatEuros(product.priceCents, locale)}
                  </span>
                  <span className="block text-xs text-muted-foreground">
                    {t("products.perMonth")}
                  </span>
                </CardCell>
                <CardCell label={t("products.columns.status")}>
                  <span>
                    <Badge tone={product.status === "active" ? "green" : "grey"}>
                      {t(PRODUCT_STATUS_LABELS[product.status])}
                    </Badge>
                  </span>
                </CardCell>
                <CardCell label={t("products.columns.use")}>
                  <span className="block">
                    {t("products.orderCount", { count: product.orderCount })}
                  </span>
                  <span className="block">
                    {t("products.activeServiceCount", { count: product.activeServiceCount })}
                  </span>
                </CardCell>
                <CardCell label={t("products.columns.order")}>
                  <div className="flex gap-1">
                    <MoveButton
                      product={product}
                      action={action}
                      direction="up"
                      disabled={busy || product.position <= 0}
                    />
                    <MoveButton
                      product={product}
                      action={action}
                      direction="down"
                      disabled={busy || product.position >= last}
                    />
                  </div>
                </CardCell>
                <CardCell wide>
                  <div className="flex flex-wrap items-start gap-2 md:flex-nowrap">
                    <EditLink
                      id={product.id}
                      label={t("products.edit")}
                      accessibleName={t("products.editFor", { name: product.name })}
                    />
                    <RowIntentButton
                      action={action}
                      intent={product.status === "active" ? "hide" : "show"}
                      id={product.id}
                      label={t(product.status === "active" ? "products.hide" : "products.show")}
                      accessibleName={t(
                        product.status === "active" ? "products.hideFor" : "products.showFor",
                        { name: product.name },
                      )}
                    />
                    {canDeleteProduct(product) ? (
                      <DeleteProduct product={product} action={action} />
                    ) : null}
                  </div>
                </CardCell>
              </CardRow>
            );
          })}
        </ResponsiveTable>
      )}
      <p className="text-sm text-muted-foreground">{t("products.deleteNote")}</p>
    </main>
  );
}

/** A plain form per button, so reordering works without JavaScript too. */
function MoveButton({
  product,
  action,
  direction,
  disabled,
}: {
  product: AdminProduct;
  action: string;
  direction: "up" | "down";
  disabled: boolean;
}) {
  const { t } = useTranslation("admin-catalogue");
  const label = t(direction === "up" ? "products.moveUp" : "products.moveDown", {
    name: product.name,
  });
  return (
    <Form method="post" action={action}>
      <input type="hidden" name="intent" value="move" />
      <input type="hidden" name="id" value={product.id} />
      <input type="hidden" name="direction" value={direction} />
      <Button
        type="submit"
        variant="outline"
        size="icon"
        className="size-9"
        disabled={disabled}
        aria-label={label}
        title={label}
      >
        {direction === "up" ? <ArrowUpIcon aria-hidden /> : <ArrowDownIcon aria-hidden />}
      </Button>
    </Form>
  );
}

/** Deleting asks once more, in a disclosure that needs no JavaScript. */
function DeleteProduct({ product, action }: { product: AdminProduct; action: string }) {
  const { t } = useTranslation("admin-catalogue");
  const busy = useBusy();
  return (
    <details className="group">
      <summary className="inline-flex h-9 cursor-pointer items-center rounded-md px-3 text-sm font-medium text-destructive hover:bg-muted">
        {t("products.delete")}
      </summary>
      <Form method="post" action={action} className="mt-2 grid gap-2 rounded-md border p-3">
        <input type="hidden" name="intent" value="delete" />
        <input type="hidden" name="id" value={product.id} />
        <p className="text-sm">{t("products.deleteConfirmText", { name: product.name })}</p>
        <Button type="submit" variant="destructive" size="sm" className="w-fit" disabled={busy}>
          {t("products.deleteConfirm")}
        </Button>
      </Form>
    </details>
  );
}

function ProductEditor({
  product,
  locale,
  result,
}: {
  product?: AdminProduct;
  locale: string;
  result?: ProductActionResult;
}) {
  const { t } = useTranslation("admin-catalogue");
  const message = useMessage();
  const values = result?.values;
  const errors = result?.fieldErrors ?? {};
  const error = (field: string) => message(errors[field]);
  // What the form shows: what was typed when a save was refused, else the product as it is.
  const initial: Record<string, string> = product
    ? {
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
      }
    : // A new product's category follows its type unless the admin picks one.
      { type: "samp", category: "", status: "active" };
  const value = (field: string) => (values ? (values[field] ?? "") : (initial[field] ?? ""));
  const id = (field: string) => `product-${field}`;
  return (
    <EditorPage
      listHref="/admin/products"
      labels={{
        back: t("products.back"),
        title: product ? t("products.editTitle", { name: product.name }) : t("products.newTitle"),
        intro: t("products.formIntro"),
        save: t(product ? "products.save" : "products.create"),
        cancel: t("cancel"),
      }}
      id={product?.id}
      result={result}
      note={
        product && (product.orderCount > 0 || product.serviceCount > 0)
          ? t("products.historyNote", {
              orders: t("products.orderCount", { count: product.orderCount }),
              services: t("products.serviceCount", { count: product.serviceCount }),
            })
          : undefined
      }
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field id={id("name")} label={t("products.fields.name")} error={error("name")}>
          <Input
            id={id("name")}
            name="name"
            required
            maxLength={MAX_PRODUCT_NAME_LENGTH}
            dir="auto"
            defaultValue={value("name")}
            {...fieldAria(id("name"), error("name"), { order: "hint-first" })}
          />
        </Field>
        <Field id={id("slug")} label={t("products.fields.slug")} error={error("slug")}>
          <Input
            id={id("slug")}
            name="slug"
            dir="ltr"
            maxLength={MAX_SLUG_LENGTH}
            autoComplete="off"
            defaultValue={value("slug")}
            {...fieldAria(id("slug"), error("slug"), { hint: true, order: "hint-first" })}
          />
          <Hint id={`${id("slug")}-hint`}>{t("products.hints.slug")}</Hint>
        </Field>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-3">
        <Field id={id("type")} label={t("products.fields.type")} error={error("type")}>
          <Select
            id={id("type")}
            name="type"
            defaultValue={value("type")}
            variant="validated"
            {...fieldAria(id("type"), error("type"), { order: "hint-first" })}
          >
            {PRODUCT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(PRODUCT_TYPE_LABELS[type])}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={id("category")} label={t("products.fields.category")} error={error("category")}>
          <Select
            id={id("category")}
            name="category"
            defaultValue={value("category")}
            variant="validated"
            {...fieldAria(id("category"), error("category"), { order: "hint-first" })}
          >
            <option value="">{t("products.categoryFromType")}</option>
            {PRODUCT_CATEGORIES.map((category) => (
              <option key={category} value={category}>
                {t(PRODUCT_CATEGORY_LABELS[category])}
              </option>
            ))}
          </Select>
        </Field>
        <Field id={id("status")} label={t("products.fields.status")} error={error("status")}>
          <Select
            id={id("status")}
            name="status"
            defaultValue={value("status")}
            variant="validated"
            {...fieldAria(id("status"), error("status"), { order: "hint-first" })}
          >
            {PRODUCT_STATUSES.map((status) => (
              <option key={status} value={status}>
                {t(PRODUCT_STATUS_LABELS[status])}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field
        id={id("description")}
        label={t("products.fields.description")}
        error={error("description")}
      >
        <textarea
          id={id("description")}
          name="description"
          rows={2}
          maxLength={MAX_PRODUCT_DESCRIPTION_LENGTH}
          dir="auto"
          defaultValue={value("description")}
          className={textareaClass}
          {...fieldAria(id("description"), error("description"), { order: "hint-first" })}
        />
      </Field>
      <Field id={id("price")} label={t("products.fields.price")} error={error("price")}>
        <Input
          id={id("price")}
          name="price"
          inputMode="decimal"
          dir="ltr"
          required
          autoComplete="off"
          className="sm:max-w-48"
          defaultValue={value("price")}
          {...fieldAria(id("price"), error("price"), { hint: true, order: "hint-first" })}
        />
        <Hint id={`${id("price")}-hint`}>
          {t("products.hints.price", { example: formatEuros(499, locale) })}
        </Hint>
      </Field>
      <Field id={id("features")} label={t("products.fields.features")} error={error("features")}>
        <textarea
          id={id("features")}
          name="features"
          rows={5}
          dir="auto"
          defaultValue={value("features")}
          className={textareaClass}
          {...fieldAria(id("features"), error("features"), { hint: true, order: "hint-first" })}
        />
        <Hint id={`${id("features")}-hint`}>
          {t("products.hints.features", {
            lines: MAX_FEATURES,
            length: MAX_FEATURE_LENGTH,
          })}
        </Hint>
      </Field>
      <fieldset className="grid gap-3">
        <legend className="text-sm font-medium">{t("products.fields.specs")}</legend>
        <p className="text-sm text-muted-foreground">{t("products.hints.specs")}</p>
        <div className="grid grid-cols-2 items-start gap-4 sm:grid-cols-4">
          {SPEC_FIELDS.map((field) => (
            <Field key={field} id={id(field)} label={t(SPEC_LABELS[field])} error={error(field)}>
              <Input
                id={id(field)}
                name={field}
                inputMode="numeric"
                dir="ltr"
                autoComplete="off"
                defaultValue={value(field)}
                max={SPEC_LIMITS[field]}
                {...fieldAria(id(field), error(field), { order: "hint-first" })}
              />
            </Field>
          ))}
        </div>
      </fieldset>
      <label className="flex items-center gap-2 text-sm">
        <input type="checkbox" name="recommended" defaultChecked={value("recommended") === "on"} />
        {t("products.fields.recommendedLong")}
      </label>
    </EditorPage>
  );
}
