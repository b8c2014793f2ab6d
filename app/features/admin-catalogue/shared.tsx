import { PencilIcon, PlusIcon } from "lucide-react";
import type { ComponentProps, ComponentType, ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { FilterBar, type ListFilters } from "~/components/data-table/filter-bar";
import { Button } from "~/components/ui/button";
import { EditorForm } from "~/components/ui/form-actions";
import { ListPage } from "~/components/data-table/list-page";
import { byId, type Column } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/column-presets";
import type { PagerProps } from "~/components/data-table/pager";
import { BackLink } from "~/components/ui/page-heading";
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
  /** The values each refused field's message takes ({{max}}), where it takes some. */
  fieldErrorValues?: Record<string, Record<string, string | number>>;
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
    actions: "products.columns.actions",
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
    actions: "promotions.columns.actions",
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

/**
 * Each list's layout: its editor's field id and row anchor prefix ("product-name", "#voucher-12"), its
 * filter bar's grid (its fields are the page's) and the box of a row's buttons (a product's may hold its
 * delete disclosure, so they top-align).
 */
const AREA_LAYOUTS = {
  products: {
    prefix: "product",
    filterGrid: "sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end",
    rowActions: "flex flex-wrap items-start gap-2 md:flex-nowrap",
  },
  promotions: {
    prefix: "voucher",
    filterGrid: "sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end",
    rowActions: "flex flex-wrap gap-2 md:flex-nowrap",
  },
} as const satisfies Record<CatalogueArea, object>;

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

/** The editors' rows of fields side by side, by how many sit in a row on a wide screen. */
const EDITOR_ROWS = {
  2: "grid items-start gap-4 sm:grid-cols-2",
  3: "grid items-start gap-4 sm:grid-cols-3",
  4: "grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4",
} as const;

/** A row of an editor's field list: `fields` side by side, laid out as every catalogue editor's rows. */
export function editorRow(
  columns: keyof typeof EDITOR_ROWS,
  fields: readonly FieldSpec[],
): FieldSpec {
  return { kind: "row", className: EDITOR_ROWS[columns], fields };
}

/**
 * What a list-with-editor page is given (its loader's data, app/http/list-editor.server.ts): which list,
 * the item asked for with ?edit= ("new", null when it does not exist, undefined when none is asked for),
 * the last post's result and the query.
 */
export interface CatalogueState<Item, Query> {
  area: CatalogueArea;
  editing: Item | "new" | null | undefined;
  result?: CatalogueActionResult;
  query: Query;
}

/** An editor's props: the item (none for a new one), a refused save's result, and the page's data. */
export interface EditorProps<Item, Page> {
  item?: Item;
  result?: CatalogueActionResult;
  page: Page;
}

/**
 * An editor page: the way back to the list, the title (`editTitle` for an item, else the new item's), a
 * refused save's reasons, a note on the item's history, then the form (create without an item, update
 * with it): the field list (`fields`, showing what `form` holds), anything else it holds (`children`),
 * and its save and cancel buttons.
 */
export function EditorPage({
  form,
  editTitle,
  note,
  fields,
  children,
  after,
}: {
  form: EditorForm;
  editTitle?: string;
  note?: string;
  fields: readonly FieldSpec[];
  children?: ReactNode;
  /** After the form's card: another form its controls point at with `form=` (a product's egg picker). */
  after?: ReactNode;
}) {
  const { t } = useTranslation("admin-catalogue");
  const busy = useBusy();
  const { area, itemId: id, result } = form;
  const texts = AREA_TEXTS[area];
  const listHref = `/admin/${area}`;
  return (
    <main className="grid min-w-0 gap-4">
      <BackLink to={listHref}>{t(texts.back)}</BackLink>
      <PageHeader title={editTitle ?? t(texts.newTitle)} intro={t(texts.formIntro)} />
      {result && !result.ok ? <ResultMessage result={result} /> : null}
      {note ? (
        <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
          {note}
        </p>
      ) : null}
      <EditorForm
        id={id}
        submitLabel={t(id === undefined ? texts.create : texts.save)}
        busy={busy}
        cancelTo={listHref}
        cancelLabel={t("cancel")}
      >
        <EditorFields editor={form} fields={fields} />
        {children}
      </EditorForm>
      {after}
    </main>
  );
}

/** What a row's buttons are for: the address they post to, the row, whether it is on, its names. */
export type RowActionsOf = Omit<ComponentProps<typeof RowActions>, "area" | "className">;

/**
 * A list with an editor on the same address (`page`: the loader's data). The `editor` when an item (or
 * "new") is asked for with ?edit=, with a save's result. Else the list: the title and the button to a new
 * item, the filters, the last save's notice, an item asked for that does not exist or what a row action
 * did, then the table (its columns, then each row's buttons from `rowActions`, RowActions) or why it is
 * empty, and the pager.
 */
export function CataloguePage<
  Item extends { id: number },
  Page extends CatalogueState<Item, { notice?: "created" | "updated" }>,
>({
  page,
  editor: Editor,
  filters,
  count,
  table: { columns, rows },
  rowActions,
  footer,
  pager,
}: {
  page: Page;
  editor: ComponentType<EditorProps<Item, Page>>;
  /** The filter bar's fields and what they hold (`listFilters`); its layout is the list's own. */
  filters: ListFilters<Page["query"]>;
  count?: ReactNode;
  table: { columns: Column<Item>[]; rows: Item[] };
  rowActions: (item: Item) => RowActionsOf;
  footer?: ReactNode;
  pager?: PagerProps;
}) {
  const { t } = useTranslation("admin-catalogue");
  const { t: tAdmin } = useTranslation("admin");
  const { area, editing, result, query } = page;
  if (editing)
    return (
      <Editor
        item={editing === "new" ? undefined : editing}
        result={result?.intent === "save" ? result : undefined}
        page={page}
      />
    );
  const texts = AREA_TEXTS[area];
  const actions = actionsColumn(
    t(texts.actions),
    (item: Item) => (
      <RowActions area={area} className={AREA_LAYOUTS[area].rowActions} {...rowActions(item)} />
    ),
    { wide: true },
  );
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
          className={AREA_LAYOUTS[area].filterGrid}
        />
      }
      table={{ caption: tAdmin(texts.nav), columns: [...columns, actions], rows, rowKey: byId }}
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
 * An editor's form of `area`'s item (none for a new one): each field's id (`<prefix>-<field>`), what it
 * shows (what was typed when a save was refused, else the item as it is) and its error.
 */
export function useEditorForm<Item extends { id: number }>(
  area: CatalogueArea,
  { item, result }: { item?: Item; result?: CatalogueActionResult },
  initial: Record<string, string>,
) {
  const message = useMessage();
  const values = result?.values;
  const errors = result?.fieldErrors ?? {};
  const errorValues = result?.fieldErrorValues ?? {};
  const prefix = AREA_LAYOUTS[area].prefix;
  return {
    area,
    itemId: item?.id,
    result,
    prefix,
    errors,
    errorValues,
    id: (field: string) => `${prefix}-${field}`,
    value: (field: string) => (values ? (values[field] ?? "") : (initial[field] ?? "")),
    error: (field: string) => message(errors[field], errorValues[field]),
  };
}

export type EditorForm = ReturnType<typeof useEditorForm>;

/**
 * Fields of an editor outside its main list (a product's texts per language), from a field list (the
 * kit's FormFields): each shows what `editor` holds for it (a switch is on when it holds "on", as a
 * checkbox sends it), its hint named before its error, as these forms always had.
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
      checked={Object.fromEntries(
        switchNames(fields).map((name) => [name, editor.value(name) === "on"]),
      )}
      errors={editor.errors}
      fieldErrorValues={editor.errorValues}
      order="hint-first"
    />
  );
}

function switchNames(fields: readonly FieldSpec[]): string[] {
  return fields.flatMap((spec) =>
    spec.kind === "row" ? switchNames(spec.fields) : spec.kind === "switch" ? [spec.name] : [],
  );
}
