import type { ReactNode } from "react";
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { IntentButton } from "~/components/ui/intent-button";
import { Input } from "~/components/ui/input";
import { DetailList } from "~/components/ui/detail-list";
import { Label } from "~/components/ui/label";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { StatusMessage } from "~/components/ui/status-message";
import { useRefreshWhile } from "~/components/ui/use-refresh-while";
import {
  panelStateTone,
  type PanelCallView,
  type ServicePanel,
} from "~/domain/provisioning/panel-plan";
import {
  PANEL_STATE_LABELS,
  PANEL_STATES,
  type PanelState,
} from "~/domain/provisioning/provisioning";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { dateTimeFormat } from "~/lib/intl-format";
import { useBusy } from "~/components/ui/use-busy";

export type ServicePanelActionResult = ActionResult;

/** While the panel's side is moving (a job is on it), the page looks again this often. */
const MOVING_REFRESH_MS = 2000;
const MOVING_STATES = new Set(["pending", "creating", "installing"]);

/** The badge of a reinstall the worker has not handed to the panel yet (provisioning namespace). */
const REINSTALL_LABELS = {
  queued: "service.reinstallWaiting",
  running: "service.reinstallSending",
} as const;

/** The panel's figures and names (an address, ports, an id): monospace, left to right. */
const CODE = { dir: "ltr", className: "font-mono" } as const;

/**
 * /admin/services/:id/panel: where the service stands on the game panel, why it failed, the
 * calls made to the panel for it (no key, no body), and the admin's ways out: Retry, Reinstall, Re-link.
 */
export function ServicePanelPage({
  serviceId,
  panel,
  locale,
  result,
  children,
}: {
  serviceId: number;
  panel: Omit<ServicePanel, "state"> & {
    state: string | null;
    error: { key: string; detail: string | null } | null;
    /** A reinstall waiting for the worker or being sent to the panel. */
    reinstall: "queued" | "running" | null;
    serverId: number | null;
    identifier: string | null;
    calls: PanelCallView[];
  };
  locale: string;
  result?: ServicePanelActionResult;
  /** What the route adds under the panel's state (its server's control, from another feature). */
  children?: ReactNode;
}) {
  const { t } = useTranslation("provisioning");
  const { t: tServices } = useTranslation("services");
  const message = useMessage();
  const busy = useBusy();
  const moving =
    panel.reinstall !== null || (panel.state !== null && MOVING_STATES.has(panel.state));
  useRefreshWhile(moving, MOVING_REFRESH_MS, `${panel.state}:${panel.calls.length}`);
  const date = dateTimeFormat(locale, { dateStyle: "short", timeStyle: "medium" });
  const state = (panel.state ?? "") as PanelState;
  const known = (PANEL_STATES as readonly string[]).includes(state);
  return (
    <div className="grid gap-6">
      <PageHeading
        title={t("service.title", { id: serviceId })}
        intro={t("service.intro")}
        parent={{ to: "/admin/services", label: t("service.backToServices") }}
      />
      {result ? <ResultMessage result={result} /> : null}
      <TitledCard title={t("service.stateTitle")}>
        <div className="grid gap-3 text-sm">
          {panel.state === null ? (
            <p data-testid="panel-state">{t("service.manual")}</p>
          ) : (
            <p className="flex flex-wrap items-center gap-2">
              {panel.reinstall ? (
                // Until the panel takes it, the server still is what it was: the badge says what comes.
                <Badge tone="blue" data-testid="panel-state">
                  {t(REINSTALL_LABELS[panel.reinstall])}
                </Badge>
              ) : (
                <Badge tone={panelStateTone(state)} data-testid="panel-state">
                  {known ? tServices(PANEL_STATE_LABELS[state]) : t("service.unknownState")}
                </Badge>
              )}
              {moving ? <span role="status">{t("service.moving")}</span> : null}
            </p>
          )}
          {panel.error ? (
            <StatusMessage ok={false} detail={panel.error.detail}>
              {message(panel.error.key as MessageKey)}
            </StatusMessage>
          ) : null}
          <DetailList
            className="grid gap-1 sm:grid-cols-[max-content_1fr] sm:gap-x-6"
            details={[
              { term: t("service.address"), value: panel.address ?? "-", ...CODE },
              panel.ports?.announce !== undefined || panel.ports?.http !== undefined
                ? {
                    term: t("service.ports"),
                    value: [panel.ports.game, panel.ports.announce, panel.ports.http]
                      .filter((port) => port !== undefined)
                      .join(" / "),
                    ...CODE,
                  }
                : null,
              {
                term: t("service.server"),
                value:
                  panel.serverId === null ? "-" : `${panel.serverId} (${panel.identifier ?? "-"})`,
                ...CODE,
              },
            ]}
          />
          {panel.link ? (
            <p>
              <a className="text-primary underline-offset-4 hover:underline" href={panel.link}>
                {t("service.openOnPanel")}
              </a>
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            {state === "failed" ? (
              <IntentButton intent="retry" fields={{}}>
                {t("service.retry")}
              </IntentButton>
            ) : null}
            {["ready", "failed", "suspended"].includes(state) &&
            panel.serverId !== null &&
            panel.reinstall === null ? (
              <IntentButton
                intent="reinstall"
                fields={{}}
                variant="outline"
                confirmText={t("service.confirmReinstall")}
              >
                {t("service.reinstall")}
              </IntentButton>
            ) : null}
          </div>
          {!moving ? (
            <Form method="post" className="flex flex-wrap items-end gap-2">
              <input type="hidden" name="intent" value="relink" />
              {/* As wide as its label, so the button sits right after the field. */}
              <div className="grid w-full max-w-xs gap-1">
                <Label htmlFor="relink-server">{t("service.relinkLabel")}</Label>
                <Input id="relink-server" name="server" required maxLength={64} dir="ltr" />
              </div>
              <Button type="submit" variant="outline" size="sm" disabled={busy}>
                {t("service.relink")}
              </Button>
            </Form>
          ) : null}
        </div>
      </TitledCard>
      {children}
      <TitledCard
        title={t("service.callsTitle")}
        empty={panel.calls.length === 0 ? t("service.noCalls") : undefined}
      >
        <ul className="grid gap-1 font-mono text-xs" dir="ltr" data-testid="panel-calls">
          {panel.calls.map((call) => (
            <li key={call.id}>
              {date.format(new Date(call.at))} {call.method} {call.path}{" "}
              {call.status ?? call.errorCode ?? "-"} {call.durationMs} ms
              {call.status !== null && call.errorCode ? ` ${call.errorCode}` : ""}
            </li>
          ))}
        </ul>
      </TitledCard>
    </div>
  );
}
