// The site header's phone menu, shared by site-header.tsx (React) and site-header.enhance.ts (a page
// served without React), so it imports no React. The menu is a popover (ADR 23): the browser opens and
// closes it, before any script has run too; this adds what the browser does not.

/** Whether this browser knows popovers (Chrome 114, Firefox 125, Safari 17). */
function hasPopovers(menu: HTMLElement) {
  return typeof menu.showPopover === "function";
}

export function isMenuOpen(menu: HTMLElement) {
  return hasPopovers(menu) ? menu.matches(":popover-open") : !menu.hidden;
}

/**
 * Puts the menu (a popover, so placed against the screen) right under the header, wherever the header
 * is: an admin's maintenance banner above it moves it down until the page scrolls.
 */
function placeUnder(menu: HTMLElement, header: HTMLElement | null) {
  const bottom = header?.getBoundingClientRect().bottom;
  if (bottom === undefined) return;
  menu.style.top = `${bottom}px`;
  menu.style.maxHeight = `calc(100dvh - ${bottom}px)`;
}

/** Closes the menu (after one of its links was followed without a page load). */
export function closeMenu(menu: HTMLElement) {
  if (!isMenuOpen(menu)) return;
  if (hasPopovers(menu)) menu.hidePopover();
  else menu.hidden = true;
}

/**
 * Places the menu under the header as it opens and tells `shown` each time it opens or closes. In a
 * browser without popovers (which shows a popover's content as any other) it hides the menu and its
 * button shows and hides it, as before popovers. Returns what undoes it.
 */
export function wirePhoneMenu(
  button: HTMLButtonElement,
  menu: HTMLElement,
  shown: (open: boolean) => void,
): () => void {
  const header = button.closest("header");
  if (!hasPopovers(menu)) {
    menu.hidden = true;
    const toggle = () => {
      menu.hidden = !menu.hidden;
      if (!menu.hidden) placeUnder(menu, header);
      shown(!menu.hidden);
    };
    button.addEventListener("click", toggle);
    shown(false);
    return () => button.removeEventListener("click", toggle);
  }
  const before = (event: Event) => {
    if ((event as ToggleEvent).newState === "open") placeUnder(menu, header);
  };
  const after = (event: Event) => shown((event as ToggleEvent).newState === "open");
  menu.addEventListener("beforetoggle", before);
  menu.addEventListener("toggle", after);
  shown(isMenuOpen(menu));
  return () => {
    menu.removeEventListener("beforetoggle", before);
    menu.removeEventListener("toggle", after);
  };
}
