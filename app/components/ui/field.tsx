import type { ReactNode } from "react";
import { Label } from "./label";

/**
 * A label, a control, its hint and its error, tied together for screen readers: the control takes
 * `fieldAria(id, error, hint)`, which points at the hint (`${id}-hint`) and the error (`${id}-error`).
 */
export function Field({
  id,
  label,
  hint,
  error,
  children,
}: {
  id: string;
  label: ReactNode;
  /** A line under the control saying what to type; the control names it in aria-describedby. */
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-2">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? <Hint id={`${id}-hint`}>{hint}</Hint> : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A hint under a control, tied to it with aria-describedby (Field renders one from its `hint`). */
export function Hint({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-muted-foreground">
      {children}
    </p>
  );
}

/**
 * How a control's description is spelled. A screen reader reads the ids of aria-describedby in order:
 * the settings and the simple forms name the error first ("error-first"), the catalogue editors the hint
 * first and write aria-describedby before aria-invalid ("hint-first"). Each keeps what it has always
 * rendered, so its readers hear what they heard before.
 */
export type DescriptionOrder = "error-first" | "hint-first";

/**
 * The aria props that tie a control to its Field: aria-invalid while it has an error, aria-describedby
 * naming its error (`${id}-error`) and, with `hint`, its hint (`${id}-hint`). Nothing to say, no props.
 */
export function fieldAria(
  id: string,
  error?: string,
  { hint = false, order = "error-first" }: { hint?: boolean; order?: DescriptionOrder } = {},
) {
  const errorId = error ? `${id}-error` : null;
  const hintId = hint ? `${id}-hint` : null;
  const ids = (order === "hint-first" ? [hintId, errorId] : [errorId, hintId]).filter(Boolean);
  const describedBy = ids.length > 0 ? { "aria-describedby": ids.join(" ") } : {};
  const invalid = error ? { "aria-invalid": true as const } : {};
  return order === "hint-first" ? { ...describedBy, ...invalid } : { ...invalid, ...describedBy };
}
