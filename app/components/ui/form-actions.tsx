import type { ReactNode } from "react";
import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "./button";
import { Card, CardContent } from "./card";

/**
 * An editor's buttons: its submit (disabled while the form is busy) and a Cancel link back to the list.
 * Every list editor ends with them (products, promotions, payment methods).
 */
export function FormActions({
  submitLabel,
  busy,
  cancelTo,
  cancelLabel,
}: {
  submitLabel: ReactNode;
  busy: boolean;
  cancelTo: string;
  cancelLabel: ReactNode;
}) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" disabled={busy}>
        {submitLabel}
      </Button>
      <Button asChild variant="outline">
        <Link to={cancelTo}>{cancelLabel}</Link>
      </Button>
    </div>
  );
}

/**
 * An editor's form in its card: a post (to `action`, else the page's own) that creates an item, or with
 * `id` updates that one (the `intent` and `id` it sends), its fields (`children`), then its FormActions.
 */
export function EditorForm({
  id,
  action,
  children,
  ...buttons
}: {
  id: number | undefined;
  action?: string;
  children: ReactNode;
} & Parameters<typeof FormActions>[0]) {
  return (
    <Card>
      <CardContent className="pt-6">
        <Form method="post" action={action} className="grid gap-5" noValidate>
          <input type="hidden" name="intent" value={id === undefined ? "create" : "update"} />
          {id === undefined ? null : <input type="hidden" name="id" value={id} />}
          {children}
          <FormActions {...buttons} />
        </Form>
      </CardContent>
    </Card>
  );
}
