import { InfoIcon, TriangleAlertIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

const TONES = {
  warning: { box: "border-yellow-300 bg-yellow-50 text-yellow-900", Icon: TriangleAlertIcon },
  info: { box: "border-blue-200 bg-blue-50 text-blue-900", Icon: InfoIcon },
} as const;

/**
 * Something a page asks of its reader until they act on it (set up two-factor sign-in, configure mail):
 * a box that stays, unlike StatusMessage (the outcome of a form just sent, a live region). `children` is
 * the sentence and, usually, a link to where it is done.
 */
export function Notice({
  tone = "warning",
  title,
  children,
  className,
  ...props
}: {
  tone?: keyof typeof TONES;
  /** A short heading above the sentence. */
  title?: string;
  children: ReactNode;
  className?: string;
  "data-testid"?: string;
}) {
  const { box, Icon } = TONES[tone];
  return (
    <div className={cn("flex gap-3 rounded-md border p-3 text-sm", box, className)} {...props}>
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="grid gap-1">
        {title ? <p className="font-semibold">{title}</p> : null}
        <div>{children}</div>
      </div>
    </div>
  );
}
