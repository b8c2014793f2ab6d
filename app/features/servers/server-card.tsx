import type { ReactNode } from "react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardHeader } from "~/components/ui/card";
import { ServerAddressLine } from "~/components/layout/server-address";
import { useKnownLabel } from "~/components/ui/known-label";
import {
  SERVER_ACTION_LABELS,
  SERVER_STATE_LABELS,
  STATUS_READ_ERROR_LABELS,
  type ServerPageView,
  type ServerStatusView,
} from "~/domain/servers/server-control";
import { useTranslation } from "~/i18n/use-translation";
import {
  ageParts,
  barPercent,
  cpuText,
  durationParts,
  sizeParts,
  stateBadgeTone,
} from "./server-figures";

// A server's card: its name and address, its state with its age, what it uses of its plan, its uptime
// and its players. Every line is there whatever the state (a figure not known says so), so the card
// keeps its shape as the state moves and the refresh changes it in place.

/** How each state of the last action reads (services namespace). */
const ACTION_STATE_LABELS = {
  queued: "server.actionState.queued",
  done: "server.actionState.done",
  failed: "server.actionState.failed",
} as const;

const AGE_LABELS = {
  seconds: "server.age.seconds",
  minutes: "server.age.minutes",
  hours: "server.age.hours",
} as const;

const PLAYERS_ERROR_LABELS = {
  noAnswer: "server.players.noAnswer",
  malformed: "server.players.malformed",
} as const;

/** The line under the badge: how old the state is, and that a fresher one is on its way. */
function StateAge({ status }: { status: ServerStatusView }) {
  const { t } = useTranslation("services");
  const age = status.ageSeconds === null ? null : ageParts(status.ageSeconds);
  return (
    <span className="text-sm text-muted-foreground" data-testid="server-age">
      {age ? t(AGE_LABELS[age.unit], { value: age.value }) : t("server.age.never")}
      {status.refreshing ? ` · ${t("server.age.refreshing")}` : null}
    </span>
  );
}

/** One figure against the plan's limit: its words, and a bar when there is a limit. */
function UsageFigure({
  id,
  label,
  used,
  limit,
  text,
}: {
  id: string;
  label: string;
  used: number | null;
  limit: number;
  /** A figure as the reader writes it (a size, a percent). */
  text: (value: number) => string;
}) {
  const { t } = useTranslation("services");
  const percent = barPercent(used, limit);
  const words =
    used === null
      ? t("server.figures.unknown")
      : limit > 0
        ? t("server.figures.usage", { used: text(used), limit: text(limit) })
        : t("server.figures.noLimit", { used: text(used) });
  return (
    <div className="grid gap-1" data-testid={`server-${id}`}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="grid gap-1">
        <span>{words}</span>
        {/* The bar says with its length what the words say: hidden from screen readers. */}
        <span className="block h-2 overflow-hidden rounded-full bg-muted" aria-hidden>
          <span
            className={
              percent !== null && percent >= 90
                ? "block h-full bg-red-600"
                : "block h-full bg-primary"
            }
            style={{ width: `${percent ?? 0}%` }}
          />
        </span>
      </dd>
    </div>
  );
}

function Figure({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1" data-testid={`server-${id}`}>
      <dt className="text-muted-foreground">{label}</dt>
      <dd>{children}</dd>
    </div>
  );
}

/** The players online out of the maximum, with the name the game gives itself, or why it is not known. */
function Players({ status }: { status: ServerStatusView }) {
  const { t } = useTranslation("services");
  if (status.players)
    return (
      <span className="flex flex-wrap items-baseline gap-x-2">
        <span dir="ltr" className="font-medium">
          {status.players.online} / {status.players.max}
        </span>
        {status.players.name ? (
          <span dir="auto" className="user-text min-w-0 text-muted-foreground wrap-anywhere">
            {status.players.name}
          </span>
        ) : null}
      </span>
    );
  if (status.playersError) return <span>{t(PLAYERS_ERROR_LABELS[status.playersError])}</span>;
  return (
    <span>
      {status.state === "running" ? t("server.figures.unknown") : t("server.figures.notRunning")}
    </span>
  );
}

