import { EyeIcon } from "lucide-react";
import { Button } from "~/components/ui/button";
import { Link } from "~/components/ui/link";
import { VIEW_AS_LANDING, VIEW_AS_LEAVE_PATH } from "~/domain/staff/view-as";
import { useTranslation } from "~/i18n/use-translation";

interface Viewed {
  name: string;
  email: string;
}

/**
 * Above every page while a member of the staff views the site as a customer (ADR 57): whose view it is,
 * that it is read-only, and the way out. The button is a plain form, so it leaves the view from a page
 * served without scripts too, and a whole page loads after it (the admin's, with its own menus).
 */
export function ViewAsBanner({ name, email }: Viewed) {
  const { t } = useTranslation("admin-staff");
  return (
    <aside
      aria-label={t("viewAs.banner.label")}
      data-testid="view-as-banner"
      className="border-b border-amber-300 bg-amber-100 text-amber-950"
    >
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-2">
        <p className="flex min-w-0 items-start gap-2 text-sm">
          <EyeIcon aria-hidden className="mt-0.5 size-4 shrink-0" />
          <span className="min-w-0 wrap-anywhere">{t("viewAs.banner.text", { name, email })}</span>
        </p>
        <form method="post" action={VIEW_AS_LEAVE_PATH}>
          <Button type="submit" size="sm" variant="outline" className="border-amber-400">
            {t("viewAs.banner.leave")}
          </Button>
        </form>
      </div>
    </aside>
  );
}

/**
 * What a post answers while viewing as a customer (403 from app/http/view-as-gate.server.ts, shown by the
 * root's error boundary): nothing was changed, and the ways on.
 */
export function ViewAsRefused({ name, email }: Viewed) {
  const { t } = useTranslation("admin-staff");
  return (
    <>
      <title>{t("viewAs.refused.title")}</title>
      <ViewAsBanner name={name} email={email} />
      <main className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 p-6 text-center">
        <h1 className="text-2xl font-bold">{t("viewAs.refused.title")}</h1>
        <p className="text-muted-foreground">{t("viewAs.refused.text", { name })}</p>
        <Button asChild variant="outline">
          <Link to={VIEW_AS_LANDING} reloadDocument>
            {t("viewAs.refused.back")}
          </Link>
        </Button>
      </main>
    </>
  );
}
