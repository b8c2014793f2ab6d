import type { ComponentProps, ReactNode } from "react";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { useTranslation } from "~/i18n/use-translation";
import { cn } from "~/lib/utils";
import { pageHref } from "./pager";

const filterSelectClass =
  "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm";

/** The keys of a query that hold a text filter: the names a filter field may have. */
export type FilterKey<Query> = {
  [Key in keyof Query]-?: Query[Key] extends string | undefined ? Key : never;
}[keyof Query] &
  string;

/** What every filter field says: the query key it shows, its label, and maybe its id and place. */
interface FilterBase<Query> {
  /** The query key: the control's name, and its value is `query[name]` (empty when unset). */
  name: FilterKey<Query>;
  label: string;
  /** An id other than the usual `${idPrefix}-${name}` (the name in kebab case). */
  id?: string;
  /** Places the field in the bar's grid (e.g. a wider column). */
  className?: string;
}

/** A search box; the other attributes (dir, maxLength, placeholder...) come out in the order written. */
export type FilterSearchSpec<Query> = FilterBase<Query> & { kind: "search" } & Omit<
    ComponentProps<typeof Input>,
    "id" | "name" | "type" | "className" | "value" | "defaultValue"
  >;
/** A day (`<input type="date">`). */
export type FilterDateSpec<Query> = FilterBase<Query> & { kind: "date" };
/** A choice among `options` (`choicesOf(values, labelOf)`); `anyLabel` adds a first, empty choice. */
export type FilterSelectSpec<Query> = FilterBase<Query> & {
  kind: "select";
  options: readonly { value: string; label: string }[];
  anyLabel?: string;
  /** The choice that filters nothing when it is not the empty one (a default such as "all"). */
  anyValue?: string;
};

/** One field of a list's filter bar, as data. */
export type FilterSpec<Query> =
  FilterSearchSpec<Query> | FilterDateSpec<Query> | FilterSelectSpec<Query>;

/** A list's filters: the query they show, the prefix of their ids, the fields, and whether any is on. */
export interface ListFilters<Query> {
  query: Query;
  idPrefix: string;
  fields: readonly FilterSpec<Query>[];
  /** Whether a field holds a value other than its "any" one: the page says "no match", the clear link shows. */
  filtered: boolean;
  /** The address of the list's page `page` with these filters kept (`pageHref`, fields in order). */
  href: (page: number) => string;
}

/** What a field shows: its query value, or empty. */
function filterValue<Query>(query: Query, spec: FilterSpec<Query>): string {
  return (query[spec.name] as string | undefined) ?? "";
}

/**
 * A list's filters from its query and its fields (the query type checks each field's name). `filtered`
 * is worked out once here, for the bar's clear link and for the page's "no match" text.
 */
export function listFilters<Query>(
  query: Query,
  idPrefix: string,
  fields: readonly FilterSpec<NoInfer<Query>>[],
): ListFilters<Query> {
  const filtered = fields.some((spec) => {
    const value = filterValue(query, spec);
    return value !== "" && !(spec.kind === "select" && value === spec.anyValue);
  });
  const values = Object.fromEntries(fields.map((spec) => [spec.name, filterValue(query, spec)]));
  return { query, idPrefix, fields, filtered, href: (page) => pageHref(values, page) };
}

/** A field's id: its own, or the prefix and its name in kebab case ("log" and targetType: "log-target-type"). */
export function filterId(idPrefix: string, spec: { name: string; id?: string }): string {
  return (
    spec.id ?? `${idPrefix}-${spec.name.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`
  );
}

