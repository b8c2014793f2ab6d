import type { ReactNode } from "react";
import { EditorForm } from "~/components/ui/form-actions";
import { FormFields, fieldNames, type FieldSpec } from "~/components/ui/form-card";
import { BackLink } from "~/components/ui/page-heading";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import { useMessage } from "~/i18n/use-message";
import type { EditorActionResult } from "./list-editor-page";

/**
 * An editor's form of an item (none for a new one): each field's id (`<prefix>-<field>`), what it shows
 * (what was typed when a save was refused, else `initial`, the item as it is; "" for a field neither
 * has) and its error.
 */
export function useEditorForm<Item extends { id: number }>(
  prefix: string,
  { item, result }: { item?: Item; result?: EditorActionResult },
  initial: Record<string, string>,
) {
  const message = useMessage();
  const values = result?.values;
  const errors = result?.fieldErrors ?? {};
  const errorValues = result?.fieldErrorValues ?? {};
  return {
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

export type EditorFormState = ReturnType<typeof useEditorForm>;

/** The editors' rows of fields side by side, by how many sit in a row on a wide screen. */
const EDITOR_ROWS = {
  2: "grid items-start gap-4 sm:grid-cols-2",
  3: "grid items-start gap-4 sm:grid-cols-3",
  4: "grid items-start gap-4 sm:grid-cols-2 lg:grid-cols-4",
} as const;

/** A row of an editor's field list: `fields` side by side, laid out as every editor's rows. */
export function editorRow(
  columns: keyof typeof EDITOR_ROWS,
  fields: readonly FieldSpec[],
): FieldSpec {
  return { kind: "row", className: EDITOR_ROWS[columns], fields };
}

/**
 * Fields of an editor's form from a field list (the kit's FormFields): each shows what `editor` holds
 * for it (a switch is on when it holds "on", as a checkbox sends it), its hint named before its error.
 */
export function EditorFields({
  editor,
  fields,
}: {
  editor: EditorFormState;
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

/**
 * An editor page: the way `back` to the list, the page's `header` (its title), a refused save's
 * reasons, `notes` on the item (its history, what it is), then the form (create without an item, update
 * with it; posted to `action`, else the page's own address): the field list (`fields`, showing what
 * `form` holds), anything else it holds (`children`), and its save (`labels.create` or `labels.save`)
 * and cancel buttons, the cancel going back too.
 */
export function EditorPage({
  form,
  back,
  header,
  notes,
  action,
  labels,
  fields,
  children,
  after,
}: {
  form: EditorFormState;
  back: { to: string; label: string };
  header: ReactNode;
  notes?: ReactNode;
  action?: string;
  labels: { create: string; save: string; cancel: string };
  fields?: readonly FieldSpec[];
  children?: ReactNode;
  /** After the form's card: another form its controls point at with `form=` (a product's egg picker). */
  after?: ReactNode;
}) {
  const busy = useBusy();
  const { itemId: id, result } = form;
  return (
    <main className="grid min-w-0 gap-4">
      <BackLink to={back.to}>{back.label}</BackLink>
      {header}
      {result && !result.ok ? <ResultMessage result={result} /> : null}
      {notes}
      <EditorForm
        id={id}
        action={action}
        submitLabel={id === undefined ? labels.create : labels.save}
        busy={busy}
        cancelTo={back.to}
        cancelLabel={labels.cancel}
      >
        {fields ? <EditorFields editor={form} fields={fields} /> : null}
        {children}
      </EditorForm>
      {after}
    </main>
  );
}
