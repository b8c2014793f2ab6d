import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import type { Column } from "~/components/data-table/data-table";
import { badgeColumn, column } from "~/components/data-table/column-presets";
import { choicesOf } from "~/components/ui/form-card";
import { listFilters } from "~/components/data-table/filter-bar";
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
import { centsToEuroInput } from "~/lib/euro-input";
import { formatEuros } from "~/lib/money";
import { editorRow } from "~/components/list-editor/editor-page";
import type { EditorActionResult, EditorProps } from "~/components/list-editor/list-editor-page";
import { CatalogueEditor, CataloguePage, useCatalogueForm } from "./catalogue-page";
import { dateTimeFormat, numberFormat } from "~/lib/intl-format";

const STATUS_TONES = {
  active: "green",
  inactive: "grey",
  scheduled: "blue",
  expired: "red",
  usedUp: "yellow",
} as const satisfies Record<VoucherStatus, "green" | "grey" | "blue" | "red" | "yellow">;

// What a voucher applies to, and the editor's radio button for each (keys written out, docs/i18n.md).
const APPLIES_TO = ["all", "selected"] as const;
const APPLIES_TO_LABELS = {
  all: "promotions.allProducts",
  selected: "promotions.selectedProducts",
} as const satisfies Record<(typeof APPLIES_TO)[number], string>;

/** "10%" or "€5.00", as the reader's language writes them. */
function discountText(voucher: AdminVoucher, locale: string): string {
  return voucher.discountType === "percentage"
    ? numberFormat(locale, { style: "percent" }).format(voucher.discountValue / 100)
    : formatEuros(voucher.discountValue, locale);
}

interface PromotionsPageProps {
  area: "promotions";
  vouchers: AdminVoucher[];
  hasMore: boolean;
  total: number;
  products: ProductChoice[];
  editing: AdminVoucher | "new" | null | undefined;
  /** The server's day (YYYY-MM-DD), a new voucher's first. */
  today: string;
  query: VoucherListQuery;
  locale: string;
  result?: EditorActionResult;
}

