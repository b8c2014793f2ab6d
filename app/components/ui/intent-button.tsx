import type { ReactNode } from "react";
import { Form } from "react-router";
import { useBusy } from "./use-busy";
import { Button } from "~/components/ui/button";

/**
 * A one-intent button (approve, delete, end a session...): a small form that posts `intent` and the
 * hidden `fields` (the row's id...) to the page's action, or to `action`, so it works without
 * JavaScript. With `confirmText`, the browser asks that question first and a "no" sends nothing. It
 * waits while a form is being sent or the page reloads.
 */
export function IntentButton({
  intent,
  fields,
  action,
  confirmText,
  variant,
  accessibleName,
  children,
}: {
  intent: string;
  fields: Record<string, string | number>;
  action?: string;
  confirmText?: string;
  variant?: "default" | "outline" | "ghost" | "destructive";
  accessibleName?: string;
  children: ReactNode;
}) {
  const busy = useBusy();
  return (
    <Form
      method="post"
      action={action}
      onSubmit={
        confirmText
          ? (event) => {
              if (!confirm(confirmText)) event.preventDefault();
            }
          : undefined
      }
    >
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" size="sm" variant={variant} disabled={busy} aria-label={accessibleName}>
        {children}
      </Button>
    </Form>
  );
}
