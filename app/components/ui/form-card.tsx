import { Fragment, type ComponentProps, type ReactNode } from "react";
import type { TOptions } from "i18next";
import { Form } from "react-router";
import { Button } from "./button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "./card";
import { formResultProps } from "./form-result";
import { Field, fieldAria, Hint, type DescriptionOrder } from "./field";
import { Input } from "./input";
import { PasswordInput } from "./password-input";
import { selectVariants, type SelectVariant } from "./select";
import { StatusMessage } from "./status-message";
import { textareaVariants, type TextareaVariant } from "./textarea";
import { useMessage, type MessageKey } from "~/i18n/use-message";

/** What every field says about itself: its label, maybe a hint, and its id when not the usual one. */
interface Labelled {
  /** The name the form sends. The control's id is `${idPrefix}-${name}` (or `name` without a prefix). */
  name: string;
  label: ReactNode;
  /** A line under the control; the control names it in aria-describedby. */
  hint?: ReactNode;
  /** An id other than the usual one (a field whose id and name differ). */
  id?: string;
}

/**
 * A control's own attributes; FormFields gives it its id, name and aria-* props, and its value from
 * `values` unless the spec sets `value` (a controlled field) or `defaultValue` (where it stands matters).
 */
type Attributes<Element extends "input" | "textarea" | "select"> = Omit<
  ComponentProps<Element>,
  "id" | "name" | "className" | "children" | `aria-${string}`
>;

/** `className` adds to the Input's own classes (a width, a font). */
export type InputSpec = Labelled & Attributes<"input"> & { kind: "input"; className?: string };
export type PasswordSpec = Labelled &
  Attributes<"input"> & { kind: "password"; showLabel: string; hideLabel: string };
export type TextareaSpec = Labelled &
  Attributes<"textarea"> & { kind: "textarea"; variant: TextareaVariant };
export type SelectSpec = Labelled &
  Attributes<"select"> & {
    kind: "select";
    variant: SelectVariant;
    /**
     * Words the runtime names (a country from Intl.DisplayNames) come from the loader: Node's and the
     * browser's tables differ ("Hong Kong SAR China", "Hong Kong"), and the page must hydrate as served.
     */
    options: readonly { value: string; label: ReactNode; lang?: string }[];
  };
/** A checkbox with its label beside it, for a setting that is on or off. */
export type SwitchSpec = Omit<Labelled, "hint"> & { kind: "switch"; hint?: ReactNode };
/** Fields side by side (`className` lays them out, e.g. "grid gap-4 sm:grid-cols-2"). */
export type RowSpec = { kind: "row"; className: string; fields: readonly FieldSpec[] };
/** Anything else a form holds between its fields (a preview, a link), under a key of its own. */
export type CustomSpec = { kind: "custom"; key: string; content: ReactNode };

/**
 * One entry of a form's field list. A control's attributes come out in the order its spec writes them:
 * `name` stands for the id and the name, `variant` for the class (FormFields adds the value, unless the
 * spec has one, and the aria props last), so a form written as data renders the markup it rendered when
 * it was written out.
 */
export type FieldSpec =
  InputSpec | PasswordSpec | TextareaSpec | SelectSpec | SwitchSpec | RowSpec | CustomSpec;

/** The keys of a spec that describe the field rather than being attributes of its control. */
const SPEC_KEYS = new Set(["kind", "label", "hint", "id", "options"]);

function controlAttributes(spec: object, id: string, variants?: Record<string, string>) {
  const attributes: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(spec)) {
    if (key === "name") {
      attributes.id = id;
      attributes.name = value;
    } else if (key === "variant" && variants) attributes.className = variants[value as string];
    else if (!SPEC_KEYS.has(key)) attributes[key] = value;
  }
  return attributes;
}

/**
 * A form's fields from a list: each a Field with its label, control, hint and translated error, tied
 * together by `fieldAria`. `values` fill the controls (what was typed, or what is stored), `checked` the
 * switches; `errors` are message keys; `errorValues` fill their placeholders, or `fieldErrorValues`
 * those of one field's message (an egg's rule: "at most {{max}} characters").
 */