export function PromotionsPage(page: PromotionsPageProps) {
  const { vouchers, hasMore, total, products, query, locale } = page;
  const { t } = useTranslation("admin-catalogue");
  const day = dateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const names = new Map(products.map((product) => [product.id, product.name]));
  const filters = listFilters(query, "voucher", [
    {
      kind: "search",
      name: "q",
      label: t("promotions.search"),
      id: "voucher-search",
      dir: "ltr",
      maxLength: MAX_CODE_LENGTH,
    },
    {
      kind: "select",
      name: "status",
      label: t("promotions.columns.status"),
      anyLabel: t("promotions.anyStatus"),
      options: choicesOf(VOUCHER_STATUSES, (status) => t(VOUCHER_STATUS_LABELS[status])),
    },
  ]);
  // Row buttons post to this page of the list without the last save's notice.
  const action = `/admin/promotions${filters.href(query.page)}`;
  const columns: Column<AdminVoucher>[] = [
    {
      id: "code",
      header: t("promotions.columns.code"),
      wide: true,
      cell: (voucher) => (
        <>
          <p className="font-mono font-semibold" dir="ltr" id={`voucher-${voucher.id}`}>
            {voucher.code}
          </p>
          {voucher.description ? (
            <p className="text-xs text-muted-foreground" dir="auto">
              {voucher.description}
            </p>
          ) : null}
        </>
      ),
    },
    column("discount", t("promotions.columns.discount"), (voucher) => (
      <>
        <span className="block font-mono" dir="ltr">
          {discountText(voucher, locale)}
        </span>
        {voucher.minPurchaseCents > 0 ? (
          <span className="block text-xs text-muted-foreground">
            {t("promotions.minimum", { amount: formatEuros(voucher.minPurchaseCents, locale) })}
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
      </>
    )),
    column("validity", t("promotions.columns.validity"), (voucher) => (
      <>
        <span className="block whitespace-nowrap">
          {t("promotions.from", { date: day.format(new Date(voucher.validFrom)) })}
        </span>
        <span className="block whitespace-nowrap">
          {t("promotions.until", { date: day.format(new Date(voucher.validUntil)) })}
        </span>
      </>
    )),
    badgeColumn(
      "status",
      t("promotions.columns.status"),
      (voucher) => ({
        tone: STATUS_TONES[voucher.status],
        text: t(VOUCHER_STATUS_LABELS[voucher.status]),
      }),
      { label: true },
    ),
    column("uses", t("promotions.columns.uses"), (voucher) => (
      <span className="block font-mono whitespace-nowrap" dir="ltr">
        {voucher.usedCount} / {voucher.maxUses}
      </span>
    )),
    column("orders", t("promotions.columns.orders"), (voucher) => (
      <>
        <span className="block">{t("promotions.orderCount", { count: voucher.orderCount })}</span>
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
      </>
    )),
  ];
  return (
    <CataloguePage
      page={page}
      editor={VoucherEditor}
      filters={filters}
      count={
        <p className="text-sm text-muted-foreground">{t("promotions.count", { count: total })}</p>
      }
      table={{ columns, rows: vouchers }}
      rowActions={(voucher) => ({
        action,
        id: voucher.id,
        on: voucher.isActive,
        names: { code: voucher.code },
      })}
      pager={{ page: query.page, hasMore, href: filters.href }}
    />
  );
}

function VoucherEditor(props: EditorProps<AdminVoucher, PromotionsPageProps>) {
  const voucher = props.item;
  const { products, today } = props.page;
  const { t } = useTranslation("admin-catalogue");
  const form = useCatalogueForm(
    "promotions",
    props,
    voucher
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
      : { discountType: "percentage", maxUses: "100", validFrom: today, appliesTo: "all" },
  );
  const { value, error, id } = form;
  return (
    <CatalogueEditor
      form={form}
      editTitle={voucher && t("promotions.editTitle", { code: voucher.code })}
      note={
        voucher && voucher.usedCount > 0
          ? t("promotions.historyNote", { count: voucher.usedCount })
          : undefined
      }

      fields={[
        editorRow(2, [
          {
            kind: "input",
            name: "code",
            label: t("promotions.fields.code"),
            hint: t("promotions.hints.code"),
            required: true,
            dir: "ltr",
            autoComplete: "off",
            maxLength: MAX_CODE_LENGTH,
            className: "font-mono uppercase",
          },
          {
            kind: "input",
            name: "description",
            label: t("promotions.fields.description"),
            dir: "auto",
            maxLength: MAX_VOUCHER_DESCRIPTION_LENGTH,
          },
        ]),
        editorRow(4, [
          {
            kind: "select",
            name: "discountType",
            variant: "validated",
            label: t("promotions.fields.discountType"),
            options: choicesOf(DISCOUNT_TYPES, (type) => t(DISCOUNT_TYPE_LABELS[type])),
          },
          {
            kind: "input",
            name: "discountValue",
            label: t("promotions.fields.discountValue"),
            hint: t("promotions.hints.discountValue"),
            inputMode: "decimal",
            dir: "ltr",
            required: true,
            autoComplete: "off",
          },
          {
            kind: "input",
            name: "minPurchase",
            label: t("promotions.fields.minPurchase"),
            hint: t("promotions.hints.minPurchase"),
            inputMode: "decimal",
            dir: "ltr",
            autoComplete: "off",
          },
          {
            kind: "input",
            name: "maxUses",
            label: t("promotions.fields.maxUses"),
            hint: voucher ? t("promotions.hints.maxUses", { count: voucher.usedCount }) : undefined,
            inputMode: "numeric",
            dir: "ltr",
            required: true,
            autoComplete: "off",
          },
        ]),
        editorRow(2, [
          {
            kind: "input",
            name: "validFrom",
            label: t("promotions.fields.validFrom"),
            type: "date",
            required: true,
          },
          {
            kind: "input",
            name: "validUntil",
            label: t("promotions.fields.validUntil"),
            type: "date",
            required: true,
          },
        ]),
      ]}
    >
      <p className="-mt-3 text-sm text-muted-foreground">{t("promotions.hints.dates")}</p>
      <fieldset
        className="grid gap-3"
        aria-describedby={error("products") ? `${id("products")}-error` : undefined}
      >
        <legend className="text-sm font-medium">{t("promotions.fields.appliesTo")}</legend>
        {APPLIES_TO.map((choice) => (
          <label key={choice} className="flex items-center gap-2 text-sm">
            <input
              type="radio"
              name="appliesTo"
              value={choice}
              // Anything but "selected" (a new voucher, an old form) is every product.
              defaultChecked={(value("appliesTo") === "selected") === (choice === "selected")}
            />
            {t(APPLIES_TO_LABELS[choice])}
          </label>
        ))}
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
    </CatalogueEditor>
  );
}
