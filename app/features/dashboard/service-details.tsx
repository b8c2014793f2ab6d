import { useTranslation } from "~/i18n/use-translation";
import { Button } from "~/components/ui/button";
import { ServerAddressLine } from "~/components/layout/server-address";
import { Link } from "~/components/ui/link";
import type { DisplayStatus } from "~/domain/hosting-services/hosting-services";
import { serviceDeadlines } from "~/domain/lifecycle/lifecycle";
import type { ServicePanel } from "~/domain/provisioning/panel-plan";
import { mediumDateTime } from "~/lib/intl-format";
import type { LifecycleDates, ServiceRow } from "./services-panel";

// What a service's line on the services tab says beside its name and price: where its server on the
// game panel stands (docs/provisioning.md "What people see"), and when the lifecycle suspends or ends it
// unless it is renewed (docs/automation.md "The service lifecycle").

/**
 * Whether a server is still being made on the game panel: its line says so until the panel gives its
 * address (a failure, and a server deleted from the panel, are no longer moving).
 */
export function serverSettingUp(panel: ServicePanel): boolean {
  if (panel.state === "deleted" || panel.state === "failed") return false;
  return !panel.address || !["ready", "suspended"].includes(panel.state);
}

/** A server's own page (its state, power, access), under the services tab. */
function serverPagePath(serviceId: number): string {
  return `/dashboard/services/${serviceId}`;
}

/**
 * Where a server made on the game panel stands: being set up, its address to copy (and MTA's
 * three ports) with the way to its panel and, once ready, to its own page, or a failure our team is
 * told of. Nothing for a service set up by hand, nor for one deleted from the panel.
 */
export function ServerAddress({
  serviceId,
  serverName,
  panel,
}: {
  serviceId: number;
  serverName: string;
  panel: ServicePanel;
}) {
  const { t } = useTranslation("services");
  if (panel.state === "deleted") return null;
  if (panel.state === "failed")
    return (
      <p className="mt-1 text-sm" data-testid={`panel-state-${serviceId}`}>
        {t("customer.panel.failed")}
      </p>
    );
  if (serverSettingUp(panel))
    return (
      <p className="mt-1 text-sm" data-testid={`panel-state-${serviceId}`} role="status">
        {t("customer.panel.settingUp")}
      </p>
    );
  const id = `server-address-${serviceId}`;
  const ports = panel.ports;
  return (
    <div className="mt-2 grid gap-2 text-sm" data-testid={`panel-state-${serviceId}`}>
      {panel.address ? <ServerAddressLine id={id} address={panel.address} /> : null}
      {panel.state === "ready" ? (
        <p>
          <Button asChild size="sm">
            <Link
              to={serverPagePath(serviceId)}
              aria-label={t("server.manageLabel", { server: serverName })}
            >
              {t("server.manage")}
            </Link>
          </Button>
        </p>
      ) : null}
      {ports?.announce !== undefined || ports?.http !== undefined ? (
        <p className="text-muted-foreground">
          {t("customer.panel.mtaPorts", {
            game: ports.game,
            announce: ports.announce ?? "-",
            http: ports.http ?? "-",
          })}
        </p>
      ) : null}
      {panel.link ? (
        <p>
          {/* The panel is another site: a new tab keeps the dashboard where it was. */}
          <a
            className="font-medium text-primary underline-offset-4 hover:underline"
            href={panel.link}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t("customer.panel.open")}
          </a>
        </p>
      ) : null}
      {/* What the "ready" mail says too: the first sign-in, and where the server's settings are. */}
      <p className="text-muted-foreground">{t("customer.panel.signIn")}</p>
      <p className="text-muted-foreground">{t("customer.panel.secrets")}</p>
    </div>
  );
}

/**
 * When the lifecycle suspends, then terminates, a service unless it is renewed (`serviceDeadlines`), in
 * the site's time zone: under an expired or soon expiring service, and under one suspended for expiry
 * with when it was. Nothing while the lifecycle is off, for it then does neither by itself.
 */
export function Deadlines({
  service,
  shown,
  lifecycle,
  locale,
  timeZone,
}: {
  service: ServiceRow;
  shown: DisplayStatus;
  lifecycle: LifecycleDates;
  locale: string;
  timeZone: string;
}) {
  const { t } = useTranslation("services");
  const when = (iso: string) => mediumDateTime(locale, { timeZone }).format(new Date(iso));
  const suspendedAt = service.suspendedAt ?? null;
  const { suspendsAt, terminatesAt } = serviceDeadlines({ ...service, suspendedAt }, lifecycle);
  if (service.suspensionReason === "expired")
    return (
      <p className="text-sm" data-testid={`deadlines-${service.id}`}>
        {suspendedAt
          ? t("customer.suspendedExpiredOn", { date: when(suspendedAt) })
          : t("customer.suspendedExpired")}
        {terminatesAt ? ` ${t("customer.terminatesOn", { date: when(terminatesAt) })}` : null}
      </p>
    );
  if ((shown !== "expired" && shown !== "expiring") || !suspendsAt || !terminatesAt) return null;
  return (
    <p className="text-sm" data-testid={`deadlines-${service.id}`}>
      {t("customer.deadlines", { suspendsAt: when(suspendsAt), terminatesAt: when(terminatesAt) })}
    </p>
  );
}
