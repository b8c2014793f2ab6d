import { useLayoutEffect, useRef, type MouseEvent, type PointerEvent, type RefObject } from "react";

// What the kit's dialogs (dialog.tsx) do while one is open, whether React opened it or the browser did
// before the page's scripts ran: shown modal, closed through React's state, the page behind kept still,
// and the focus given back as it closes.

// Several dialogs may be open at once (a confirmation over a form): the page scrolls again when the last
// one closes.
let scrollLocks = 0;
let unlockScroll = () => {};

/** Stops the page behind an open dialog from scrolling, keeping the room its scrollbar took. */
function lockScroll() {
  if (scrollLocks++ === 0) {
    const root = document.documentElement;
    const { overflow, scrollbarGutter } = root.style;
    const scrollbar = window.innerWidth - root.clientWidth;
    root.style.overflow = "hidden";
    if (scrollbar > 0) root.style.scrollbarGutter = "stable";
    unlockScroll = () => {
      root.style.overflow = overflow;
      root.style.scrollbarGutter = scrollbarGutter;
    };
  }
  return () => {
    if (--scrollLocks === 0) unlockScroll();
  };
}

/**
 * While `active`, the dialog is shown with showModal(), Escape (the `cancel` event) and the browser's own
 * closing (a second Escape in Chrome, a tap outside with `closedby="any"`) call `close`, and the page
 * behind does not scroll. When it ends the dialog closes and the focus goes to the first of `backTo()`
 * still in the page, else to what had it when the session began.
 */
export function useModalSession(
  ref: RefObject<HTMLDialogElement | null>,
  active: boolean,
  close: () => void,
  backTo: () => (HTMLElement | null | undefined)[],
) {
  // The latest callbacks, for the listeners and the cleanup of a session that outlives renders.
  const latest = useRef({ close, backTo });
  useLayoutEffect(() => {
    latest.current = { close, backTo };
  });
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!active || !dialog) return;
    const opener = document.activeElement;
    // Escape: React's state closes it (the browser would close the element only).
    const cancel = (event: Event) => {
      event.preventDefault();
      latest.current.close();
    };
    // The browser sends `close` a moment after the dialog closed: one closed by the session before
    // (Escape, then React) can arrive after a quick Enter has opened it again, and must not close it.
    const closed = () => {
      if (!dialog.open) latest.current.close();
    };
    dialog.addEventListener("cancel", cancel);
    dialog.addEventListener("close", closed);
    if (!dialog.open) dialog.showModal();
    const unlock = lockScroll();
    return () => {
      dialog.removeEventListener("cancel", cancel);
      dialog.removeEventListener("close", closed);
      dialog.close();
      unlock();
      const back =
        [...latest.current.backTo(), opener].find(
          (element): element is HTMLElement =>
            element instanceof HTMLElement &&
            element.isConnected &&
            element !== document.body &&
            !dialog.contains(element),
        ) ?? null;
      back?.focus();
    };
  }, [ref, active]);
}

/** Whether the pointer event is outside the dialog's box: on its backdrop (which belongs to the dialog). */
function onBackdrop(
  dialog: HTMLDialogElement,
  event: { target: EventTarget; clientX: number; clientY: number },
) {
  if (event.target !== dialog) return false;
  const box = dialog.getBoundingClientRect();
  return (
    event.clientX < box.left ||
    event.clientX > box.right ||
    event.clientY < box.top ||
    event.clientY > box.bottom
  );
}

/**
 * The dialog's pointer handlers (wrapping the caller's own): a click that starts and ends on the backdrop
 * calls `close`, not a text selection dragged out of the box.
 */
export function useBackdropClose(
  close: () => void,
  onPointerDown?: (event: PointerEvent<HTMLDialogElement>) => void,
  onClick?: (event: MouseEvent<HTMLDialogElement>) => void,
) {
  const pressedBackdrop = useRef(false);
  return {
    onPointerDown: (event: PointerEvent<HTMLDialogElement>) => {
      onPointerDown?.(event);
      pressedBackdrop.current = onBackdrop(event.currentTarget, event);
    },
    onClick: (event: MouseEvent<HTMLDialogElement>) => {
      onClick?.(event);
      if (pressedBackdrop.current && onBackdrop(event.currentTarget, event)) close();
      pressedBackdrop.current = false;
    },
  };
}
