import { useTranslation } from "~/i18n/use-translation";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { StatusMessage } from "~/components/ui/status-message";
import {
  CANCELLATION_REASON_LABELS,
  CANCELLATION_STATE_LABELS,
  isOpen,
  type CancelPageView,
  type CancellationSummary,
} from "~/domain/hosting-services/cancellation";
import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import { documentPath } from "~/domain/invoices/invoices";
import { dateTimeFormat } from "~/lib/intl-format";
import { formatCoins } from "~/lib/money";
import { CancelChoice, ChoiceCard, WithdrawButton, type ChoiceErrors } from "./cancel-choice";

/** What the cancel page's action answered: its message, and a refused form's errors. */
export type CancelAnswer = {
  ok: boolean;
  message: MessageKey;
} & ChoiceErrors;

const STATE_TONES = {
  scheduled: "yellow",
  requested: "blue",
  withdrawn: "grey",
  done: "grey",
  approved: "green",
  refused: "red",
} as const;

/**
 * /dashboard/services/:id/cancel: the two ways to cancel a service (at the end of its term; within 14
 * days of its order, with a refund: until when and how much), the reason asked, then the request as it
 * stands, with "Keep my server" or "Withdraw" while it is open.
 */
export function CancelPage({
  view,
  locale,
  timeZone,
  answer,
}: {
  view: CancelPageView;
  locale: string;
  /** The site's time zone: dates read the same on the server's page and after hydration. */
  timeZone: string;
  answer?: CancelAnswer;
}) {
  const { t } = useTranslation("services");
  const message = useMessage();
  const date = dateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone });
  const when = (iso: string) => date.format(new Date(iso));
  const coins = (cents: number) => formatCoins(cents, locale);
  const { service, current, refund } = view;
  const sent = answer?.values?.intent;
  const errorsOf = (intent: string) =>
    answer && !answer.ok && sent === intent ? answer : undefined;
  return (
    // Inside the dashboard's shell, under its tabs: its heading is the page's second level.
    <div className="grid max-w-3xl gap-6" data-testid="service-cancel">
      <div className="grid gap-2">
        <p className="text-sm">
          <Link to={servicesTabPath()}>{t("cancel.back")}</Link>
        </p>
        <h2 className="text-xl font-semibold">{t("cancel.title", { service: service.name })}</h2>
        <p className="text-muted-foreground">
          {t("cancel.intro", { service: service.name, server: service.serverName })}{" "}
          {t("cancel.expires", { date: when(service.expiresAt) })}
        </p>
      </div>
      {answer ? <StatusMessage ok={answer.ok}>{message(answer.message)}</StatusMessage> : null}
      {current ? (
        <CurrentRequest request={current} when={when} coins={coins} expiresAt={service.expiresAt} />
      ) : null}
      {view.canCancel ? (
        <div className="grid gap-4">
          <CancelChoice
            intent="end-of-term"
            title={t("cancel.endOfTerm.title")}
            submit={t("cancel.endOfTerm.submit")}
            errors={errorsOf("end-of-term")}
          >
            <p>{t("cancel.endOfTerm.body", { date: when(service.expiresAt) })}</p>
          </CancelChoice>
          {refund.offered ? (
            <CancelChoice
              intent="refund"
              title={t("cancel.refund.title")}
              submit={t("cancel.refund.submit")}
              destructive
              errors={errorsOf("refund")}
            >
              <p>
                {t("cancel.refund.body", {
                  amount: coins(refund.amountCents),
                  date: when(refund.until),
                })}
              </p>
              <p className="text-muted-foreground">{t("cancel.refund.after")}</p>
            </CancelChoice>
          ) : (
            <ChoiceCard title={t("cancel.refund.title")}>
              <p className="text-sm text-muted-foreground">
                {refund.why === "noOrder"
                  ? t("cancel.refund.noOrder")
                  : t("cancel.refund.windowPassed")}
              </p>
            </ChoiceCard>
          )}
        </div>
      ) : current && isOpen(current.state) ? null : (
        <p className="text-muted-foreground">{t("cancel.notActive")}</p>
      )}
    </div>
  );
}

/** The open request, or what became of the latest one. */
function CurrentRequest({
  request,
  when,
  coins,
  expiresAt,
}: {
  request: CancellationSummary;
  when: (iso: string) => string;
  coins: (cents: number) => string;
  expiresAt: string;
}) {
  const { t } = useTranslation("services");
  const amount = coins(request.refundCents);
  const lines: Record<CancellationSummary["state"], string> = {
    scheduled: t("cancel.current.scheduled", { date: when(request.endsAt ?? expiresAt) }),
    requested: t("cancel.current.requested", { amount }),
    approved: t("cancel.current.approved", { amount }),
    refused: t("cancel.current.refused", { reason: request.decisionReason ?? "" }),
    done: t("cancel.current.done"),
    withdrawn: t("cancel.current.withdrawn"),
  };
  return (
    <section
      aria-labelledby="cancel-current"
      className="grid gap-3 rounded-xl border-2 border-primary p-5"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="cancel-current" className="text-lg font-semibold">
          {t("cancel.current.title")}
        </h3>
        <Badge tone={STATE_TONES[request.state]}>
          {t(CANCELLATION_STATE_LABELS[request.state])}
        </Badge>
      </div>
      <p data-testid="cancel-state">{lines[request.state]}</p>
      <p className="text-sm text-muted-foreground">
        {t("cancel.current.reason", { reason: t(CANCELLATION_REASON_LABELS[request.reason]) })}
      </p>
      {request.creditNotes.length > 0 ? (
        <p className="text-sm">
          {t("cancel.current.creditNotes")}{" "}
          {request.creditNotes.map((number, index) => (
            <span key={number}>
              {index > 0 ? ", " : null}
              <Link to={documentPath(number)}>{number}</Link>
            </span>
          ))}
        </p>
      ) : null}
      {request.state === "scheduled" ? (
        <>
          <p className="text-sm">{t("cancel.current.keepHint")}</p>
          <WithdrawButton>{t("cancel.current.keep")}</WithdrawButton>
        </>
      ) : null}
      {request.state === "requested" ? (
        <WithdrawButton>{t("cancel.current.withdraw")}</WithdrawButton>
      ) : null}
    </section>
  );
}
