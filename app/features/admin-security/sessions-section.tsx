import { LogOutIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { byId, DataTable, type Column, timeColumn } from "~/components/data-table/data-table";
import { actionsColumn, column } from "~/components/data-table/column-presets";
import { Badge } from "~/components/ui/badge";
import { ResultMessage } from "~/components/ui/result-message";
import { SESSION_ACTIVITY_STEP_MINUTES } from "~/domain/accounts/accounts";
import { compactAddress } from "~/lib/ip-address";
import { describeUserAgent } from "~/lib/user-agent";
import { mediumDateTime } from "~/lib/intl-format";
import { visibleText } from "~/lib/visible-text";
import { ConfirmAction, resultValues, type SecurityActionResult } from "./security-shared";
import type { OwnSession } from "~/domain/accounts/accounts";

export type SessionView = OwnSession;

/** "Firefox 127 on Windows", or as much of it as the header tells. */
function useDeviceName() {
  const { t } = useTranslation("admin-security");
  return (userAgent: string | null) => {
    const { browser, os } = describeUserAgent(userAgent);
    if (browser && os) return t("sessions.deviceOn", { browser, os });
    return browser ?? os ?? t("sessions.unknownDevice");
  };
}

export function SessionsSection({
  sessions,
  locale,
  result,
}: {
  sessions: SessionView[];
  locale: string;
  result?: SecurityActionResult;
}) {
  const { t } = useTranslation("admin-security");
  const deviceName = useDeviceName();
  const date = mediumDateTime(locale);
  const others = sessions.filter((session) => !session.current).length;
  const mine =
    result && (result.intent === "revoke-session" || result.intent === "revoke-others")
      ? result
      : undefined;
  const addressOf = (session: SessionView) =>
    session.ipAddress ? compactAddress(visibleText(session.ipAddress)) : "—";
  const columns: Column<SessionView>[] = [
    column(
      "device",
      t("sessions.device"),
      (session) => {
        const fullAgent = session.userAgent ? visibleText(session.userAgent, 1024) : null;
        return (
          <>
            <span className="flex flex-wrap items-center gap-2">
              <span className="font-medium" title={fullAgent ?? undefined}>
                {deviceName(session.userAgent)}
              </span>
              {session.current ? <Badge tone="green">{t("sessions.current")}</Badge> : null}
            </span>
            {fullAgent ? (
              <details className="text-xs text-muted-foreground">
                <summary className="cursor-pointer">{t("sessions.fullAgent")}</summary>
                <code dir="ltr" className="block break-all">
                  {fullAgent}
                </code>
              </details>
            ) : null}
          </>
        );
      },
      { wide: true },
    ),
    column("address", t("sessions.address"), (session) => (
      <span dir="ltr" className="font-mono text-xs">
        {addressOf(session)}
      </span>
    )),
    timeColumn({
      id: "signedIn",
      name: t("sessions.signedIn"),
      at: (session) => session.createdAt,
      format: date,
    }),
    timeColumn({
      id: "lastActive",
      name: t("sessions.lastActive"),
      at: (session) => session.lastActiveAt,
      format: date,
    }),
    timeColumn({
      id: "expires",
      name: t("sessions.expires"),
      at: (session) => session.expiresAt,
      format: date,
    }),
    actionsColumn(
      t("sessions.actions"),
      (session) => {
        if (session.current) return null;
        const device = deviceName(session.userAgent);
        return (
          <ConfirmAction
            trigger={t("sessions.end")}
            triggerLabel={t("sessions.endFor", { device })}
            title={t("sessions.endTitle")}
            description={
              <p>
                {t("sessions.endText", {
                  device,
                  address: addressOf(session),
                })}
              </p>
            }
            confirm={t("sessions.endConfirm")}
            fields={{ intent: "revoke-session", sessionId: session.id }}
            result={result}
          />
        );
      },
      { hideName: true, wide: true },
    ),
  ];
  return (
    <section aria-labelledby="sessions-heading" className="grid min-w-0 gap-3">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div className="grid gap-1">
          <h2 id="sessions-heading" className="text-xl font-semibold">
            {t("sessions.title")}
          </h2>
          <p className="text-sm text-muted-foreground">{t("sessions.intro")}</p>
        </div>
        {others > 0 ? (
          <ConfirmAction
            trigger={
              <>
                <LogOutIcon aria-hidden />
                {t("sessions.endOthers")}
              </>
            }
            title={t("sessions.endOthersTitle", { count: others })}
            description={t("sessions.endOthersText")}
            confirm={t("sessions.endOthersConfirm")}
            fields={{ intent: "revoke-others" }}
            result={result}
          />
        ) : null}
      </div>
      {mine ? <ResultMessage result={mine} values={resultValues(mine)} /> : null}
      <DataTable caption={t("sessions.title")} columns={columns} rows={sessions} rowKey={byId} />
      <p className="text-xs text-muted-foreground">
        {t("sessions.lastActiveNote", { minutes: SESSION_ACTIVITY_STEP_MINUTES })}
      </p>
    </section>
  );
}
