import { Fragment, type ComponentProps, type ReactNode } from "react";

/**
 * One line of a DetailList: its term, its value, and the value's own attributes (`dir`, `className`),
 * which come out in the order written.
 */
export type Detail = { term: string; value: ReactNode } & Omit<ComponentProps<"dd">, "children">;

/**
 * What a record says about itself, term by term (an opened message's headers, a server's address and
 * ports): a `<dl>` laid out by `className`, each term muted above or beside its value. A line that is
 * `null` (a detail the record lacks) is left out.
 */
export function DetailList({
  className,
  details,
}: {
  className: string;
  details: readonly (Detail | null)[];
}) {
  return (
    <dl className={className}>
      {details.map((detail) => {
        if (!detail) return null;
        const { term, value, ...attributes } = detail;
        return (
          <Fragment key={term}>
            <dt className="text-muted-foreground">{term}</dt>
            <dd {...attributes}>{value}</dd>
          </Fragment>
        );
      })}
    </dl>
  );
}
