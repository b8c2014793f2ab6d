import type { ReactNode } from "react";
import { Link } from "react-router";
import { Button } from "./button";

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
