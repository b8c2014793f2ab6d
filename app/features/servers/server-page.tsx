import { ArrowLeftIcon } from "lucide-react";
import { useSearchParams } from "react-router";
import { Link } from "~/components/ui/link";
import { usePolledJson } from "~/components/ui/use-poll";
import type { ServerPageView, ServerStatusView } from "~/domain/servers/server-control";
import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import { useTranslation } from "~/i18n/use-translation";
import { ServerAccessCard } from "./server-access";
import type { ServerAnswer } from "./server-answers";
import { ServerCard } from "./server-card";
import { confirmationOf, ConfirmStep, type Confirmed } from "./server-confirm";
import { refreshEvery } from "./server-figures";
import { OfflineNoticeSwitch } from "./server-notice";
import { PowerControls, ReinstallControl } from "./server-power";
import { ServerVariables } from "./server-variables";

// A server in its customer's hands (/dashboard/services/:id), and the same for staff on the service's
// admin page: the card, kept fresh while the page is open, then power, reinstall, the game's settings,
// access and the offline notice.

/** Where a service's server page is, for the services tab's "Manage server". */
export function serverPagePath(serviceId: number): string {
  return `/dashboard/services/${serviceId}`;
}

/** Where the card asks for the state (a resource route answering JSON): the customer's and the staff's. */
export function serverStatusPath(serviceId: number, staff = false): string {
  return staff
    ? `/admin/services/${serviceId}/panel/status`
    : `${serverPagePath(serviceId)}/status`;
}

/**
 * The card's state: the loader's, then what the status route answers, every STATUS_REFRESH_MS while the
 * page is on the screen and every 2 s while the server moves (an action waits, it starts, stops or
 * installs), as the state shown says.
 */
export function useLiveStatus(initial: ServerStatusView, statusPath: string): ServerStatusView {
  return usePolledJson(statusPath, initial, refreshEvery);
}

/**
 * The server's sections: the card and what may be asked of it. `staff` leaves out what is the
 * customer's alone (the offline notice) and the reinstall, which the admin's page has as its own.
 */
export function ServerControl({
  view,
  locale,
  pagePath,
  statusPath,
  answer,
  staff = false,
}: {
  view: ServerPageView;
  locale: string;
  /** Where the forms post (the page's own address, without a confirmation's query). */
  pagePath: string;
  statusPath: string;
  answer?: ServerAnswer;
  staff?: boolean;
}) {
  const [search] = useSearchParams();
  const status = useLiveStatus(view.status, statusPath);
  const serverName = view.service.serverName;
  const allowed: readonly Confirmed[] = staff ? ["stop", "kill"] : ["stop", "kill", "reinstall"];
  const asked = confirmationOf(search);
  const confirm = asked && allowed.includes(asked) ? asked : null;
  return (
    <div className="grid gap-6" data-testid="server-control">
      <ServerCard service={view.service} status={status} locale={locale} />
      {confirm ? (
        <ConfirmStep
          kind={confirm}
          pagePath={pagePath}
          serverName={serverName}
          refusal={status.refusal}
        />
      ) : null}
      <div className="grid gap-6 lg:grid-cols-2">
        <PowerControls
          pagePath={pagePath}
          serverName={serverName}
          refusal={status.refusal}
          answer={answer}
        />
        {staff ? null : (
          <ReinstallControl
            pagePath={pagePath}
            serverName={serverName}
            refusal={status.refusal}
            answer={answer}
          />
        )}
        <ServerVariables
          variables={view.variables}
          pagePath={pagePath}
          refusal={status.refusal}
          answer={answer}
        />
        <ServerAccessCard
          access={view.access}
          panelLinks={view.panelLinks}
          pagePath={pagePath}
          answer={answer}
        />
        {staff ? null : (
          <OfflineNoticeSwitch on={view.offlineNotice} pagePath={pagePath} answer={answer} />
        )}
      </div>
    </div>
  );
}

/** /dashboard/services/:id: the way back to the services tab, then the server's sections. */
export function ServerPage({
  view,
  locale,
  answer,
}: {
  view: ServerPageView;
  locale: string;
  answer?: ServerAnswer;
}) {
  const { t } = useTranslation("services");
  const pagePath = serverPagePath(view.service.id);
  return (
    <div className="grid gap-4">
      <Link
        to={servicesTabPath()}
        className="inline-flex w-fit items-center gap-1 text-sm font-medium text-primary underline-offset-4 hover:underline"
      >
        <ArrowLeftIcon aria-hidden className="size-4 rtl:rotate-180" />
        {t("server.page.back")}
      </Link>
      <ServerControl
        view={view}
        locale={locale}
        pagePath={pagePath}
        statusPath={serverStatusPath(view.service.id)}
        answer={answer}
      />
    </div>
  );
}
