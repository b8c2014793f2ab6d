import { useTranslation } from "~/i18n/use-translation";

export interface PagerProps {
  page: number;
  hasMore: boolean;
  /** The address of another page of the same list (its filters kept). */
  href: (page: number) => string;
  /** The links' words; by default the admin panel's ("admin" namespace, pager.*). */
  labels?: { previous: string; next: string; nav?: string };
}

/** Previous and next links, shown only when there is another page. */
export function Pager({ labels, ...props }: PagerProps) {
  if (props.page <= 1 && !props.hasMore) return null;
  return labels ? <PagerLinks {...props} labels={labels} /> : <AdminPagerLinks {...props} />;
}

/**
 * The admin panel's words. A component of its own, because reading a namespace puts its whole catalogue
 * into the page (ADR 29): the customer's lists, which bring their own words, would otherwise carry the
 * admin panel's 15 KB of texts for three of them.
 */
function AdminPagerLinks(props: Omit<PagerProps, "labels">) {
  const { t } = useTranslation("admin");
  return (
    <PagerLinks
      {...props}
      labels={{ previous: t("pager.previous"), next: t("pager.next"), nav: t("pager.label") }}
    />
  );
}

function PagerLinks({
  page,
  hasMore,
  href,
  labels,
}: Omit<PagerProps, "labels"> & { labels: NonNullable<PagerProps["labels"]> }) {
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

/**
 * The address of a list's page `page` with its filters kept: each filter that has a value, in the order
 * given, then `page` from page 2 on, then `open`, the row shown opened beside the list (`OpenedPanel`:
 * the contact inbox, the mail outbox), when there is one ("?" alone when there is nothing to say).
 */
export function pageHref(
  filters: Record<string, string | null | undefined>,
  page: number,
  open?: number,
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value) params.set(key, value);
  if (page > 1) params.set("page", String(page));
  if (open) params.set("open", String(open));
  return `?${params}`;
}
