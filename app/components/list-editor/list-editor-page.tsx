import { PencilIcon, PlusIcon } from "lucide-react";
import type { ComponentType, ReactNode } from "react";
import { actionsColumn } from "~/components/data-table/column-presets";
import { byId, type Column } from "~/components/data-table/data-table";
import { ListPage } from "~/components/data-table/list-page";
import type { PagerProps } from "~/components/data-table/pager";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { Link } from "~/components/ui/link";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";

/** The outcome of a post to a list with an editor: what happened and, for a refusal, why. */
export interface EditorActionResult extends ActionResult {
  /** "save" for the create and edit form, "row" for a row's buttons (`id` says which row). */
  intent: "save" | "row";
  id?: string;
  /** The values each refused field's message takes ({{max}}), where it takes some. */
  fieldErrorValues?: Record<string, Record<string, string | number>>;
}

/**
 * What a list-with-editor page is given (its loader's data, app/http/list-editor.server.ts): the item
 * asked for with ?edit= ("new", null when it does not exist, undefined when none is asked for), the last
 * post's result and the query, whose `notice` says what the last save did.
 */
export interface ListEditorState<Item> {
  editing: Item | "new" | null | undefined;
  result?: EditorActionResult;
  query: { notice?: "created" | "updated" };
}

/** An editor's props: the item (none for a new one), a refused save's result, and the page's data. */
export interface EditorProps<Item, Page> {
  item?: Item;
  result?: EditorActionResult;
  page: Page;
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

/** A button's words: what it says, and its name for a screen reader (the item's name in it). */
export interface RowButtonText {
  label: string;
  accessibleName: string;
}

/**
 * What a row's buttons are: the address the switch posts to, the row's id, the edit link's words, the
 * switch (its intent: hide, show, enable... and words), then what else the list offers (`children`).
 */
export interface RowActionsProps {
  action: string;
  id: number;
  edit: RowButtonText;
  toggle: RowButtonText & { intent: string };
  children?: ReactNode;
}

/**
 * A row's buttons: edit, then the one-intent switch (a plain form, so it works without JavaScript),
 * then the rest, in a box of the list's own layout (`className`).
 */
export function RowActions({
  action,
  id,
  edit,
  toggle,
  className,
  children,
}: RowActionsProps & { className: string }) {
  return (
    <div className={className}>
      <EditLink id={id} {...edit} />
      <IntentButton
        action={action}
        intent={toggle.intent}
        fields={{ id }}
        variant="outline"
        accessibleName={toggle.accessibleName}
      >
        {toggle.label}
      </IntentButton>
      {children}
    </div>
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
  result?: EditorActionResult;
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
 * A list with an editor on the same address (`page`: the loader's data). The `editor` when an item (or
 * "new") is asked for with ?edit=, with a save's result. Else the list: its `header` (title and a
 * NewLink), its `filters`, what it counts, the last save's notice, an item asked for that does not exist
 * or what a row action did, then the table (its columns, then each row's buttons from `rowActions`,
 * RowActions) or `empty`, a footer and the pager.
 */
export function ListEditorPage<Item extends { id: number }, Page extends ListEditorState<Item>>({
  page,
  editor: Editor,
  header,
  filters,
  count,
  table: { caption, columns, rows },
  rowActions,
  empty,
  notices,
  footer,
  pager,
}: {
  page: Page;
  editor: ComponentType<EditorProps<Item, Page>>;
  header: ReactNode;
  /** The filter bar, when the list has one. */
  filters?: ReactNode;
  count?: ReactNode;
  table: { caption: string; columns: Column<Item>[]; rows: Item[] };
  /** The buttons' column: its header, the box's layout and each row's buttons. */
  rowActions: { header: string; className: string; of: (item: Item) => RowActionsProps };
  /** Shown instead of the table when there is no row. */
  empty: string;
  /** What the list says after a save, and when the item asked for does not exist. */
  notices: { created: string; updated: string; notFound: string };
  footer?: ReactNode;
  pager?: PagerProps;
}) {
  const { editing, result, query } = page;
  if (editing)
    return (
      <Editor
        item={editing === "new" ? undefined : editing}
        result={result?.intent === "save" ? result : undefined}
        page={page}
      />
    );
  const actions = actionsColumn(
    rowActions.header,
    (item: Item) => <RowActions className={rowActions.className} {...rowActions.of(item)} />,
    { wide: true },
  );
  return (
    <ListPage
      header={header}
      filters={filters}
      table={{ caption, columns: [...columns, actions], rows, rowKey: byId }}
      empty={empty}
      footer={footer}
      pager={pager}
    >
      {count}
      <ListMessages
        notice={query.notice ? notices[query.notice] : undefined}
        notFound={editing === null ? notices.notFound : undefined}
        result={result?.intent === "row" ? result : undefined}
      />
    </ListPage>
  );
}
