import { ArrowLeftIcon, PencilIcon, PlusIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { FilterBar, type ListFilters } from "~/components/data-table/filter-bar";
import { Button } from "~/components/ui/button";
import { ListPage } from "~/components/data-table/list-page";
import type { DataTableProps } from "~/components/data-table/data-table";
import type { PagerProps } from "~/components/data-table/pager";
import { Card, CardContent } from "~/components/ui/card";
import { FormFields, fieldNames, type FieldSpec } from "~/components/ui/form-card";
import { IntentButton } from "~/components/ui/intent-button";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";
import { useMessage } from "~/i18n/use-message";
import { cn } from "~/lib/utils";

/** The outcome of a form on these pages: what happened and, for a refusal, why. */
export interface CatalogueActionResult extends ActionResult {
  /** "save" for the create and edit form, "row" for a row's buttons. */
  intent: "save" | "row";
  id?: string;
}

/** The two lists with an editor; their texts sit under the same keys in each one's part of the catalogue. */
export type CatalogueArea = "products" | "promotions";

// Catalogue keys written out per list, so the catalogue test sees every one in use (docs/i18n.md).
const AREA_TEXTS = {
  products: {
    nav: "nav.products",
    intro: "products.intro",
    new: "products.new",
    noMatch: "products.noMatch",
    empty: "products.empty",
    created: "products.created",
    updated: "products.updated",
    notFound: "products.errors.notFound",
    filter: "products.filter",
    back: "products.back",
    newTitle: "products.newTitle",
    formIntro: "products.formIntro",
    save: "products.save",
    create: "products.create",
  },
  promotions: {
    nav: "nav.promotions",
    intro: "promotions.intro",
    new: "promotions.new",
    noMatch: "promotions.noMatch",
    empty: "promotions.empty",
    created: "promotions.created",
    updated: "promotions.updated",
    notFound: "promotions.errors.notFound",
    filter: "promotions.filter",
    back: "promotions.back",
    newTitle: "promotions.newTitle",
    formIntro: "promotions.formIntro",
    save: "promotions.save",
    create: "promotions.create",
  },
} as const satisfies Record<CatalogueArea, Record<string, string>>;

// A row's edit button and its on/off switch per list, keys written out (docs/i18n.md): `on` is the
// button an item that is on (shown, active) gets, `off` the one it gets when off.
const ROW_ACTION_TEXTS = {
  products: {
    edit: "admin-catalogue.products.edit",
    editFor: "admin-catalogue.products.editFor",
    on: {
      intent: "hide",
      label: "admin-catalogue.products.hide",
      labelFor: "admin-catalogue.products.hideFor",
    },
    off: {
      intent: "show",
      label: "admin-catalogue.products.show",
      labelFor: "admin-catalogue.products.showFor",
    },
  },
  promotions: {
    edit: "admin-catalogue.promotions.edit",
    editFor: "admin-catalogue.promotions.editFor",
    on: {
      intent: "deactivate",
      label: "admin-catalogue.promotions.deactivate",
      labelFor: "admin-catalogue.promotions.deactivateFor",
    },
    off: {
      intent: "activate",
      label: "admin-catalogue.promotions.activate",
      labelFor: "admin-catalogue.promotions.activateFor",
    },
  },
} as const satisfies Record<CatalogueArea, object>;

/**
 * A row's buttons: edit, then switch it off or on (each named for the item by `names`, e.g. its name or
 * code), then what else the list offers (`children`).
 */
export function RowActions({
  area,
  action,
  id,
  on,
  names,
  className,
  children,
}: {
  area: CatalogueArea;
  action: string;
  id: number;
  on: boolean;
  names: Record<string, string>;
  className: string;
  children?: ReactNode;
}) {
  const message = useMessage();
  const texts = ROW_ACTION_TEXTS[area];
  const toggle = on ? texts.on : texts.off;
  return (
    <div className={className}>
      <EditLink
        id={id}
        label={message(texts.edit)}
        accessibleName={message(texts.editFor, names)}
      />
      <RowIntentButton
        action={action}
        intent={toggle.intent}
        id={id}
        label={message(toggle.label)}
        accessibleName={message(toggle.labelFor, names)}
      />
      {children}
    </div>
  );
}

/** Each list's filter bar layout (its fields are the page's). */
const AREA_FILTER_GRIDS = {
  products: "sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end",
  promotions: "sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end",
} as const satisfies Record<CatalogueArea, string>;

export function PageHeader({
  title,
  intro,
  children,
  className,
}: {
  title: string;
  intro?: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div className={cn("flex flex-wrap items-start justify-between gap-3", className)}>
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl font-bold">{title}</h1>
        {intro ? <p className="max-w-3xl text-sm text-muted-foreground">{intro}</p> : null}
      </div>
      {children}
    </div>
  );
}

/** True while a form is being sent or the page reloads: its buttons wait. */
export function useBusy() {
  return useNavigation().state !== "idle";
}

/** The header's button that opens the editor on a new item. */
export function NewLink({ label }: { label: string }) {
  return (
    <Button asChild>
      <Link to="?edit=new">
        <PlusIcon aria-hidden />
        {label}
      </Link>
    </Button>
  );
}

/** A row's button that opens the editor on it; `accessibleName` names the item. */
export function EditLink({
  id,
  label,
  accessibleName,
}: {
  id: number;
  label: string;
  accessibleName: string;
}) {
  return (
    <Button asChild variant="outline" size="sm">
      <Link to={`?edit=${id}`} aria-label={accessibleName}>
        <PencilIcon aria-hidden />
        {label}
      </Link>
    </Button>
  );
}

/** A row's one-intent button (hide, show, activate...): a plain form, so it works without JavaScript. */
export function RowIntentButton({
  action,
  intent,
  id,
  label,
  accessibleName,
}: {
  action: string;
  intent: string;
  id: number;
  label: string;
  accessibleName: string;
}) {
  return (
    <IntentButton
      action={action}
      intent={intent}
      fields={{ id }}
      variant="outline"
      accessibleName={accessibleName}
    >
      {label}
    </IntentButton>
  );
}

/**
 * A list's messages: the last save's notice (unless a row action has just said something), an item
 * asked for that does not exist, then what a row action did.
 */
export function ListMessages({
  notice,
  notFound,
  result,
}: {
  notice?: string;
  notFound?: string;
  result?: CatalogueActionResult;
}) {
  return (
    <>
      {notice && !result ? <StatusMessage ok>{notice}</StatusMessage> : null}
      {notFound ? <StatusMessage ok={false}>{notFound}</StatusMessage> : null}
      {result ? <ResultMessage result={result} /> : null}
    </>
  );
}

/**
 * An editor page: the way back to the list, the title (`editTitle` for an item, else the new item's), a
 * refused save's reasons, a note on the item's history, then the form (create without `id`, update with
 * it) and its save and cancel buttons.
 */
export function EditorPage({
  area,
  editTitle,
  id,
  result,
  note,
  children,
}: {
  area: CatalogueArea;
  editTitle?: string;
  id?: number;
  result?: CatalogueActionResult;
  note?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation("admin-catalogue");
  const busy = useBusy();
  const texts = AREA_TEXTS[area];
  const listHref = `/admin/${area}`;
  return (
    <main className="grid min-w-0 gap-4">
      <Link
        to={listHref}
        className="inline-flex w-fit items-center gap-1 text-sm text-primary hover:underline"
      >
        <ArrowLeftIcon className="size-4 rtl:rotate-180" aria-hidden />
        {t(texts.back)}
      </Link>
      <PageHeader title={editTitle ?? t(texts.newTitle)} intro={t(texts.formIntro)} />
      {result && !result.ok ? <ResultMessage result={result} /> : null}
      {note ? (
        <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          {note}
        </p>
      ) : null}
      <Card>
        <CardContent className="pt-6">
          <Form method="post" className="grid gap-5" noValidate>
            <input type="hidden" name="intent" value={id === undefined ? "create" : "update"} />
            {id === undefined ? null : <input type="hidden" name="id" value={id} />}
            {children}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" disabled={busy}>
                {t(id === undefined ? texts.create : texts.save)}
              </Button>
              <Button asChild variant="outline">
                <Link to={listHref}>{t("cancel")}</Link>
              </Button>
            </div>
          </Form>
        </CardContent>
      </Card>
    </main>
  );
}

/**
 * A list with an editor on the same address. The editor when an item (or "new") is asked for with
 * ?edit=, with a save's result. Else the list: the title and the button to a new item, the filters, the
 * last save's notice, an item asked for that does not exist or what a row action did, then the table (or
 * why it is empty) and the pager.
 */
export function CataloguePage<Item, Row, Query extends { notice?: "created" | "updated" }>({
  area,
  page: { editing, result, query },
  editor,
  filters,
  count,
  table,
  footer,
  pager,
}: {
  area: CatalogueArea;
  /** The list page's state: the item being edited, the last post's result, the query. */
  page: {
    editing: Item | "new" | null | undefined;
    result?: CatalogueActionResult;
    query: Query;
  };
  editor: (item: Item | undefined, result: CatalogueActionResult | undefined) => ReactNode;
  /** The filter bar's fields and what they hold (`listFilters`); its layout is the list's own. */
  filters: ListFilters<Query>;
  count?: ReactNode;
  table: DataTableProps<Row>;
  footer?: ReactNode;
  pager?: PagerProps;
}) {
  const { t } = useTranslation("admin-catalogue");
  const { t: tAdmin } = useTranslation("admin");
  if (editing)
    return editor(
      editing === "new" ? undefined : editing,
      result?.intent === "save" ? result : undefined,
    );
  const texts = AREA_TEXTS[area];
  return (
    <ListPage
      header={
        <PageHeader title={tAdmin(texts.nav)} intro={t(texts.intro)}>
          <NewLink label={t(texts.new)} />
        </PageHeader>
      }
      filters={
        <FilterBar
          filters={filters}
          label={t(texts.filter)}
          applyLabel={t("apply")}
          clearLabel={t("clear")}
          className={AREA_FILTER_GRIDS[area]}
        />
      }
      table={{ caption: tAdmin(texts.nav), ...table }}
      empty={t(filters.filtered ? texts.noMatch : texts.empty)}
      footer={footer}
      pager={pager}
    >
      {count}
      <ListMessages
        notice={
          query.notice ? t(query.notice === "created" ? texts.created : texts.updated) : undefined
        }
        notFound={editing === null ? t(texts.notFound) : undefined}
        result={result?.intent === "row" ? result : undefined}
      />
    </ListPage>
  );
}

/**
 * An editor form's fields: each one's id (`<prefix>-<field>`), what it shows (what was typed when a save
 * was refused, else the item as it is) and its error.
 */
export function useEditorForm(
  prefix: string,
  result: CatalogueActionResult | undefined,
  initial: Record<string, string>,
) {
  const message = useMessage();
  const values = result?.values;
  const errors = result?.fieldErrors ?? {};
  return {
    prefix,
    errors,
    id: (field: string) => `${prefix}-${field}`,
    value: (field: string) => (values ? (values[field] ?? "") : (initial[field] ?? "")),
    error: (field: string) => message(errors[field]),
  };
}

export type EditorForm = ReturnType<typeof useEditorForm>;

/**
 * An editor's fields from a field list (the kit's FormFields): each shows what `editor` holds for it,
 * its hint named before its error, as these forms always had.
 */
export function EditorFields({
  editor,
  fields,
}: {
  editor: EditorForm;
  fields: readonly FieldSpec[];
}) {
  return (
    <FormFields
      fields={fields}
      idPrefix={editor.prefix}
      values={Object.fromEntries(fieldNames(fields).map((name) => [name, editor.value(name)]))}
      errors={editor.errors}
      order="hint-first"
    />
  );
}
