import { lazy, Suspense, useEffect, useSyncExternalStore, type CSSProperties } from "react";
import type * as SonnerModule from "sonner";

// sonner is about 9 KiB of gzip JavaScript, and most page views show no toast: it loads with the first
// toast instead of with every page (docs/performance.md). Toasts asked for before it is ready wait in
// `pending` and are shown once its Toaster has mounted.
type Sonner = typeof SonnerModule;
type ToastType = "success" | "error";

let sonner: Promise<Sonner> | undefined;
let ready: Sonner | null = null;
let wanted = false;
const pending: ((s: Sonner) => void)[] = [];
const listeners = new Set<() => void>();

const loadSonner = () => (sonner ??= import("sonner"));

/** Shows a toast (spec section 9), loading sonner first when it is the first one of the page. */
export function showToast(type: ToastType, message: string, options?: { id?: string }): void {
  if (ready) {
    ready.toast[type](message, options);
    return;
  }
  pending.push((s) => s.toast[type](message, options));
  if (!wanted) {
    wanted = true;
    for (const listener of listeners) listener();
  }
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const Sonner = lazy(() => loadSonner().then((module) => ({ default: module.Toaster })));

/** Rendered after sonner's Toaster, so its effect runs once the Toaster listens. */
function ShowPending() {
  useEffect(() => {
    void loadSonner().then((module) => {
      ready = module;
      for (const show of pending.splice(0)) show(module);
    });
  }, []);
  return null;
}

const RICH_TEXT_COLOURS = {
  "--success-text": "var(--color-green-800)",
  "--error-text": "var(--color-red-800)",
} as CSSProperties;

/** Spec section 9: 4000 ms, at most three visible. Nothing is rendered (or loaded) before a toast. */
export function Toaster({ dir }: { dir: "ltr" | "rtl" }) {
  const show = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
  if (!show) return null;
  return (
    <Suspense fallback={null}>
      <Sonner
        duration={4000}
        visibleToasts={3}
        richColors
        closeButton
        dir={dir}
        position="top-center"
        // sonner's rich green and red text is under 4.5:1 on its pale backgrounds: the static toaster's
        // green-800 and red-800 (static-toaster.tsx) instead.
        style={RICH_TEXT_COLOURS}
      />
      <ShowPending />
    </Suspense>
  );
}
