// The browser's side of a menu button's menu (dropdown-menu.tsx), which is a popover: whether it is open,
// and where it sits. Being a popover it is placed against the screen, not its trigger's box; CSS does that
// first, before any script (the `.menu-popover` rules in app.css, with CSS anchor positioning), and what
// is here only refines it once the page's script runs.

/**
 * Tells `shown` each time the browser has opened or closed the menu, and at once if it is open already
 * (`before`: opened before the page's scripts ran). Returns what stops it. After, not before (the
 * `toggle` event, not `beforetoggle`): React renders an update made in `beforetoggle` at once, while
 * the menu is still hidden, and an item can take the focus only once it shows.
 */
export function followPopover(
  menu: HTMLElement,
  shown: (open: boolean, before?: "before") => void,
): () => void {
  const toggled = (event: Event) => shown((event as ToggleEvent).newState === "open");
  menu.addEventListener("toggle", toggled);
  if (menu.matches(":popover-open")) shown(true, "before");
  return () => menu.removeEventListener("toggle", toggled);
}

/** The least room left between an open menu and the screen's edge, in px. */
const SCREEN_MARGIN = 8;

/** The CSS name by which the menu finds its trigger (`anchor-name`, `position-anchor`), from React's id. */
export function anchorNameOf(id: string) {
  return `--menu-${id.replace(/[^\w-]/g, "")}`;
}

/** Whether the browser itself keeps the menu under its trigger (CSS anchor positioning). */
function placedByCss() {
  return typeof CSS !== "undefined" && CSS.supports("position-area", "block-end");
}

/**
 * Under its trigger, on the trigger's end side (`end`) or start side (`start`), in the page's direction:
 * what app.css asks for, done here where the browser has no anchor positioning (app.css then only puts
 * the menu under the header, at the screen's end).
 */
function placeUnder(menu: HTMLElement, trigger: HTMLElement, align: "start" | "end") {
  const box = trigger.getBoundingClientRect();
  const rtl = getComputedStyle(menu).direction === "rtl";
  menu.style.top = `${box.bottom}px`;
  if ((align === "end") !== rtl) {
    menu.style.left = "auto";
    menu.style.right = `${document.documentElement.clientWidth - box.right}px`;
  } else {
    menu.style.right = "auto";
    menu.style.left = `${box.left}px`;
  }
}

/**
 * Moves an open menu sideways as far as it takes to keep SCREEN_MARGIN from the screen's edges: on a phone
 * a menu can be wider than the room on either side of its trigger (the bell's list is 320 px, its trigger
 * mid-bar), and one hanging past the edge is cut off, not scrolled to.
 */
function keepInside(menu: HTMLElement) {
  menu.style.translate = "";
  const { left, right } = menu.getBoundingClientRect();
  const room = document.documentElement.clientWidth;
  const shift =
    left < SCREEN_MARGIN
      ? SCREEN_MARGIN - left
      : right > room - SCREEN_MARGIN
        ? room - SCREEN_MARGIN - right
        : 0;
  if (shift) menu.style.translate = `${shift}px 0`;
}

/** Places an open menu, and again whenever the window changes size; returns what stops it. */
export function followPlace(
  menu: HTMLElement,
  trigger: HTMLElement | null,
  align: "start" | "end",
) {
  const place = () => {
    if (trigger && !placedByCss()) placeUnder(menu, trigger, align);
    keepInside(menu);
  };
  place();
  window.addEventListener("resize", place);
  return () => window.removeEventListener("resize", place);
}
