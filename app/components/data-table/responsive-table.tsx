import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/**
 * A table on a desktop and a list of cards on a phone (below 768 px), in one markup: each row becomes a
 * card and each cell shows its column's name above its value. Nothing scrolls sideways at 375 px.
 */
export function ResponsiveTable({
  caption,
  head,
  children,
}: {
  caption: string;
  /** The header cells (`<th scope="col">`), shown from 768 px on. */
  head: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="md:overflow-x-auto md:rounded-lg md:border md:bg-background">
      <table className="block w-full text-sm md:table">
        <caption className="sr-only">{caption}</caption>
        <thead className="hidden bg-muted text-xs text-muted-foreground uppercase md:table-header-group">
          <tr>{head}</tr>
        </thead>
        <tbody className="grid gap-3 md:table-row-group md:divide-y">{children}</tbody>
      </table>
    </div>
  );
}

export function HeadCell({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <th scope="col" className={cn("px-3 py-2 text-start font-semibold", className)}>
      {children}
    </th>
  );
}

/** A row; `className` can change the phone card's grid (e.g. three columns for short figures). */
export function CardRow({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <tr
      className={cn(
        "grid grid-cols-2 gap-x-3 gap-y-2 rounded-lg border bg-background p-3 align-top md:table-row md:rounded-none md:border-0 md:p-0",
        className,
      )}
    >
      {children}
    </tr>
  );
}

/** A cell; `label` is the column's name, shown on phones only; `wide` spans the card's two columns. */
export function CardCell({
  label,
  wide,
  className,
  children,
}: {
  label?: string;
  wide?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <td
      className={cn(
        // On a phone a long email wraps anywhere rather than pushing the card wider than the screen.
        "grid min-w-0 content-start gap-1 wrap-anywhere md:table-cell md:px-3 md:py-2 md:align-top md:wrap-break-word",
        wide && "col-span-2",
        className,
      )}
    >
      {label ? <span className="text-xs text-muted-foreground md:hidden">{label}</span> : null}
      {children}
    </td>
  );
}
