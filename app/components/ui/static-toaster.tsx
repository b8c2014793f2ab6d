import { useTranslation } from "~/i18n/use-translation";
import { ToastItem, ToastRegion, type ToastContent } from "./toast-item";

export type StaticToast = ToastContent;

/**
 * Toasts on a page served without React (app/lib/hydration.ts): the flashed toast is in the server's HTML,
 * and the enhance script (static-toaster.enhance.ts) closes it after 4 s or on its button, and shows the
 * page's own toasts (the copy button's) from the template. toaster.tsx does this on hydrated pages, with
 * the same ToastRegion and ToastItem.
 */
export function StaticToaster({ toast, dir }: { toast: StaticToast | null; dir: "ltr" | "rtl" }) {
  const { t } = useTranslation();
  const close = t("toast.close");
  return (
    <>
      <ToastRegion dir={dir} label={t("nav.notifications")}>
        {toast ? <ToastItem {...toast} closeLabel={close} /> : null}
      </ToastRegion>
      <template data-toast-template="">
        <ToastItem type="success" text="" closeLabel={close} />
      </template>
    </>
  );
}
