import { useTranslation } from "~/i18n/use-translation";
import { Link } from "react-router";
import { FilterBar, FilterSearch, FilterSelect } from "~/components/data-table/filter-bar";
import {
  CardCell,
  CardRow,
  HeadCell,
  ResponsiveTable,
} from "~/components/data-table/responsive-table";
import { Pager } from "~/components/data-table/simple-table";
import { Badge } from "~/components/ui/badge";
import { Field, fieldAria, Hint } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import {
  PRODUCT_STATUS_LABELS,
  PRODUCT_TYPE_LABELS,
  type ProductChoice,
} from "~/domain/catalogue/catalogue-admin";
import {
  dayOf,
  DISCOUNT_TYPE_LABELS,
  DISCOUNT_TYPES,
  MAX_CODE_LENGTH,
  MAX_VOUCHER_DESCRIPTION_LENGTH,
  VOUCHER_STATUS_LABELS,
  VOUCHER_STATUSES,
  type AdminVoucher,
  type VoucherListQuery,
  type VoucherStatus,
} from "~/domain/promotions/promotions";
import type { ActionResult } from "~/components/ui/result-message";
import { Select } from "~/components/ui/select";
import { useMessage } from "~/i18n/use-message";
import { centsToEuroInput } from "~/lib/euro-input";
import { formatEuros } from "~/lib/money";
import { EditLink, EditorPage, ListMessages, NewLink, PageHeader, RowIntentButton } from "./shared";
import { dateTimeFormat, numberFormat } from "~/lib/intl-format";

export interface VoucherActionResult extends ActionResult {
  intent: "save" | "row";
  id?: string;
}

const STATUS_TONES = {
  active: "green",
  inactive: "grey",
  scheduled: "blue",
  expired: "red",
  usedUp: "yellow",
} as const satisfies Record<VoucherStatus, "green" | "grey" | "blue" | "red" | "yellow">;

/** "10%" or "€5.00", as the reader's language writes them. */
function discountText(voucher: AdminVoucher, locale: string): string {
  return voucher.discountType === "percentage"
    ? numberFormat(locale, { style: "percent" }).format(voucher.discountValue / 100)
    : formatEuros(voucher.discountValue, locale);
}

export function PromotionsPage({
  vouchers,
  hasMore,
  total,
  products,
  editing,
  query,
  locale,
  result,
}: {
  vouchers: AdminVoucher[];
  hasMore: boolean;
  total: number;
  products: ProductChoice[];
  editing: AdminVoucher | "new" | null | undefined;
  query: VoucherListQuery;
  locale: string;
  result?: VoucherActionResult;
}) {
  if (editing)
    return (
      <VoucherEditor
        voucher={editing === "new" ? undefined : editing}
        products={products}
        result={result?.intent === "save" ? result : undefined}
      />
    );
  return (
    <VoucherList
      vouchers={vouchers}
      hasMore={hasMore}
      total={total}
      products={products}
      notFound={editing === null}
      query={query}
      locale={locale}
      result={result?.intent === "row" ? result : undefined}
    />
  );
}

