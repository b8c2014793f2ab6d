import type { ReactNode } from "react";
import { cn } from "~/lib/utils";

/**
 * Preformatted text that may be wider or taller than its box (a stack trace, a JSON snapshot, a script).
 * It is focusable, so a keyboard (and a phone's switch access) can scroll it: WCAG's scrollable-region
 * rule. `label` names it for a screen reader, since focus lands on it.
 */
export function CodeBlock({
  label,
  labelledBy,
  className,
  children,
  ...rest
}: {
  label?: string;
  labelledBy?: string;
  className?: string;
  children: ReactNode;
  "data-testid"?: string;
}) {
  return (
    <pre
      className={cn(
        "overflow-auto focus-visible:outline-2 focus-visible:outline-primary",
        className,
      )}
      dir="ltr"
      tabIndex={0}
      role="region"
      aria-label={label}
      aria-labelledby={labelledBy}
      {...rest}
    >
      {children}
    </pre>
  );
}
