import { ArrowLeftIcon, DownloadIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";

/**
 * A page's title and its one-line introduction; `parent` links under them to the page this one belongs
 * to (a service's panel to the services), `children` adds lines (a count, a period). `action` (a
 * download, a "new" or "mark all read" button; null when the page has none now) stands beside them, at
 * the end of the line, going under them on a narrow screen.
 */
export function PageHeading({
  title,
  intro,
  parent,
  children,
  action,
}: {
  title: string;
  intro: string;
  parent?: { to: string; label: string };
  children?: ReactNode;
  action?: ReactNode;
}) {
  const heading = (
    <div className="grid gap-1">
      {/* A title may hold what someone typed (a client's name, a subject): it wraps rather than widen the page. */}
      <h1 className="text-2xl font-bold wrap-anywhere">{title}</h1>
      <p className="text-sm text-muted-foreground">{intro}</p>
      {parent ? (
        <p className="text-sm">
          <Link className="text-primary underline-offset-4 hover:underline" to={parent.to}>
            {parent.label}
          </Link>
        </p>
      ) : null}
      {children}
    </div>
  );
  if (action === undefined) return heading;
  return (
    <div className="flex flex-wrap items-start justify-between gap-3">
      {heading}
      {action}
    </div>
  );
}

/** The button that downloads a file from a resource route: a page's list as CSV, a document as PDF. */
export function DownloadLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <Button asChild variant="outline">
      {/* A plain link: the file comes from a resource route, not a page. */}
      <a href={href} download>
        <DownloadIcon aria-hidden />
        {children}
      </a>
    </Button>
  );
}

/** The link back to a list from one of its pages (an editor), above the page's title. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link
      to={to}
      className="inline-flex w-fit items-center gap-1 text-sm text-primary hover:underline"
    >
      <ArrowLeftIcon className="size-4 rtl:rotate-180" aria-hidden />
      {children}
    </Link>
  );
}
