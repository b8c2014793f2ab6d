import { ArrowDownIcon, ArrowUpIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import type { Column } from "~/components/data-table/data-table";
import { badgeColumn, column } from "~/components/data-table/column-presets";
import { listFilters } from "~/components/data-table/filter-bar";
import type { EditorActionResult } from "~/components/list-editor/list-editor-page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { choicesOf } from "~/components/ui/form-card";
import { useBusy } from "~/components/ui/use-busy";
import { PRODUCT_STATUSES, PRODUCT_TYPES, type ProductType } from "~/domain/catalogue/catalogue";
import {
  canDeleteProduct,
  PRODUCT_CATEGORY_LABELS,
  PRODUCT_STATUS_LABELS,
  PRODUCT_TYPE_LABELS,
  type AdminProduct,
  type ProductChoice,
  type ProductListQuery,
} from "~/domain/catalogue/catalogue-admin";
import type { PanelSnapshot } from "~/domain/provisioning/panel-connection";
import { formatEuros } from "~/lib/money";
import { CataloguePage } from "./catalogue-page";
import { ProductEditor } from "./product-editor";

interface ProductsPageProps {
  area: "products";
  products: AdminProduct[];
  typeCounts: Partial<Record<ProductType, number>>;
  editing: AdminProduct | "new" | null | undefined;
  /** What the game panel had at its last check, with the editor open (null: never checked). */
  panel: PanelSnapshot | null;
  /** With the editor open, every product: where the edited one's services may change to. */
  planChoices: ProductChoice[];
  query: ProductListQuery;
  locale: string;
  result?: EditorActionResult;
}

export function ProductsPage(page: ProductsPageProps) {
  const { products, typeCounts, query, locale } = page;
  const { t } = useTranslation("admin-catalogue");
  const busy = useBusy();
  // Row buttons post to the list with its filters but without the last save's notice, which would
  // otherwise stay on the page beside the new message.
  const filters = listFilters(query, "product", [
    {
      kind: "select",
      name: "type",
      label: t("products.fields.type"),
      id: "product-type-filter",
      anyLabel: t("products.anyType"),
      options: choicesOf(PRODUCT_TYPES, (type) => t(PRODUCT_TYPE_LABELS[type])),
    },
    {
      kind: "select",
      name: "status",
      label: t("products.fields.status"),
      id: "product-status-filter",
      anyLabel: t("products.anyStatus"),
      options: choicesOf(PRODUCT_STATUSES, (status) => t(PRODUCT_STATUS_LABELS[status])),
    },
  ]);
  const action = `/admin/products${filters.filtered ? filters.href(1) : ""}`;
  const columns: Column<AdminProduct>[] = [
    {
      id: "product",
      header: t("products.columns.product"),
      wide: true,
      cell: (product) => (
        <>
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
          {product.provisioning.provisioner === "pterodactyl" ? (
            <span className="block">
              <Badge>{t("products.provisioning.badge")}</Badge>
            </span>
          ) : null}
          {product.activateWhenPaid ? (
            <span className="block">
              <Badge tone="green">{t("products.fields.activateWhenPaidBadge")}</Badge>
            </span>
          ) : null}
        </>
      ),
    },
    column("type", t("products.columns.type"), (product) => (
      <>
        <span className="block">{t(PRODUCT_TYPE_LABELS[product.type])}</span>
        <span className="block text-xs text-muted-foreground">
          {t(PRODUCT_CATEGORY_LABELS[product.category])}
        </span>
      </>
    )),
    column(
      "price",
      t("products.columns.price"),
      (product) => (
        <>
          <span className="block font-mono whitespace-nowrap" dir="ltr">
            {formatEuros(product.priceCents, locale)}
          </span>
          <span className="block text-xs text-muted-foreground">{t("products.perMonth")}</span>
        </>
      ),
      { headerClassName: "md:text-end", className: "md:text-end" },
    ),
    badgeColumn(
      "status",
      t("products.columns.status"),
      (product) => ({
        tone: product.status === "active" ? "green" : "grey",
        text: t(PRODUCT_STATUS_LABELS[product.status]),
      }),
      { label: true },
    ),
    column("use", t("products.columns.use"), (product) => (
      <>
        <span className="block">{t("products.orderCount", { count: product.orderCount })}</span>
        <span className="block">
          {t("products.activeServiceCount", { count: product.activeServiceCount })}
        </span>
      </>
    )),
    column("order", t("products.columns.order"), (product) => (
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
          disabled={busy || product.position >= (typeCounts[product.type] ?? 0) - 1}
        />
      </div>
    )),
  ];
  return (
    <CataloguePage
      page={page}
      editor={ProductEditor}
      filters={filters}
      table={{ columns, rows: products }}
      rowActions={(product) => ({
        action,
        id: product.id,
        on: product.status === "active",
        names: { name: product.name },
        children: canDeleteProduct(product) ? (
          <DeleteProduct product={product} action={action} />
        ) : null,
      })}
      footer={<p className="text-sm text-muted-foreground">{t("products.deleteNote")}</p>}
    />
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
