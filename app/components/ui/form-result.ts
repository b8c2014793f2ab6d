/**
 * After a form is sent, its outcome must be where the sender looks: on a phone the button is often a
 * screen below the message that answers it (a thanks at the top of the page, a refusal above a long
 * editor), and a screen reader stays on the button. The kit marks each outcome it draws (StatusMessage,
 * FormAlert) with this attribute; a refused field is marked by its aria-invalid.
 */
export const FORM_RESULT_ATTRIBUTE = "data-form-result";

/** The props that mark an outcome: found by revealFormResult, and focusable by script only. */
export const formResultProps = { [FORM_RESULT_ATTRIBUTE]: "", tabIndex: -1 } as const;

const OUTCOMES = `[${FORM_RESULT_ATTRIBUTE}]`;
const REFUSED_FIELDS = '[aria-invalid="true"]';
const FOCUSABLE = "input, select, textarea, button, a[href], [tabindex]";
// A form sent from an open dialog (the kit's are <dialog>s shown modal) answers there: the page behind it
// is inert.
const OPEN_DIALOG = "dialog[open]";

/**
 * What answers the form just sent, among what is shown: its outcome (a thanks, an error summary, above
 * the fields or by the button), else the first refused field in the order the page reads.
 */
export function formResultTarget(document: Document): HTMLElement | null {
  const scope = document.querySelector<HTMLElement>(OPEN_DIALOG) ?? document;
  for (const selector of [OUTCOMES, REFUSED_FIELDS])
    for (const element of scope.querySelectorAll<HTMLElement>(selector))
      if (element.getClientRects().length > 0) return element;
  return null;
}

/**
 * Brings the answer to the form just sent into view and moves the focus to it, so a screen reader reads
 * it: an outcome is focused itself, a refused field's control (or, for a group of choices, its first
 * one). It scrolls smoothly unless the reader asked for reduced motion. Returns what it focused.
 */
export function revealFormResult(document: Document): HTMLElement | null {
  const target = formResultTarget(document);
  if (!target) return null;
  const focus = target.matches(FOCUSABLE)
    ? target
    : (target.querySelector<HTMLElement>(FOCUSABLE) ?? target);
  if (focus === target && !target.matches(FOCUSABLE)) target.setAttribute("tabindex", "-1");
  const reduced = document.defaultView?.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  // Centred, so a sticky header does not cover it and a field's label above it shows too.
  target.scrollIntoView?.({ block: "center", behavior: reduced === false ? "smooth" : "auto" });
  focus.focus({ preventScroll: true });
  return focus;
}
