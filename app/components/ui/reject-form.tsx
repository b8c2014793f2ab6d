import type { ReactNode } from "react";
import { Form } from "react-router";
import { useBusy } from "./use-busy";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";

/**
 * A queue row's Reject: a small form that posts the intent "reject", the hidden `fields` (the row's id)
 * and the reason the admin must type (a box named for the row by `reasonLabel`), with a destructive
 * button that waits while the page is busy. `className` lays the box and the button out.
 */
export function RejectForm({
  fields,
  maxLength,
  reasonLabel,
  placeholder,
  className,
  children,
}: {
  fields: Record<string, string | number>;
  maxLength: number;
  reasonLabel: string;
  placeholder: string;
  className: string;
  children: ReactNode;
}) {
  const busy = useBusy();
  return (
    <Form method="post" className={className}>
      <input type="hidden" name="intent" value="reject" />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Input
        name="reason"
        required
        maxLength={maxLength}
        aria-label={reasonLabel}
        placeholder={placeholder}
        className="h-9 min-w-0 flex-1 md:min-w-32"
      />
      <Button type="submit" size="sm" variant="destructive" disabled={busy}>
        {children}
      </Button>
    </Form>
  );
}
