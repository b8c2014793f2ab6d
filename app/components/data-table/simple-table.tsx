import type { ReactNode } from "react";

/** A plain, scrollable table for admin lists (sorting and filters live in the URL, on the server). */
export function SimpleTable({
  head,
  children,
  caption,
}: {
  head: ReactNode[];
  children: ReactNode;
  caption?: string;
}) {
  return (
    <div className="overflow-x-auto rounded-lg border bg-background">
      <table className="w-full min-w-[40rem] text-sm">
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead className="bg-muted text-start text-xs uppercase text-muted-foreground">
          <tr>
            {head.map((cell, index) => (
              <th key={index} scope="col" className="px-3 py-2 text-start font-semibold">
                {cell}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y">{children}</tbody>
      </table>
    </div>
  );
}

export function Pager({
  page,
  hasMore,
  href,
  labels,
}: {
  page: number;
  hasMore: boolean;
  href: (page: number) => string;
  labels: { previous: string; next: string; nav?: string };
}) {
  if (page <= 1 && !hasMore) return null;
  return (
    <nav className="mt-4 flex justify-between" aria-label={labels.nav}>
      {page > 1 ? (
        <a className="text-primary hover:underline" href={href(page - 1)}>
          {labels.previous}
        </a>
      ) : (
        <span />
      )}
      {hasMore ? (
        <a className="text-primary hover:underline" href={href(page + 1)}>
          {labels.next}
        </a>
      ) : null}
    </nav>
  );
}
