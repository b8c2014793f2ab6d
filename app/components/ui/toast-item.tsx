import { XIcon } from "lucide-react";
import type { ComponentProps, ReactNode } from "react";

export interface ToastContent {
  type: "success" | "error";
  text: string;
}

/**
 * Where toasts show (spec section 9), at the top centre under the 64 px header (on a phone a toast is as
 * wide as the screen, and covered the bell and the coin balance): a live region named `label`, so screen readers
 * read out each toast put in it. One look for the hydrated pages' toaster (toaster.tsx) and the static one
 * (static-toaster.tsx); static-toaster.enhance.ts finds it by its data-toaster.
 */
export function ToastRegion({
  dir,
  label,
  children,
}: {
  dir: "ltr" | "rtl";
  label: string;
  children: ReactNode;
}) {
  return (
    <section
      data-toaster=""
      dir={dir}
      aria-label={label}
      aria-live="polite"
      aria-relevant="additions text"
      className="pointer-events-none fixed inset-x-0 top-20 z-[70] flex flex-col items-center gap-2 px-4"
    >
      {children}
    </section>
  );
}

/** One toast: its text and a close button named `closeLabel`, green for a success, red for an error. */
export function ToastItem({
  type,
  text,
  closeLabel,
  onClose,
  ...props
}: ToastContent & { closeLabel: string; onClose?: () => void } & Omit<
    ComponentProps<"div">,
    "children"
  >) {
  return (
    <div
      data-toast=""
      data-type={type}
      className="pointer-events-auto flex w-full max-w-sm items-center gap-3 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-800 shadow-lg data-[type=error]:border-red-200 data-[type=error]:bg-red-50 data-[type=error]:text-red-800"
      {...props}
    >
      <p data-toast-text="" className="flex-1">
        {text}
      </p>
      <button
        type="button"
        data-toast-close=""
        aria-label={closeLabel}
        onClick={onClose}
        // 44 px to tap; the negative margins keep the toast as short as its text.
        className="-my-3 -me-3 inline-flex size-11 shrink-0 items-center justify-center rounded-sm opacity-70 hover:opacity-100"
      >
        <XIcon className="size-4" aria-hidden />
      </button>
    </div>
  );
}