function VoucherList({
  vouchers,
  hasMore,
  total,
  products,
  notFound,
  query,
  locale,
  result,
}: {
  vouchers: AdminVoucher[];
  hasMore: boolean;
  total: number;
  products: ProductChoice[];
  notFound: boolean;
  query: VoucherListQuery;
  locale: string;
  result?: VoucherActionResult;
}) {
  const { t } = useTranslation("admin-catalogue");
  const { t: tAdmin } = useTranslation("admin");
  const filtered = Boolean(query.q || query.status);
  const day = dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const names = new Map(products.map((product) => [product.id, product.name]));
  const href = (page: number) => {
    const params = new URLSearchParams();
    if (query.q) params.set("q", query.q);
    if (query.status) params.set("status", query.status);
    if (page > 1) params.set("page", String(page));
    return `?${params}`;
  };
  // Row buttons post to this page of the list without the last save's notice.
  const action = `/admin/promotions${href(query.page)}`;
  return (
    <main className="grid min-w-0 gap-4">
      <PageHeader title={tAdmin("nav.promotions")} intro={t("promotions.intro")}>
        <NewLink label={t("promotions.new")} />
      </PageHeader>

      <FilterBar
        label={t("promotions.filter")}
        applyLabel={t("apply")}
        clearLabel={t("clear")}
        filtered={filtered}
        className="sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end"
      >
        <FilterSearch
          id="voucher-search"
          label={t("promotions.search")}
          name="q"
          dir="ltr"
          maxLength={MAX_CODE_LENGTH}
          defaultValue={query.q}
        />
        <FilterSelect
          id="voucher-status"
          label={t("promotions.columns.status")}
          name="status"
          defaultValue={query.status ?? ""}
          anyLabel={t("promotions.anyStatus")}
          values={VOUCHER_STATUSES}
          labelOf={(status) => t(VOUCHER_STATUS_LABELS[status])}
        />
      </FilterBar>
      <p className="text-sm text-muted-foreground">{t("promotions.count", { count: total })}</p>

      <ListMessages
        notice={
          query.notice
            ? t(query.notice === "created" ? "promotions.created" : "promotions.updated")
            : undefined
        }
        notFound={notFound ? t("promotions.errors.notFound") : undefined}
        result={result}
      />

      {vouchers.length === 0 ? (
        <p className="text-muted-foreground">
          {t(filtered ? "promotions.noMatch" : "promotions.empty")}
        </p>
      ) : (
        <ResponsiveTable
          caption={tAdmin("nav.promotions")}
          head={
            <>
              <HeadCell>{t("promotions.columns.code")}</HeadCell>
              <HeadCell>{t("promotions.columns.discount")}</HeadCell>
              <HeadCell>{t("promotions.columns.validity")}</HeadCell>
              <HeadCell>{t("promotions.columns.status")}</HeadCell>
              <HeadCell>{t("promotions.columns.uses")}</HeadCell>
              <HeadCell>{t("promotions.columns.orders")}</HeadCell>
              <HeadCell>{t("promotions.columns.actions")}</HeadCell>
            </>
          }
        >
          {vouchers.map((voucher) => (
            <CardRow key={voucher.id}>
              <CardCell wide>
                <p className="font-mono font-semibold" dir="ltr" id={`voucher-${voucher.id}`}>
                  {voucher.code}
                </p>
                {voucher.description ? (
                  <p className="text-xs text-muted-foreground" dir="auto">
                    {voucher.description}
                  </p>
                ) : null}
              </CardCell>
              <CardCell label={t("promotions.columns.discount")}>
                <span className="block font-mono" dir="ltr">
                  {discountText(voucher, locale)}
                </span>
                {voucher.minPurchaseCents > 0 ? (
                  <span className="block text-xs text-muted-foreground">
                    {t("promotions.minimum", {
                      amount: formatEuros(voucher.minPurchaseCents, locale),
                    })}
                  </span>
                ) : null}
                <span className="block text-xs text-muted-foreground">
                  {voucher.applicableServices === "all" ? (
                    t("promotions.allProducts")
                  ) : (
                    <bdi>
                      {voucher.applicableServices.map((id) => names.get(id) ?? `#${id}`).join(", ")}
                    </bdi>
                  )}
                </span>
              </CardCell>
              <CardCell label={t("promotions.columns.validity")}>
                <span className="block whitespace-nowrap">
                  {t("promotions.from", { date: day.format(new Date(voucher.validFrom)) })}
                </span>
                <span className="block whitespace-nowrap">
                  {t("promotions.until", { date: day.format(new Date(voucher.validUntil)) })}
                </span>
              </CardCell>
              <CardCell label={t("promotions.columns.status")}>
                <span>
                  <Badge tone={STATUS_TONES[voucher.status]}>
                    {t(VOUCHER_STATUS_LABELS[voucher.status])}
                  </Badge>
                </span>
              </CardCell>
              <CardCell label={t("promotions.columns.uses")}>
                <span className="block font-mono whitespace-nowrap" dir="ltr">
                  {voucher.usedCount} / {voucher.maxUses}
                </span>
              </CardCell>
              <CardCell label={t("promotions.columns.orders")}>
                <span className="block">
                  {t("promotions.orderCount", { count: voucher.orderCount })}
                </span>
                {voucher.recentOrders.length ? (
                  <span className="flex flex-wrap gap-x-2">
                    {voucher.recentOrders.map((order) => (
                      <Link
                        key={order.id}
                        to={`/admin/orders?id=${order.id}`}
                        className="text-primary hover:underline"
                        aria-label={t("promotions.orderLink", { id: order.id })}
                      >
                        #{order.id}
                      </Link>
                    ))}
                  </span>
                ) : null}
              </CardCell>
              <CardCell wide>
                <div className="flex flex-wrap gap-2 md:flex-nowrap">
                  <EditLink
                    id={voucher.id}
                    label={t("promotions.edit")}
                    accessibleName={t("promotions.editFor", { code: voucher.code })}
                  />
                  <RowIntentButton
                    action={action}
                    intent={voucher.isActive ? "deactivate" : "activate"}
                    id={voucher.id}
                    label={t(voucher.isActive ? "promotions.deactivate" : "promotions.activate")}
                    accessibleName={t(
                      voucher.isActive ? "promotions.deactivateFor" : "promotions.activateFor",
                      { code: voucher.code },
                    )}
                  />
                </div>
              </CardCell>
            </CardRow>
          ))}
        </ResponsiveTable>
      )}
      <Pager page={query.page} hasMore={hasMore} href={href} />
    </main>
  );
}

