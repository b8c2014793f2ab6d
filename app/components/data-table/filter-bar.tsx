import type { ComponentProps, ReactNode } from "react";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { cn } from "~/lib/utils";

const filterSelectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";

/**
 * A list's filters: a GET search form, so the filters live in the URL and the server applies them (it
 * works without JavaScript). The fields sit in a grid whose columns the page gives (`className`), then
 * the apply button and, while a filter is on, a link back to the unfiltered list.
 */
export function FilterBar({
  label,
  applyLabel,
  clearLabel,
  filtered,
  className,
  actionsClassName,
  children,
}: {
  /** The search landmark's accessible name. */
  label: string;
  applyLabel: string;
  clearLabel: string;
  /** Whether any filter is on: the clear link shows only then. */
  filtered: boolean;
  /** The grid's columns at each width (Tailwind classes written out in the page). */
  className?: string;
  /** Where the buttons sit in the grid (e.g. a row of their own on mid-sized screens). */
  actionsClassName?: string;
  children: ReactNode;
}) {
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      className={cn("grid gap-3 rounded-lg border bg-background p-3", className)}
    >
      {children}
      <div className={cn("flex gap-2", actionsClassName)}>
        <Button type="submit" variant="outline" className="flex-1">
          {applyLabel}
        </Button>
        {filtered ? (
          <Button asChild variant="ghost">
            <Link to="?">{clearLabel}</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

/** One labelled control of a FilterBar; `className` places it in the grid (e.g. a wider column). */
export function FilterField({
  id,
  label,
  className,
  children,
}: {
  id: string;
  label: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={cn("grid gap-1", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** A labelled search box; the other props go to the input (name, dir, maxLength, placeholder...). */
export function FilterSearch({
  id,
  label,
  ...input
}: { id: string; label: string; name: string } & Omit<
  ComponentProps<typeof Input>,
  "id" | "type"
>) {
  return (
    <FilterField id={id} label={label}>
      <Input id={id} type="search" {...input} />
    </FilterField>
  );
}

/**
 * A labelled choice among `values`, each shown as `labelOf(value)`; `anyLabel` adds a first, empty
 * choice for "no filter".
 */
export function FilterSelect<T extends string>({
  id,
  label,
  name,
  defaultValue,
  values,
  labelOf,
  anyLabel,
}: {
  id: string;
  label: string;
  name: string;
  defaultValue: string;
  values: readonly T[];
  labelOf: (value: T) => string;
  anyLabel?: string;
}) {
  return (
    <FilterField id={id} label={label}>
      <select id={id} name={name} defaultValue={defaultValue} className={filterSelectClass}>
        {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
        {values.map((value) => (
          <option key={value} value={value}>
            {labelOf(value)}
          </option>
        ))}
      </select>
    </FilterField>
  );
}
