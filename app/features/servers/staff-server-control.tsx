import { useTranslation } from "~/i18n/use-translation";
import type { ServerPageView } from "~/domain/servers/server-control";
import type { ServerAnswer } from "./server-answers";
import { serverStatusPath, ServerControl } from "./server-page";

/** The admin's page of a service (/admin/services/:id/panel): where its server control sits. */
export function staffServerPagePath(serviceId: number): string {
  return `/admin/services/${serviceId}/panel`;
}

/**
 * The server as its customer sees it, for staff on the service's admin page: the same card (kept fresh
 * the same way), power, the game's settings and access; what is asked here is asked in the admin's name.
 */
export function StaffServerControl({
  view,
  serviceId,
  locale,
  answer,
}: {
  view: ServerPageView;
  serviceId: number;
  locale: string;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  return (
    <section aria-labelledby="staff-server-title" className="grid gap-4">
      <div className="grid gap-1">
        <h2 id="staff-server-title" className="text-xl font-semibold">
          {t("server.staff.title")}
        </h2>
        <p className="text-sm text-muted-foreground">{t("server.staff.intro")}</p>
      </div>
      <ServerControl
        view={view}
        locale={locale}
        pagePath={staffServerPagePath(serviceId)}
        statusPath={serverStatusPath(serviceId, true)}
        answer={answer}
        staff
      />
    </section>
  );
}