/** The last thing asked of the server, and how it stands ("Last request: Restart · done"). */
function LastAction({ action }: { action: NonNullable<ServerStatusView["lastAction"]> }) {
  const { t } = useTranslation("services");
  const label = useKnownLabel("services");
  return (
    <p className="text-sm" data-testid="server-last-action">
      {t("server.lastAction", {
        action: t(SERVER_ACTION_LABELS[action.action]),
        state: t(ACTION_STATE_LABELS[action.state]),
      })}
      {action.state === "failed" && action.error ? (
        <span className="block text-red-700">{label(action.error, action.error)}</span>
      ) : null}
    </p>
  );
}

export function ServerCard({
  service,
  status,
  locale,
}: {
  service: ServerPageView["service"];
  status: ServerStatusView;
  locale: string;
}) {
  const { t } = useTranslation("services");
  const size = (mib: number) => {
    const { key, value } = sizeParts(mib, locale);
    return key === "gb" ? t("server.size.gb", { value }) : t("server.size.mb", { value });
  };
  const uptime = (seconds: number) => {
    const parts = durationParts(seconds);
    switch (parts.unit) {
      case "days":
        return t("server.uptime.days", { days: parts.days, hours: parts.hours });
      case "hours":
        return t("server.uptime.hours", { hours: parts.hours, minutes: parts.minutes });
      case "minutes":
        return t("server.uptime.minutes", { minutes: parts.minutes });
      default:
        return t("server.uptime.seconds", { seconds: parts.seconds });
    }
  };
  const addressId = `server-address-${service.id}`;
  const ports = service.ports;
  return (
    <Card data-server-state={status.state}>
      <CardHeader className="gap-3">
        <h2 className="min-w-0 text-xl font-semibold wrap-anywhere">
          <span dir="auto" className="user-text">
            {service.serverName}
          </span>{" "}
          <span className="text-base font-normal text-muted-foreground">
            <bdi>{service.name}</bdi>
          </span>
        </h2>
        {service.address ? <ServerAddressLine id={addressId} address={service.address} /> : null}
        {ports?.announce !== undefined || ports?.http !== undefined ? (
          <p className="text-sm text-muted-foreground">
            {t("customer.panel.mtaPorts", {
              game: ports.game,
              announce: ports.announce ?? "-",
              http: ports.http ?? "-",
            })}
          </p>
        ) : null}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
          {/* The state is announced as it moves; its age, which changes at every refresh, is not. */}
          <span role="status">
            <Badge tone={stateBadgeTone(status.state)} data-testid="server-state">
              {t(SERVER_STATE_LABELS[status.state])}
            </Badge>
          </span>
          <StateAge status={status} />
        </div>
        {/* Its line is kept while empty: an error coming or going moves nothing under it. */}
        <p className="min-h-5 text-sm text-red-700" data-testid="server-read-error">
          {status.readError ? t(STATUS_READ_ERROR_LABELS[status.readError]) : null}
        </p>
      </CardHeader>
      <CardContent className="grid gap-4">
        <dl className="grid gap-4 text-sm sm:grid-cols-2">
          <UsageFigure
            id="cpu"
            label={t("server.figures.cpu")}
            used={status.cpuPercent}
            limit={status.cpuLimitPercent}
            text={(value) => cpuText(value, locale)}
          />
          <UsageFigure
            id="memory"
            label={t("server.figures.memory")}
            used={status.memoryMib}
            limit={status.memoryLimitMib}
            text={size}
          />
          <UsageFigure
            id="disk"
            label={t("server.figures.disk")}
            used={status.diskMib}
            limit={status.diskLimitMib}
            text={size}
          />
          <Figure id="uptime" label={t("server.figures.uptime")}>
            {status.state !== "running"
              ? t("server.figures.notRunning")
              : status.uptimeSeconds === null
                ? t("server.figures.unknown")
                : uptime(status.uptimeSeconds)}
          </Figure>
          <Figure id="players" label={t("server.figures.players")}>
            <Players status={status} />
          </Figure>
        </dl>
        {status.lastAction ? <LastAction action={status.lastAction} /> : null}
      </CardContent>
    </Card>
  );
}
