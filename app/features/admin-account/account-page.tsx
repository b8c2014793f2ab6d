import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { PageHeading } from "~/components/ui/page-heading";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";

/**
 * An admin's own page in the admin panel (/admin/account): the two-factor card the customers' account tab
 * has (set-up, backup codes, turning it off; the route hands it over, as the dashboard does) and the way
 * to change their password, so that staff secure their account without leaving the panel.
 */
export function AdminAccountPage({ twoFactor }: { twoFactor: ReactNode }) {
  const { t } = useTranslation("admin");
  const { t: tDashboard } = useTranslation("dashboard");
  return (
    <main className="grid min-w-0 gap-6">
      <PageHeading title={t("shell.account")} intro={t("account.intro")} />
      <div className="grid grid-cols-1 items-start gap-6 lg:grid-cols-2">
        {twoFactor}
        <TitledCard title={tDashboard("account.password")}>
          <p className="text-sm text-muted-foreground">{tDashboard("account.passwordNote")}</p>
          <Button asChild size="sm" variant="outline" className="mt-2">
            <Link to="/account/password">{tDashboard("account.changePassword")}</Link>
          </Button>
        </TitledCard>
      </div>
    </main>
  );
}
