import { LogOutIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import {
  CardCell,
  CardRow,
  HeadCell,
  ResponsiveTable,
} from "~/components/data-table/responsive-table";
import { Badge } from "~/components/ui/badge";
import { ResultMessage } from "~/components/ui/result-message";
import { SESSION_ACTIVITY_STEP_MINUTES } from "~/domain/accounts/accounts";
import { compactAddress } from "~/lib/ip-address";
import { describeUserAgent } from "~/lib/user-agent";
import { visibleText } from "~/lib/visible-text";
import {
  ConfirmAction,
  dateFormat,
  resultValues,
  type SecurityActionResult,
} from "./security-shared";

export interface SessionView {
  id: string;
  ipAddress: string | null;
  userAgent: string | null;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  current: boolean;
}

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
  const date = dateFormat(locale);
  const others = sessions.filter((session) => !session.current).length;
  const mine =
    result && (result.intent === "revoke-session" || result.intent === "revoke-others")
      ? result
      : undefined;
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
      <ResponsiveTable
        caption={t("sessions.title")}
        head={
          <>
            <HeadCell>{t("sessions.device")}</HeadCell>
            <HeadCell>{t("sessions.address")}</HeadCell>
            <HeadCell>{t("sessions.signedIn")}</HeadCell>
            <HeadCell>{t("sessions.lastActive")}</HeadCell>
            <HeadCell>{t("sessions.expires")}</HeadCell>
            <HeadCell>
              <span className="sr-only">{t("sessions.actions")}</span>
            </HeadCell>
          </>
        }
      >
        {sessions.map((session) => {
          const device = deviceName(session.userAgent);
          const fullAgent = session.userAgent ? visibleText(session.userAgent, 1024) : null;
          const address = session.ipAddress ? compactAddress(visibleText(session.ipAddress)) : "—";
          return (
            <CardRow key={session.id}>
              <CardCell label={t("sessions.device")} wide>
                <span className="flex flex-wrap items-center gap-2">
                  <span className="font-medium" title={fullAgent ?? undefined}>
                    {device}
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
              </CardCell>
              <CardCell label={t("sessions.address")}>
                <span dir="ltr" className="font-mono text-xs">
                  {address}
                </span>
              </CardCell>
              <CardCell label={t("sessions.signedIn")} className="md:whitespace-nowrap">
                <time dateTime={session.createdAt}>{date.format(new Date(session.createdAt))}</time>
              </CardCell>
              <CardCell label={t("sessions.lastActive")} className="md:whitespace-nowrap">
                <time dateTime={session.lastActiveAt}>
                  {date.format(new Date(session.lastActiveAt))}
                </time>
              </CardCell>
              <CardCell label={t("sessions.expires")} className="md:whitespace-nowrap">
                <time dateTime={session.expiresAt}>{date.format(new Date(session.expiresAt))}</time>
              </CardCell>
              <CardCell wide>
                {session.current ? null : (
                  <ConfirmAction
                    trigger={t("sessions.end")}
                    triggerLabel={t("sessions.endFor", { device })}
                    title={t("sessions.endTitle")}
                    description={
                      <p>
                        {t("sessions.endText", {
                          device,
                          address,
                        })}
                      </p>
                    }
                    confirm={t("sessions.endConfirm")}
                    fields={{ intent: "revoke-session", sessionId: session.id }}
                    result={result}
                  />
                )}
              </CardCell>
            </CardRow>
          );
        })}
      </ResponsiveTable>
      <p className="text-xs text-muted-foreground">
        {t("sessions.lastActiveNote", { minutes: SESSION_ACTIVITY_STEP_MINUTES })}
      </p>
    </section>
  );
}
