import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";

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

/** Previous and next links; the labels default to the admin panel's ("admin" namespace, pager.*). */
export function Pager({
  page,
  hasMore,
  href,
  labels: given,
}: {
  page: number;
  hasMore: boolean;
  href: (page: number) => string;
  labels?: { previous: string; next: string; nav?: string };
}) {
  const { t } = useTranslation("admin");
  if (page <= 1 && !hasMore) return null;
  const labels = given ?? {
    previous: t("pager.previous"),
    next: t("pager.next"),
    nav: t("pager.label"),
  };
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
