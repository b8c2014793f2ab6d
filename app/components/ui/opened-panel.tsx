import { XIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";

/**
 * One item of a list opened beside it (`?open=`): a small "opened" line, its title, a close link back to
 * the list, then what the page shows of it (`children`). The title's `titleId` names the panel.
 */
export function OpenedPanel({
  label,
  title,
  titleId,
  closeHref,
  closeLabel,
  testId,
  children,
}: {
  label: string;
  title: ReactNode;
  titleId: string;
  closeHref: string;
  closeLabel: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <article
      aria-labelledby={titleId}
      className="grid min-w-0 gap-3 rounded-lg border bg-background p-4"
      data-testid={testId}
    >
      <div className="flex items-start justify-between gap-2">
        <div className="grid min-w-0 gap-1">
          <p className="text-xs text-muted-foreground">{label}</p>
          <h2 id={titleId} className="text-lg font-semibold wrap-anywhere" dir="auto">
            {title}
          </h2>
        </div>
        <Button asChild variant="ghost" size="icon" className="shrink-0">
          <Link to={closeHref} aria-label={closeLabel}>
            <XIcon aria-hidden />
          </Link>
        </Button>
      </div>
      {children}
    </article>
  );
}