function VoucherEditor({
  voucher,
  products,
  result,
}: {
  voucher?: AdminVoucher;
  products: ProductChoice[];
  result?: VoucherActionResult;
}) {
  const { t } = useTranslation("admin-catalogue");
  const message = useMessage();
  const values = result?.values;
  const errors = result?.fieldErrors ?? {};
  const error = (field: string) => message(errors[field]);
  const today = new Date().toISOString().slice(0, 10);
  const initial: Record<string, string> = voucher
    ? {
        code: voucher.code,
        description: voucher.description,
        discountType: voucher.discountType,
        discountValue:
          voucher.discountType === "percentage"
            ? String(voucher.discountValue)
            : centsToEuroInput(voucher.discountValue),
        minPurchase: voucher.minPurchaseCents ? centsToEuroInput(voucher.minPurchaseCents) : "",
        maxUses: String(voucher.maxUses),
        validFrom: dayOf(voucher.validFrom),
        validUntil: dayOf(voucher.validUntil),
        appliesTo: voucher.applicableServices === "all" ? "all" : "selected",
        ...Object.fromEntries(
          (voucher.applicableServices === "all" ? [] : voucher.applicableServices).map((id) => [
            `product-${id}`,
            "on",
          ]),
        ),
      }
    : { discountType: "percentage", maxUses: "100", validFrom: today, appliesTo: "all" };
  const value = (field: string) => (values ? (values[field] ?? "") : (initial[field] ?? ""));
  const id = (field: string) => `voucher-${field}`;
  return (
    <EditorPage
      listHref="/admin/promotions"
      labels={{
        back: t("promotions.back"),
        title: voucher
          ? t("promotions.editTitle", { code: voucher.code })
          : t("promotions.newTitle"),
        intro: t("promotions.formIntro"),
        save: t(voucher ? "promotions.save" : "promotions.create"),
        cancel: t("cancel"),
      }}
      id={voucher?.id}
      result={result}
      note={
        voucher && voucher.usedCount > 0
          ? t("promotions.historyNote", { count: voucher.usedCount })
          : undefined
      }
    >
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field id={id("code")} label={t("promotions.fields.code")} error={error("code")}>
          <Input
            id={id("code")}
            name="code"
            required
            dir="ltr"
            autoComplete="off"
            maxLength={MAX_CODE_LENGTH}
            className="font-mono uppercase"
            defaultValue={value("code")}
            {...fieldAria(id("code"), error("code"), { hint: true, order: "hint-first" })}
          />
          <Hint id={`${id("code")}-hint`}>{t("promotions.hints.code")}</Hint>
        </Field>
        <Field
          id={id("description")}
          label={t("promotions.fields.description")}
          error={error("description")}
        >
          <Input
            id={id("description")}
            name="description"
            dir="auto"
            maxLength={MAX_VOUCHER_DESCRIPTION_LENGTH}
            defaultValue={value("description")}
            {...fieldAria(id("description"), error("description"), { order: "hint-first" })}
          />
        </Field>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Field
          id={id("discountType")}
          label={t("promotions.fields.discountType")}
          error={error("discountType")}
        >
          <Select
            id={id("discountType")}
            name="discountType"
            defaultValue={value("discountType")}
            variant="validated"
            {...fieldAria(id("discountType"), error("discountType"), { order: "hint-first" })}
          >
            {DISCOUNT_TYPES.map((type) => (
              <option key={type} value={type}>
                {t(DISCOUNT_TYPE_LABELS[type])}
              </option>
            ))}
          </Select>
        </Field>
        <Field
          id={id("discountValue")}
          label={t("promotions.fields.discountValue")}
          error={error("discountValue")}
        >
          <Input
            id={id("discountValue")}
            name="discountValue"
            inputMode="decimal"
            dir="ltr"
            required
            autoComplete="off"
            defaultValue={value("discountValue")}
            {...fieldAria(id("discountValue"), error("discountValue"), {
              hint: true,
              order: "hint-first",
            })}
          />
          <Hint id={`${id("discountValue")}-hint`}>{t("promotions.hints.discountValue")}</Hint>
        </Field>
        <Field
          id={id("minPurchase")}
          label={t("promotions.fields.minPurchase")}
          error={error("minPurchase")}
        >
          <Input
            id={id("minPurchase")}
            name="minPurchase"
            inputMode="decimal"
            dir="ltr"
            autoComplete="off"
            defaultValue={value("minPurchase")}
            {...fieldAria(id("minPurchase"), error("minPurchase"), {
              hint: true,
              order: "hint-first",
            })}
          />
          <Hint id={`${id("minPurchase")}-hint`}>{t("promotions.hints.minPurchase")}</Hint>
        </Field>
        <Field id={id("maxUses")} label={t("promotions.fields.maxUses")} error={error("maxUses")}>
          <Input
            id={id("maxUses")}
            name="maxUses"
            inputMode="numeric"
            dir="ltr"
            required
            autoComplete="off"
            defaultValue={value("maxUses")}
            {...fieldAria(id("maxUses"), error("maxUses"), {
              hint: Boolean(voucher),
              order: "hint-first",
            })}
          />
          {voucher ? (
            <Hint id={`${id("maxUses")}-hint`}>
              {t("promotions.hints.maxUses", { count: voucher.usedCount })}
            </Hint>
          ) : null}
        </Field>
      </div>
      <div className="grid items-start gap-4 sm:grid-cols-2">
        <Field
          id={id("validFrom")}
          label={t("promotions.fields.validFrom")}
          error={error("validFrom")}
        >
          <Input
            id={id("validFrom")}
            name="validFrom"
            type="date"
            required
            defaultValue={value("validFrom")}
            {...fieldAria(id("validFrom"), error("validFrom"), { order: "hint-first" })}
          />
        </Field>
        <Field
          id={id("validUntil")}
          label={t("promotions.fields.validUntil")}
          error={error("validUntil")}
        >
          <Input
            id={id("validUntil")}
            name="validUntil"
            type="date"
            required
            defaultValue={value("validUntil")}
            {...fieldAria(id("validUntil"), error("validUntil"), { order: "hint-first" })}
          />
        </Field>
      </div>
      <p className="-mt-3 text-sm text-muted-foreground">{t("promotions.hints.dates")}</p>
      <fieldset
        className="grid gap-3"
        aria-describedby={error("products") ? `${id("products")}-error` : undefined}
      >
        <legend className="text-sm font-medium">{t("promotions.fields.appliesTo")}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="appliesTo"
            value="all"
            defaultChecked={value("appliesTo") !== "selected"}
          />
          {t("promotions.allProducts")}
        </label>
        <label className="flex items-center gap-2 text-sm">
          <input
            type="radio"
            name="appliesTo"
            value="selected"
            defaultChecked={value("appliesTo") === "selected"}
          />
          {t("promotions.selectedProducts")}
        </label>
        <ul className="grid gap-2 ps-6 sm:grid-cols-2 lg:grid-cols-3">
          {products.map((product) => (
            <li key={product.id}>
              <label className="flex items-start gap-2 text-sm">
                <input
                  type="checkbox"
                  name={`product-${product.id}`}
                  defaultChecked={value(`product-${product.id}`) === "on"}
                  className="mt-1"
                />
                <span>
                  <bdi>{product.name}</bdi>{" "}
                  <span className="text-xs text-muted-foreground">
                    ({t(PRODUCT_TYPE_LABELS[product.type])}
                    {product.status === "hidden"
                      ? ` · ${t(PRODUCT_STATUS_LABELS[product.status])}`
                      : ""}
                    )
                  </span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {error("products") ? (
          <p id={`${id("products")}-error`} className="text-sm text-destructive" role="alert">
            {error("products")}
          </p>
        ) : null}
      </fieldset>
    </EditorPage>
  );
}
