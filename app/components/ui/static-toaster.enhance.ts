// Toasts on a page served without React (static-toaster.tsx), as toaster.tsx shows them on a hydrated page
// (spec section 9): each goes after 4000 ms (not while the pointer or the focus is on it) or on its close
// button, and at most three show at once.

const DURATION_MS = 4000;
const VISIBLE = 3;

function region() {
  return document.querySelector<HTMLElement>("[data-toaster]");
}

function arm(toast: HTMLElement) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let left = DURATION_MS;
  let started = 0;
  const run = () => {
    started = Date.now();
    timer = setTimeout(() => toast.remove(), left);
  };
  const pause = () => {
    clearTimeout(timer);
    left = Math.max(0, left - (Date.now() - started));
  };
  toast.querySelector("[data-toast-close]")?.addEventListener("click", () => toast.remove());
  toast.addEventListener("pointerenter", pause);
  toast.addEventListener("pointerleave", run);
  toast.addEventListener("focusin", pause);
  toast.addEventListener("focusout", (event) => {
    if (!toast.contains(event.relatedTarget as Node | null)) run();
  });
  run();
}

/** A toast with this text, from the page's template (its close button is already translated). */
export function showStaticToast(type: "success" | "error", text: string) {
  const list = region();
  const template = document.querySelector<HTMLTemplateElement>("template[data-toast-template]");
  const toast = template?.content.firstElementChild?.cloneNode(true);
  if (!list || !(toast instanceof HTMLElement)) return;
  toast.dataset.type = type;
  const body = toast.querySelector("[data-toast-text]");
  if (body) body.textContent = text;
  list.append(toast);
  while (list.children.length > VISIBLE) list.firstElementChild?.remove();
  arm(toast);
}

/** The toast the server rendered (a flashed one), and the buttons that copy a text and say so. */
export function enhanceToasts(root: ParentNode) {
  const list = region();
  if (list) {
    const flashed = [...list.querySelectorAll<HTMLElement>("[data-toast]")];
    // Put in again, so screen readers announce it as they do a toast that appears.
    list.append(...flashed);
    for (const toast of flashed) arm(toast);
  }
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-copy]")) {
    button.addEventListener("click", async () => {
      const text = document.getElementById(button.dataset.copy ?? "")?.textContent ?? "";
      try {
        await navigator.clipboard.writeText(text);
        showStaticToast("success", button.dataset.copied ?? "");
      } catch {
        showStaticToast("error", button.dataset.copyFailed ?? "");
      }
    });
  }
}
