import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";

/**
 * The looks a textarea comes in: `plain` (the support, contact and announcement forms), `form` (text
 * sized like an Input's) and `validated` (the same, red while aria-invalid).
 */
export const textareaVariants = {
  plain: "w-full rounded-md border bg-background px-3 py-2",
  form: "w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm",
  validated:
    "w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm",
} as const;

export type TextareaVariant = keyof typeof textareaVariants;

/**
 * A textarea with the kit's classes. The class comes after the other attributes and before the aria ones
 * (`fieldAria`), where the pages have always written it.
 */
export function Textarea({
  variant = "form",
  className,
  ...props
}: ComponentProps<"textarea"> & { variant?: TextareaVariant }) {
  const entries = Object.entries(props);
  const own = Object.fromEntries(entries.filter(([key]) => !key.startsWith("aria-")));
  const aria = Object.fromEntries(entries.filter(([key]) => key.startsWith("aria-")));
  return <textarea {...own} className={cn(textareaVariants[variant], className)} {...aria} />;
}