export function FormFields({
  fields,
  idPrefix,
  values = {},
  checked = {},
  errors = {},
  errorValues,
  fieldErrorValues,
  order,
}: {
  fields: readonly FieldSpec[];
  idPrefix?: string;
  values?: Readonly<Record<string, string | undefined>>;
  checked?: Readonly<Record<string, boolean>>;
  errors?: Readonly<Record<string, MessageKey | undefined>>;
  errorValues?: TOptions;
  fieldErrorValues?: Readonly<Record<string, TOptions | undefined>>;
  order?: DescriptionOrder;
}) {
  const message = useMessage();
  const render = (spec: FieldSpec): ReactNode => {
    if (spec.kind === "row")
      return (
        <div key={spec.fields.map(keyOf).join(" ")} className={spec.className}>
          {spec.fields.map(render)}
        </div>
      );
    if (spec.kind === "custom") return <Fragment key={spec.key}>{spec.content}</Fragment>;
    const id = spec.id ?? (idPrefix ? `${idPrefix}-${spec.name}` : spec.name);
    if (spec.kind === "switch")
      return (
        <Switch
          key={spec.name}
          id={id}
          name={spec.name}
          label={spec.label}
          hint={spec.hint}
          checked={checked[spec.name] ?? false}
        />
      );
    const error = message(errors[spec.name], fieldErrorValues?.[spec.name] ?? errorValues);
    const aria = fieldAria(id, error, { hint: Boolean(spec.hint), order });
    const value =
      "value" in spec || "defaultValue" in spec ? {} : { defaultValue: values[spec.name] };
    let control: ReactNode;
    if (spec.kind === "input")
      control = <Input {...controlAttributes(spec, id)} {...value} {...aria} />;
    else if (spec.kind === "password")
      control = (
        <PasswordInput
          {...(controlAttributes(spec, id) as ComponentProps<typeof PasswordInput>)}
          {...aria}
        />
      );
    else if (spec.kind === "textarea")
      control = (
        <textarea {...controlAttributes(spec, id, textareaVariants)} {...value} {...aria} />
      );
    else
      control = (
        <select {...controlAttributes(spec, id, selectVariants)} {...value} {...aria}>
          {spec.options.map((option) => (
            <option key={option.value} value={option.value} lang={option.lang}>
              {option.label}
            </option>
          ))}
        </select>
      );
    return (
      <Field key={spec.name} id={id} label={spec.label} hint={spec.hint} error={error}>
        {control}
      </Field>
    );
  };
  return <>{fields.map(render)}</>;
}

/** A select's options: each of `values`, shown as `labelOf(value)`. */
export function choicesOf<T extends string>(values: readonly T[], labelOf: (value: T) => string) {
  return values.map((value) => ({ value, label: labelOf(value) }));
}

/** The names of the controls a field list holds, rows included (not switches' or custom content's). */
export function fieldNames(fields: readonly FieldSpec[]): string[] {
  return fields.flatMap((spec) =>
    spec.kind === "row"
      ? fieldNames(spec.fields)
      : spec.kind === "custom" || spec.kind === "switch"
        ? []
        : [spec.name],
  );
}

function keyOf(spec: FieldSpec): string {
  return spec.kind === "row"
    ? spec.fields.map(keyOf).join(" ")
    : spec.kind === "custom"
      ? spec.key
      : spec.name;
}

/**
 * Why a form as a whole was refused, above its fields (a field's own error stands under the field).
 * Brought into view and focused after the post, as every outcome is (useRevealFormResults).
 */
export function FormAlert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" {...formResultProps} className="rounded-md bg-red-50 p-3 text-sm text-red-700">
      {children}
    </p>
  );
}

/** A setting that is on or off: a checkbox, its label beside it and its hint under the label. */
export function Switch({
  id,
  name,
  label,
  hint,
  checked,
}: {
  id: string;
  name: string;
  label: ReactNode;
  hint?: ReactNode;
  checked: boolean;
}) {
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        name={name}
        type="checkbox"
        defaultChecked={checked}
        className="mt-1.5 size-4 shrink-0 accent-primary"
        aria-describedby={hint ? `${id}-hint` : undefined}
      />
      <div className="grid gap-1">
        {/* The label is the tap target on a phone (the box is 16 px): at least 24 px tall (WCAG 2.5.8). */}
        <label htmlFor={id} className="py-0.5 text-sm font-medium">
          {label}
        </label>
        {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      </div>
    </div>
  );
}

/**
 * A card holding one form that is saved on its own: its title (and `aside`, a badge beside it), what it
 * is for, the outcome of its last save, its fields and its save button. `id` is the card's anchor and the
 * form's `intent`.
 */
export function FormCard({
  id,
  title,
  description,
  aside,
  status,
  busy,
  submit,
  children,
}: {
  id: string;
  title: string;
  description: string;
  aside?: ReactNode;
  status?: { ok: boolean; text: ReactNode } | null;
  busy: boolean;
  submit: { label: string; busyLabel: string };
  children: ReactNode;
}) {
  return (
    <Card id={id} className="scroll-mt-20">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle>{title}</CardTitle>
          {aside}
        </div>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form method="post" className="grid gap-4" noValidate aria-label={title}>
          <input type="hidden" name="intent" value={id} />
          {status ? <StatusMessage ok={status.ok}>{status.text}</StatusMessage> : null}
          {children}
          <Button type="submit" disabled={busy} aria-busy={busy} className="w-fit">
            {busy ? submit.busyLabel : submit.label}
          </Button>
        </Form>
      </CardContent>
    </Card>
  );
}
