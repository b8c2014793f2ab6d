import type { ComponentProps } from "react";
import { cn } from "~/lib/utils";

/**
 * The looks a select comes in. `form`: a form's select, as tall as an Input. `validated`: the same, red
 * while aria-invalid, for a field the server can refuse. `compact`: a small one in a toolbar or sidebar.
 */
export const selectVariants = {
  form: "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base md:text-sm",
  validated:
    "flex h-10 w-full rounded-md border bg-background px-3 py-2 text-base aria-invalid:border-destructive md:text-sm",
  compact: "h-9 rounded-md border bg-background px-2 text-sm",
} as const;

export type SelectVariant = keyof typeof selectVariants;

/**
 * A native <select> (it works without JavaScript and on every phone) with the kit's classes. The class
 * comes right after id and name, where the pages have always written it.
 */
export function Select({
  id,
  name,
  variant = "form",
  className,
  ...props
}: ComponentProps<"select"> & { variant?: SelectVariant }) {
  return (
    <select id={id} name={name} className={cn(selectVariants[variant], className)} {...props} />
  );
}
