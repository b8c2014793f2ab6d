import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";

/**
 * Shown to admins while maintenance mode is on: they pass the maintenance gate and would otherwise not
 * notice that visitors and customers get the maintenance page.
 */
export function MaintenanceBanner({ className }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <p className="rounded-md bg-accent px-3 py-2 text-center text-sm text-accent-foreground">
        {t("maintenance.adminBanner")}{" "}
        <Link to="/admin/settings#maintenance" className="font-semibold underline">
          {t("maintenance.adminBannerLink")}
        </Link>
      </p>
    </div>
  );
}