/** A FilterBar's props: the list's filters, then the bar's name, words and grid. */
export interface FilterBarProps<Query> {
  filters: ListFilters<Query>;
  /** The search landmark's accessible name. */
  label: string;
  applyLabel?: string;
  clearLabel?: string;
  /** The grid's columns at each width (Tailwind classes written out in the page). */
  className?: string;
  /** Where the buttons sit in the grid (e.g. a row of their own on mid-sized screens). */
  actionsClassName?: string;
  /**
   * A bar of many fields: its columns from 1024 px (a `lg:grid-cols-…` class written out in the page),
   * all on one row there; on mid-sized screens the fields go two abreast and the buttons get a row of
   * their own.
   */
  wideColumns?: string;
}

/**
 * A list's filters: a GET search form, so the filters live in the URL and the server applies them (it
 * works without JavaScript). The fields (`filters`, from `listFilters`) sit in a grid whose columns the
 * page gives (`className`), each showing its query value, then the apply button and, while a filter is
 * on, a link back to the unfiltered list. The button and the link say "Apply" and "Clear" (the kit's
 * words, admin `filterBar.*`) unless the page names them otherwise.
 */
export function FilterBar<Query>({
  filters,
  label,
  applyLabel,
  clearLabel,
  className,
  actionsClassName,
  wideColumns,
}: FilterBarProps<Query>) {
  const { t } = useTranslation("admin");
  return (
    <Form
      method="get"
      role="search"
      aria-label={label}
      className={cn(
        "grid gap-3 rounded-lg border bg-background p-3",
        wideColumns && `sm:grid-cols-2 ${wideColumns} lg:items-end`,
        className,
      )}
    >
      <FilterFields filters={filters} />
      <div
        className={cn("flex gap-2", wideColumns && "sm:col-span-2 lg:col-span-1", actionsClassName)}
      >
        <Button type="submit" variant="outline" className="flex-1">
          {applyLabel ?? t("filterBar.apply")}
        </Button>
        {filters.filtered ? (
          <Button asChild variant="ghost">
            <Link to="?">{clearLabel ?? t("filterBar.clear")}</Link>
          </Button>
        ) : null}
      </div>
    </Form>
  );
}

/**
 * The fields of a list's filters alone, for a search form that is not a FilterBar (the clients list,
 * whose button is its own and which has no clear link).
 */
export function FilterFields<Query>({ filters }: { filters: ListFilters<Query> }) {
  return filters.fields.map((spec) => (
    <FilterControl
      key={spec.name}
      spec={spec}
      id={filterId(filters.idPrefix, spec)}
      value={filterValue(filters.query, spec)}
    />
  ));
}

/** One field of a FilterBar: its label and its control, holding `value`. */
function FilterControl<Query>({
  spec,
  id,
  value,
}: {
  spec: FilterSpec<Query>;
  id: string;
  value: string;
}) {
  if (spec.kind === "select")
    return (
      <FilterField id={id} label={spec.label} className={spec.className}>
        <FilterChoices
          id={id}
          name={spec.name}
          defaultValue={value}
          options={spec.options}
          anyLabel={spec.anyLabel}
        />
      </FilterField>
    );
  // The input's attributes in the order the spec writes them (React puts name and value last).
  const { kind, name, label, id: _id, className, ...attributes } = spec;
  return (
    <FilterField id={id} label={label} className={className}>
      <Input id={id} type={kind} {...attributes} name={name} defaultValue={value} />
    </FilterField>
  );
}

/** One labelled control of a FilterBar; `className` places it in the grid (e.g. a wider column). */
function FilterField({
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

/** A filter's native select: `anyLabel` adds a first, empty choice for "no filter". */
function FilterChoices({
  id,
  name,
  defaultValue,
  options,
  anyLabel,
}: {
  id: string;
  name: string;
  defaultValue: string;
  options: readonly { value: string; label: string }[];
  anyLabel?: string;
}) {
  return (
    <select id={id} name={name} defaultValue={defaultValue} className={filterSelectClass}>
      {anyLabel !== undefined ? <option value="">{anyLabel}</option> : null}
      {options.map((option) => (
        <option key={option.value} value={option.value}>
          {option.label}
        </option>
      ))}
    </select>
  );
}
