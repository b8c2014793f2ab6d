import { fillPlaceholders } from "~/lib/placeholders";
import { startEntryGate, type GateState } from "./entry-gate-flow";

/**
 * The entry gate on a page served without React (the enhance script calls this for the home page's
 * <template data-entry-gate>, rendered by EntryGateTemplate). Same steps as the hydrated page's
 * (entry-gate-flow.ts): the dialog is copied into <body> when the check starts, the page under it made
 * inert, and it is taken away again after a right answer.
 */
export function mountEntryGate(template: HTMLTemplateElement): void {
  const overlay = template.content.firstElementChild?.cloneNode(true);
  if (!(overlay instanceof HTMLElement)) return;
  const texts = [...overlay.querySelectorAll<HTMLElement>("[data-fill]")].map((element) => ({
    element,
    text: element.textContent ?? "",
  }));
  const stages = [...overlay.querySelectorAll<HTMLElement>("[data-gate-stage]")];
  const form = overlay.querySelector("form");
  const input = overlay.querySelector<HTMLInputElement>("#gate-answer");
  const wrong = overlay.querySelector<HTMLElement>("#gate-wrong");
  if (!form || !input || !wrong) return;
  let inert: HTMLElement[] = [];
  let shown: GateState["stage"] = "hidden";

  const render = (state: GateState) => {
    const previous = shown;
    shown = state.stage;
    if (state.stage === "hidden") {
      overlay.remove();
      for (const element of inert) element.inert = false;
      inert = [];
      return;
    }
    if (!overlay.isConnected) {
      inert = [...document.body.children].filter(
        (element): element is HTMLElement => element instanceof HTMLElement && !element.inert,
      );
      for (const element of inert) element.inert = true;
      document.body.append(overlay);
    }
    overlay.setAttribute("aria-labelledby", `gate-title-${state.stage}`);
    for (const part of stages) part.hidden = part.dataset.gateStage !== state.stage;
    const values: Record<string, number> =
      state.stage === "checking"
        ? { seconds: state.seconds }
        : state.stage === "quiz"
          ? { a: state.a, b: state.b }
          : {};
    for (const { element, text } of texts) element.textContent = fillPlaceholders(text, values);
    if (state.stage === "quiz") {
      wrong.hidden = !state.wrong;
      if (state.wrong) input.setAttribute("aria-describedby", wrong.id);
      else input.removeAttribute("aria-describedby");
      input.focus();
    } else if (state.stage === "checking" && previous !== "checking") {
      overlay.focus();
    }
  };

  const gate = startEntryGate({
    storage: () => sessionStorage,
    navigator,
    go: (path) => location.replace(path),
    render,
  });
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!gate.answer(new FormData(form).get("answer"))) form.reset();
  });
}
