import type { ComponentType, ReactNode } from "react";
import { FilterBar, type ListFilters } from "~/components/data-table/filter-bar";
import type { Column } from "~/components/data-table/data-table";
import type { PagerProps } from "~/components/data-table/pager";
import {
  EditorPage,
  useEditorForm,
  type EditorFormState,
} from "~/components/list-editor/editor-page";
import {
  ListEditorPage,
  NewLink,
  type EditorActionResult,
  type EditorProps,
  type ListEditorState,
} from "~/components/list-editor/list-editor-page";
import type { FieldSpec } from "~/components/ui/form-card";
import { useTranslation } from "~/i18n/use-translation";
import { useMessage } from "~/i18n/use-message";

// What the catalogue's two lists with an editor (products, promotions) add to the kit's list and editor
// (app/components/list-editor): each list's texts, row buttons and layout, and the catalogue's heading.

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

/**
 * The catalogue pages' title and introduction, with what stands beside them (the list's "new" button).
 * Older than the kit's PageHeading, whose title wraps anywhere and whose introduction is not held to a
 * reading width: switching would change how these pages look.
 */
function PageHeader({
  title,
  intro,
  children,
}: {
  title: string;
  intro: string;
  children?: ReactNode;
}) {
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      <div className="grid min-w-0 gap-1">
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="max-w-3xl text-sm text-muted-foreground">{intro}</p>
      </div>
      {children}
    </div>
  );
}

/** What a catalogue list's page is given: the kit's state, and which list it is. */
export interface CatalogueState<Item> extends ListEditorState<Item> {
  area: CatalogueArea;
}

/** What a row's buttons are for: the address they post to, the row, whether it is on, its names. */
export interface RowActionsOf {
  action: string;
  id: number;
  on: boolean;
  /** What names the item in the buttons' accessible names ({{name}}, {{code}}). */
  names: Record<string, string>;
  children?: ReactNode;
}

/**
 * A catalogue list with its editor (the kit's ListEditorPage): the list's title, intro and "new" button,
 * its filter bar, its texts, and each row's edit button and on/off switch (`rowActions`: `on` picks the
 * switch that turns the item off) named for the item by `names`, then what else the row offers.
 */
export function CataloguePage<Item extends { id: number }, Page extends CatalogueState<Item>>({
  page,
  editor,
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
  const message = useMessage();
  const { area } = page;
  const texts = AREA_TEXTS[area];
  const buttons = ROW_ACTION_TEXTS[area];
  return (
    <ListEditorPage
      page={page}
      editor={editor}
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
      count={count}
      table={{ caption: tAdmin(texts.nav), columns, rows }}
      rowActions={{
        header: t(texts.actions),
        className: AREA_LAYOUTS[area].rowActions,
        of: (item) => {
          const { action, id, on, names, children } = rowActions(item);
          const toggle = on ? buttons.on : buttons.off;
          return {
            action,
            id,
            edit: {
              label: message(buttons.edit),
              accessibleName: message(buttons.editFor, names),
            },
            toggle: {
              intent: toggle.intent,
              label: message(toggle.label),
              accessibleName: message(toggle.labelFor, names),
            },
            children,
          };
        },
      }}
      empty={t(filters.filtered ? texts.noMatch : texts.empty)}
      notices={{
        created: t(texts.created),
        updated: t(texts.updated),
        notFound: t(texts.notFound),
      }}
      footer={footer}
      pager={pager}
    />
  );
}

/** A catalogue editor's form: the kit's, with the list's field id prefix, and which list it is. */
export function useCatalogueForm<Item extends { id: number }>(
  area: CatalogueArea,
  props: { item?: Item; result?: EditorActionResult },
  initial: Record<string, string>,
) {
  return { ...useEditorForm(AREA_LAYOUTS[area].prefix, props, initial), area };
}

export type CatalogueForm = EditorFormState & { area: CatalogueArea };

/**
 * A catalogue editor (the kit's EditorPage): the way back to the list and the title (`editTitle` for an
 * item, else the new item's) in the list's words, a note on the item's history, then the form.
 */
export function CatalogueEditor({
  form,
  editTitle,
  note,
  fields,
  children,
  after,
}: {
  form: CatalogueForm;
  editTitle?: string;
  note?: string;
  fields: readonly FieldSpec[];
  children?: ReactNode;
  /** After the form's card: another form its controls point at with `form=` (a product's egg picker). */
  after?: ReactNode;
}) {
  const { t } = useTranslation("admin-catalogue");
  const texts = AREA_TEXTS[form.area];
  return (
    <EditorPage
      form={form}
      back={{ to: `/admin/${form.area}`, label: t(texts.back) }}
      header={<PageHeader title={editTitle ?? t(texts.newTitle)} intro={t(texts.formIntro)} />}
      notes={
        note ? (
          <p className="rounded-md border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900">
            {note}
          </p>
        ) : null
      }
      labels={{ create: t(texts.create), save: t(texts.save), cancel: t("cancel") }}
      fields={fields}
      after={after}
    >
      {children}
    </EditorPage>
  );
}
