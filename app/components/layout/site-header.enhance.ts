// The site header on a page served without React (run by app/entry.enhance.ts): what site-header.tsx and
// language-switcher.tsx do with React state on a hydrated page, on the same markup.

import { wirePhoneMenu } from "./phone-menu";

/**
 * The phone menu: the browser opens and closes the #mobile-menu popover itself (its button's
 * popovertarget), before this script has run too; this adds the button's aria-expanded and name, and the
 * menu's place under the header, as site-header.tsx does on a hydrated page.
 */
function enhanceMenuButton(button: HTMLButtonElement) {
  const menu = document.getElementById(button.getAttribute("aria-controls") ?? "");
  if (!menu) return;
  wirePhoneMenu(button, menu, (open) => {
    button.setAttribute("aria-expanded", String(open));
    const label = open ? button.dataset.closeLabel : button.dataset.openLabel;
    if (label) button.setAttribute("aria-label", label);
  });
}

/**
 * The Services disclosure: its button shows the list of links; Escape (back to the button), a click
 * elsewhere or leaving it with Tab closes it.
 */
function enhanceDisclosure(box: HTMLElement) {
  const button = box.querySelector<HTMLButtonElement>("button[aria-controls]");
  const list = button && document.getElementById(button.getAttribute("aria-controls") ?? "");
  if (!button || !list) return;
  const toggle = (open: boolean) => {
    list.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
  };
  button.addEventListener("click", () => toggle(Boolean(list.hidden)));
  box.addEventListener("focusout", (event) => {
    if (!box.contains(event.relatedTarget as Node | null)) toggle(false);
  });
  document.addEventListener("pointerdown", (event) => {
    if (!list.hidden && !box.contains(event.target as Node)) toggle(false);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape" || list.hidden) return;
    toggle(false);
    button.focus();
  });
}

export function enhanceSiteHeader(root: ParentNode) {
  for (const button of root.querySelectorAll<HTMLButtonElement>("button[data-menu-toggle]"))
    enhanceMenuButton(button);
  for (const box of root.querySelectorAll<HTMLElement>("[data-disclosure]")) enhanceDisclosure(box);
  // The language switcher sends its form as soon as a language is chosen (a full page load).
  for (const select of root.querySelectorAll<HTMLSelectElement>("select[data-auto-submit]"))
    select.addEventListener("change", () => select.form?.requestSubmit());
}
