import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { byId, CellWithNote, type Column } from "~/components/data-table/data-table";
import { actionsColumn, noteColumn } from "~/components/data-table/column-presets";
import { clientColumn } from "~/components/ui/client-link";
import { ListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { RejectForm } from "~/components/ui/reject-form";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import {
  CANCELLATION_REASON_LABELS,
  CANCELLATION_STATE_LABELS,
  REASON_TEXT_MAX,
  REFUND_FILTERS,
  type RefundFilter,
  type RefundRequestRow,
} from "~/domain/hosting-services/cancellation";
import { documentPath } from "~/domain/invoices/invoices";
import { mediumDateTime } from "~/lib/intl-format";
import { formatCoins } from "~/lib/money";

/** What approving or refusing said; `params` fill the message (the request's number and amount). */
export type RefundDecisionResult = Pick<ActionResult, "ok" | "message"> & {
  params?: Record<string, string | number>;
};

const STATE_TONES = {
  requested: "blue",
  approved: "green",
  refused: "red",
  withdrawn: "grey",
} as const satisfies Record<RefundFilter, string>;

/**
 * /admin/refunds: the customers' refund requests within 14 days of an order, the waiting ones first,
 * each approved (the coins back, the service ended) or refused with a reason the customer reads.
 */
export function RefundsPage({
  requests,
  query: { state, page },
  hasMore,
  locale,
  result,
}: {
  requests: RefundRequestRow[];
  query: { state?: RefundFilter; page: number };
  hasMore: boolean;
  locale: string;
  result?: RefundDecisionResult;
}) {
  const { t } = useTranslation("services");
  const date = mediumDateTime(locale);
  const shown = state ?? "requested";
  const coins = (cents: number) => formatCoins(cents, locale);
  const columns: Column<RefundRequestRow>[] = [
    {
      id: "request",
      header: t("refunds.request"),
      className: "font-mono",
      cell: (row) => (
        <CellWithNote value={<>#{row.id}</>} note={date.format(new Date(row.createdAt))} />
      ),
    },
    clientColumn(t("refunds.customer"), (row) => ({
      userId: row.userId,
      name: row.userName,
      email: row.userEmail,
    })),
    noteColumn("service", t("refunds.service"), (row) => [
      <>
        {row.serviceName} <span dir="auto">{row.serverName}</span>
      </>,
      row.orderedAt ? t("refunds.ordered", { date: date.format(new Date(row.orderedAt)) }) : null,
    ]),
    {
      id: "amount",
      header: t("refunds.amount"),
      className: "font-mono md:whitespace-nowrap",
      cell: (row) => (
        <span className="whitespace-nowrap">
          {t("refunds.amountCoins", { amount: coins(row.refundCents) })}
        </span>
      ),
    },
    {
      id: "reason",
      header: t("refunds.reason"),
      wide: true,
      cell: (row) => (
        <>
          {t(CANCELLATION_REASON_LABELS[row.reason])}
          {row.reasonText ? (
            <div className="mt-1 text-xs text-muted-foreground user-text" dir="auto">
              {row.reasonText}
            </div>
          ) : null}
        </>
      ),
    },
    {
      id: "state",
      header: t("refunds.state"),
      cell: (row) => (
        <>
          <Badge tone={STATE_TONES[row.state as RefundFilter] ?? "grey"}>
            {t(CANCELLATION_STATE_LABELS[row.state])}
          </Badge>
          {row.decidedAt ? (
            <div className="mt-1 text-xs text-muted-foreground">
              {row.decidedBySystem
                ? t("refunds.bySystem")
                : t("refunds.byAdmin", { name: row.decidedByName ?? "" })}
            </div>
          ) : null}
          {row.decisionReason ? (
            <div className="mt-1 text-xs text-muted-foreground" dir="auto">
              {row.decisionReason}
            </div>
          ) : null}
          {row.creditNotes.map((number) => (
            <div key={number} className="mt-1 text-xs">
              <Link to={documentPath(number)}>{number}</Link>
            </div>
          ))}
        </>
      ),
    },
    {
      ...actionsColumn(
        t("refunds.actions"),
        (row) =>
          row.state === "requested" ? (
            <div className="grid gap-2">
              <IntentButton
                intent="approve"
                fields={{ id: row.id }}
                accessibleName={t("refunds.approveLabel", { id: row.id })}
              >
                {t("refunds.approve")}
              </IntentButton>
              <RejectForm
                fields={{ id: row.id }}
                maxLength={REASON_TEXT_MAX}
                reasonLabel={t("refunds.refuseReason", { id: row.id })}
                placeholder={t("refunds.reasonPlaceholder")}
                className="flex gap-2"
              >
                {t("refunds.refuse")}
              </RejectForm>
            </div>
          ) : null,
        // On a phone card the buttons take the card's whole width, above the request.
        { wide: true },
      ),
      present: (row) => row.state === "requested",
    },
  ];
  const filterHref = (s: RefundFilter) => (s === "requested" ? "?" : `?state=${s}`);
  return (
    <ListPage
      className="grid min-w-0 gap-4"
      header={
        <div className="grid gap-1">
          <h1 className="text-2xl font-bold">{t("refunds.title")}</h1>
          <p className="text-sm text-muted-foreground">{t("refunds.intro")}</p>
        </div>
      }
      filters={
        <nav aria-label={t("refunds.filter")} className="flex flex-wrap gap-2">
          {REFUND_FILTERS.map((s) => (
            <Button key={s} asChild size="sm" variant={s === shown ? "default" : "outline"}>
              <Link to={filterHref(s)} aria-current={s === shown ? "page" : undefined}>
                {t(CANCELLATION_STATE_LABELS[s])}
              </Link>
            </Button>
          ))}
        </nav>
      }
      table={{
        caption: t("refunds.title"),
        columns,
        rows: requests,
        rowKey: byId,
        phone: "scroll",
        rowClassName: "align-top",
      }}
      empty={t("refunds.empty")}
      pager={{
        page,
        hasMore,
        href: (p) => `?${new URLSearchParams({ ...(state ? { state } : {}), page: String(p) })}`,
        labels: { previous: t("refunds.previous"), next: t("refunds.next") },
      }}
    >
      {result ? <ResultMessage result={result} values={result.params} /> : null}
    </ListPage>
  );
}
