import { useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { ToastItem, ToastRegion, type ToastContent } from "./toast-item";

// The hydrated pages' toasts (spec section 9), with the static toaster's markup (toast-item.tsx): a few
// lines of our own instead of sonner's 9 KiB gzip (docs/ui-kit.md).

/** Spec section 9: each toast goes after 4000 ms (not while the pointer or the focus is on it). */
export const TOAST_DURATION_MS = 4000;
/** Spec section 9: at most three at once; a fourth pushes out the oldest. */
export const VISIBLE_TOASTS = 3;

export interface Toast extends ToastContent {
  key: number;
  id?: string;
}

const NONE: readonly Toast[] = [];
let toasts: readonly Toast[] = NONE;
let nextKey = 0;
const listeners = new Set<() => void>();

function set(next: readonly Toast[]) {
  toasts = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Shows a toast. One with the `id` of a toast still showing replaces its text in place (root.tsx's flashed
 * toast, whose text switches language) instead of adding another.
 */
export function showToast(
  type: ToastContent["type"],
  message: string,
  options?: { id?: string },
): void {
  const id = options?.id;
  const same = id === undefined ? undefined : toasts.find((toast) => toast.id === id);
  if (same) {
    set(toasts.map((toast) => (toast === same ? { ...toast, type, text: message } : toast)));
    return;
  }
  set([...toasts, { key: ++nextKey, id, type, text: message }].slice(-VISIBLE_TOASTS));
}

function dismiss(key: number) {
  set(toasts.filter((toast) => toast.key !== key));
}

/** The toasts shown now (for tests). */
export function currentToasts(): readonly Toast[] {
  return toasts;
}

/** Closes every toast (for tests). */
export function clearToasts(): void {
  set(NONE);
}

/** The hydrated pages' toaster: the live region (empty until a toast), in the page's direction. */
export function Toaster({ dir }: { dir: "ltr" | "rtl" }) {
  const { t } = useTranslation();
  const shown = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => NONE,
  );
  const close = t("toast.close");
  return (
    <ToastRegion dir={dir} label={t("nav.notifications")}>
      {shown.map((toast) => (
        <TimedToast key={toast.key} toast={toast} closeLabel={close} />
      ))}
    </ToastRegion>
  );
}

/** A toast that closes itself after TOAST_DURATION_MS, the clock stopped while it is pointed at or focused. */
function TimedToast({ toast, closeLabel }: { toast: Toast; closeLabel: string }) {
  const clock = useRef({ left: TOAST_DURATION_MS, started: 0, pointer: false, focus: false });
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const { key } = toast;

  // Runs from the toast's timers and events, never while it renders: it may read the clock.
  /* eslint-disable no-restricted-syntax */
  const update = () => {
    const c = clock.current;
    if (timer.current !== undefined) {
      clearTimeout(timer.current);
      timer.current = undefined;
      c.left = Math.max(0, c.left - (Date.now() - c.started));
    }
    if (c.pointer || c.focus) return;
    c.started = Date.now();
    timer.current = setTimeout(() => dismiss(key), c.left);
  };
  /* eslint-enable no-restricted-syntax */

  useEffect(() => {
    update();
    return () => clearTimeout(timer.current);
    // Started once: a replaced text keeps the toast's time.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <ToastItem
      type={toast.type}
      text={toast.text}
      closeLabel={closeLabel}
      onClose={() => dismiss(key)}
      onPointerEnter={() => {
        clock.current.pointer = true;
        update();
      }}
      onPointerLeave={() => {
        clock.current.pointer = false;
        update();
      }}
      onFocus={() => {
        clock.current.focus = true;
        update();
      }}
      onBlur={(event) => {
        if (event.currentTarget.contains(event.relatedTarget)) return;
        clock.current.focus = false;
        update();
      }}
    />
  );
}
