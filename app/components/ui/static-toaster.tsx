import { XIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";

export interface StaticToast {
  type: "success" | "error";
  text: string;
}

/**
 * Toasts on a page served without React (app/lib/hydration.ts): the flashed toast is in the server's HTML,
 * and the enhance script (static-toaster.enhance.ts) closes it after 4 s or on its button, and shows the
 * page's own toasts (the copy button's) from the template. sonner does this on hydrated pages.
 */
export function StaticToaster({ toast, dir }: { toast: StaticToast | null; dir: "ltr" | "rtl" }) {
  const { t } = useTranslation();
  const close = t("toast.close");
  return (
    <>
      <section
        data-toaster=""
        dir={dir}
        aria-label={t("nav.notifications")}
        aria-live="polite"
        aria-relevant="additions text"
        className="pointer-events-none fixed inset-x-0 top-4 z-[70] flex flex-col items-center gap-2 px-4"
      >
        {toast ? <ToastItem {...toast} closeLabel={close} /> : null}
      </section>
      <template data-toast-template="">
        <ToastItem type="success" text="" closeLabel={close} />
      </template>
    </>
  );
}

function ToastItem({ type, text, closeLabel }: StaticToast & { closeLabel: string }) {
  return (
    <div
      data-toast=""
      data-type={type}
      className="pointer-events-auto flex w-full max-w-sm items-center gap-3 rounded-md border border-green-200 bg-green-50 p-4 text-sm text-green-800 shadow-lg data-[type=error]:border-red-200 data-[type=error]:bg-red-50 data-[type=error]:text-red-800"
    >
      <p data-toast-text="" className="flex-1">
        {text}
      </p>
      <button
        type="button"
        data-toast-close=""
        aria-label={closeLabel}
        // 44 px to tap; the negative margins keep the toast as short as its text.
        className="-my-3 -me-3 inline-flex size-11 shrink-0 items-center justify-center rounded-sm opacity-70 hover:opacity-100"
      >
        <XIcon className="size-4" aria-hidden />
      </button>
    </div>
  );
}
