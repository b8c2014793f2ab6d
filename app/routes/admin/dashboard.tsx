import { BanknoteIcon, LifeBuoyIcon, ServerIcon, ShoppingCartIcon, UsersIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { AnnouncementList } from "~/components/ui/announcement-list";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { Notice } from "~/components/ui/notice";
import { ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import { StatCards } from "~/components/ui/stat-cards";
import { loadAdminDashboard } from "~/domain/admin-dashboard/admin-dashboard.server";
import { SetupChecklist } from "~/features/admin-dashboard/setup-checklist";
import { TwoFactorRuleNotice } from "~/features/admin-dashboard/two-factor-rule-notice";
import { twoFactorGap } from "~/domain/admin-dashboard/setup-checklist";
import { can } from "~/domain/staff/permissions";
import { ActivityList } from "~/features/admin-logs/audit-entry";
import {
  SERVICE_STATUS_LABELS,
  SERVICE_STATUSES,
} from "~/domain/hosting-services/hosting-services";
import { adminLoader } from "~/http/admin-route.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/dashboard";
import { requestContext } from "~/context.server";

export const loader = adminLoader(requestContext, {
  title: "admin.nav.dashboard",
  permission: null,
  load: async ({ db, admin, context }) => ({
    email: admin.email,
    // Every admin without a second factor is asked to set one up, whether or not the settings require it.
    twoFactorEnabled: admin.twoFactorEnabled,
    // Owner or Billing let in without a second factor, told to the members who may change it.
    twoFactorGap: can(admin.staffRole, "settings.manage")
      ? twoFactorGap(context.settings.security.twoFactorRoles)
      : null,
    ...(await loadAdminDashboard(db, {
      language: context.locale,
      settings: context.settings,
      // Without SMTP_URL mail is kept in the outbox (docs/mail.md): the setup checklist says so.
      mailEnabled: context.services.mailEnabled,
    }).then((dashboard) => ({
      ...dashboard,
      // The audit trail is read by the roles holding logs.view; the setup list leads to settings only
      // the roles holding settings.manage change.
      activity: can(admin.staffRole, "logs.view") ? dashboard.activity : null,
      setup: can(admin.staffRole, "settings.manage") ? dashboard.setup : null,
    }))),
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

/** The overview's rows (type, status, count) as one line per type, with a column per status. */
function byType(rows: { type: string | null; status: string; count: number }[]) {
  const types: { type: string | null; counts: Record<string, number>; total: number }[] = [];
  for (const row of rows) {
    let line = types.find((entry) => entry.type === row.type);
    if (!line) types.push((line = { type: row.type, counts: {}, total: 0 }));
    line.counts[row.status] = (line.counts[row.status] ?? 0) + row.count;
    line.total += row.count;
  }
  return types;
}

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("admin");
  const { t: tServices } = useTranslation("services");
  const { t: tAnnouncements } = useTranslation("announcements");
  const { stats, setup, activity, overview, announcements, locale, twoFactorEnabled } = loaderData;
  return (
    <main className="grid min-w-0 gap-6">
      <h1 className="text-2xl font-bold">{t("nav.dashboard")}</h1>
      {twoFactorEnabled ? null : (
        <Notice title={t("dashboard.twoFactorTitle")} data-testid="two-factor-prompt">
          {t("dashboard.twoFactorPrompt")}{" "}
          {/* A document link: the browser brings the hash's card into view on arrival. */}
          <a href={ADMIN_TWO_FACTOR_SETUP_PATH} className="font-medium underline">
            {t("dashboard.twoFactorSetUp")}
          </a>
        </Notice>
      )}
      <TwoFactorRuleNotice gap={loaderData.twoFactorGap} />
      <AnnouncementList announcements={announcements} label={tAnnouncements("shown.label")} />
      <StatCards
        stats={[
          {
            icon: <UsersIcon />,
            label: t("dashboard.clients"),
            value: stats.clients,
            to: "/admin/clients",
          },
          {
            icon: <ServerIcon />,
            label: t("dashboard.activeServices"),
            value: stats.activeServices,
            to: "/admin/services",
          },
          {
            icon: <ShoppingCartIcon />,
            label: t("dashboard.pendingOrders"),
            value: stats.pendingOrders,
            to: "/admin/orders?status=pending",
          },
          {
            icon: <BanknoteIcon />,
            label: t("dashboard.topUpsWaiting"),
            value: stats.topUpsWaiting,
            // Marked paid by the customer: the queue's own filter for those awaiting a decision.
            to: "/admin/top-ups?state=proof_sent",
          },
          {
            icon: <LifeBuoyIcon />,
            label: t("dashboard.openTickets"),
            value: stats.openTickets,
            to: "/admin/tickets",
          },
        ]}
      />
      {setup ? <SetupChecklist checklist={setup} locale={locale} /> : null}
      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2 [&>*]:min-w-0">
        {activity ? (
          <TitledCard title={t("dashboard.recentActivity")}>
            <ActivityList entries={activity} locale={locale} />
          </TitledCard>
        ) : null}
        <TitledCard
          title={t("dashboard.serviceOverview")}
          empty={overview.length === 0 ? t("dashboard.noServices") : undefined}
        >
          {/* Focusable and named: on a phone the table scrolls inside this box, and a keyboard must reach it. */}
          <div
            className="overflow-x-auto rounded-lg border"
            tabIndex={0}
            role="region"
            aria-label={t("dashboard.serviceOverview")}
          >
            <table className="w-full text-xs sm:text-sm">
              <caption className="sr-only">{t("dashboard.serviceOverview")}</caption>
              <thead className="bg-muted text-xs text-muted-foreground">
                <tr>
                  <th scope="col" className="px-2 py-2 sm:px-3 text-start font-semibold">
                    {t("dashboard.type")}
                  </th>
                  {SERVICE_STATUSES.map((status) => (
                    <th
                      key={status}
                      scope="col"
                      className="px-2 py-2 sm:px-3 text-end font-semibold"
                    >
                      {tServices(SERVICE_STATUS_LABELS[status])}
                    </th>
                  ))}
                  <th scope="col" className="px-2 py-2 sm:px-3 text-end font-semibold">
                    {t("dashboard.total")}
                  </th>
                </tr>
              </thead>
              <tbody className="divide-y">
                {byType(overview).map((row) => (
                  <tr key={row.type ?? ""}>
                    <th scope="row" className="px-2 py-2 sm:px-3 text-start font-medium">
                      {row.type ? row.type.toUpperCase() : t("dashboard.custom")}
                    </th>
                    {SERVICE_STATUSES.map((status) => (
                      <td key={status} className="px-2 py-2 sm:px-3 text-end font-mono">
                        {row.counts[status] ?? 0}
                      </td>
                    ))}
                    <td className="px-2 py-2 sm:px-3 text-end font-mono font-semibold">
                      {row.total}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </TitledCard>
      </div>
      <TitledCard title={t("dashboard.quickActions")} contentClassName="flex flex-wrap gap-2">
        {[
          { to: "/admin/orders?status=pending", label: t("dashboard.reviewOrders") },
          { to: "/admin/tickets?status=open", label: t("dashboard.answerTickets") },
          { to: "/admin/clients", label: t("dashboard.addCoins") },
          { to: "/admin/services", label: t("dashboard.addService") },
        ].map((action) => (
          <Button key={action.to} asChild variant="outline">
            <Link to={action.to}>{action.label}</Link>
          </Button>
        ))}
      </TitledCard>
    </main>
  );
}
