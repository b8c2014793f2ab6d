import { ChevronDownIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/**
 * Something folded away under a line that opens it (a form already sent, to correct it): a native
 * disclosure, so it opens without JavaScript and a screen reader says whether it is expanded. `open`
 * unfolds it when the page is drawn (the form's own refusal must show); the reader folds and unfolds it
 * as they like after that.
 */
export function Disclosure({
  summary,
  open,
  className,
  children,
}: {
  summary: ReactNode;
  open?: boolean;
  className?: string;
  children: ReactNode;
}) {
  return (
    <details open={open} className={cn("group rounded-md border", className)}>
      {/* At least 44 px tall: the tap target on a phone. */}
      <summary className="flex min-h-11 cursor-pointer list-none items-center gap-2 px-4 py-2 text-sm font-medium text-primary [&::-webkit-details-marker]:hidden">
        <ChevronDownIcon
          className="size-4 shrink-0 transition-transform group-open:rotate-180 motion-reduce:transition-none"
          aria-hidden
        />
        {summary}
      </summary>
      <div className="px-4 pb-4">{children}</div>
    </details>
  );
}
