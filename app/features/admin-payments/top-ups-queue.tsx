import { FileTextIcon, ImageIcon } from "lucide-react";
import { Form } from "react-router";
import { useBusy } from "~/components/ui/use-busy";
import { byId, CellWithNote, type Column } from "~/components/data-table/data-table";
import { actionsColumn } from "~/components/data-table/column-presets";
import { listFilters } from "~/components/data-table/filter-bar";
import { FilteredListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { clientColumn } from "~/components/ui/client-link";
import { choicesOf } from "~/components/ui/form-card";
import { Input } from "~/components/ui/input";
import { RejectForm } from "~/components/ui/reject-form";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import {
  refundableAmount,
  refundInProgress,
  type QueuedOnlinePayment,
} from "~/domain/payments/online-payment-views";
import { formatMethodAmount } from "~/domain/payments/payment-methods";
import {
  formatFileSize,
  isImageProof,
  proofPath,
  thumbnailPath,
  type QueuedTopUpProof,
} from "~/domain/payments/top-up-proofs";
import {
  isOpenTopUp,
  MAX_REJECT_REASON_LENGTH,
  TOP_UP_STATE_LABELS,
  TOP_UP_STATE_TONES,
  TOP_UP_STATES,
  type TopUpRequest,
  type TopUpState,
} from "~/domain/payments/top-ups";
import { useTranslation } from "~/i18n/use-translation";
import { formatCalendarDay, mediumDateTime } from "~/lib/intl-format";
import { OnlinePaymentCell, RefundDialog } from "./online-payment-cell";

/**
 * What approving or rejecting said (`params` fill the message: the request's reference), or why a
 * refund of a payment (`intent`, `paymentId`) was refused, on its amount field.
 */
export type TopUpDecisionResult = Pick<ActionResult, "ok" | "message" | "fieldErrors"> & {
  params?: Record<string, string | number>;
  intent?: "refund";
  paymentId?: number;
};

type QueuedTopUp = TopUpRequest & { customerName: string; customerEmail: string };
type Query = { state?: TopUpState; method?: string; q?: string; page: number };

/** A request's Approve (with another number of coins, or the asked one left empty) and Reject. */
function DecisionForms({ request }: { request: QueuedTopUp }) {
  const { t } = useTranslation("payments");
  const busy = useBusy();
  return (
    <div className="grid gap-2">
      <Form method="post" className="flex flex-wrap gap-2">
        <input type="hidden" name="intent" value="approve" />
        <input type="hidden" name="requestId" value={request.id} />
        <Input
          name="coins"
          inputMode="numeric"
          dir="ltr"
          aria-label={`${t("topUps.admin.coinsOther")} (${request.reference})`}
          placeholder={String(request.coins)}
          className="h-9 w-20"
        />
        <Button
          type="submit"
          size="sm"
          disabled={busy}
          aria-label={`${t("topUps.admin.approve")} ${request.reference}`}
        >
          {t("topUps.admin.approve")}
        </Button>
      </Form>
      <RejectForm
        fields={{ requestId: request.id }}
        maxLength={MAX_REJECT_REASON_LENGTH}
        reasonLabel={`${t("topUps.admin.reason")} (${request.reference})`}
        placeholder={t("topUps.admin.reason")}
        className="flex flex-wrap gap-2"
      >
        {t("topUps.admin.reject")}
      </RejectForm>
    </div>
  );
}

/**
 * A request's proof files: each image as its preview (a small WebP, never the file itself: a queue of
 * photos would load megabytes each) that opens it whole, a placeholder while the preview is yet to be
 * made, each PDF as a link that downloads it, and a red flag on a file another request was sent with too.
 */
function ProofFiles({ proofs, locale }: { proofs: QueuedTopUpProof[]; locale: string }) {
  const { t } = useTranslation("payments");
  if (proofs.length === 0)
    return <span className="text-muted-foreground">{t("topUps.admin.noProofs")}</span>;
  return (
    <ul className="grid gap-2" data-proofs>
      {proofs.map((proof) => (
        <li key={proof.id} className="grid justify-items-start gap-1">
          {isImageProof(proof.contentType) ? (
            <a
              href={proofPath(proof.id)}
              target="_blank"
              rel="noreferrer"
              aria-label={t("topUps.admin.openImage", { name: proof.fileName })}
            >
              {proof.thumbnail ? (
                <img
                  src={thumbnailPath(proof.id)}
                  alt={proof.fileName}
                  width={proof.thumbnail.width}
                  height={proof.thumbnail.height}
                  loading="lazy"
                  decoding="async"
                  className="h-20 w-auto max-w-32 rounded border bg-muted object-contain"
                />
              ) : (
                <span
                  className="grid size-20 place-items-center rounded border bg-muted text-muted-foreground"
                  data-preview-pending
                >
                  <ImageIcon className="size-6" aria-hidden />
                </span>
              )}
            </a>
          ) : (
            // Served as a download (a PDF is never opened as a page of the site).
            <a
              href={proofPath(proof.id)}
              download={proof.fileName}
              aria-label={t("topUps.admin.downloadPdf", { name: proof.fileName })}
              className="inline-flex items-center gap-1 text-sm text-primary underline-offset-4 hover:underline"
            >
              <FileTextIcon className="size-4 shrink-0" aria-hidden />
              <span className="break-all" dir="auto">
                {proof.fileName}
              </span>
            </a>
          )}
          <span className="text-xs text-muted-foreground">
            {formatFileSize(proof.byteSize, locale)}
          </span>
          {isImageProof(proof.contentType) && !proof.thumbnail ? (
            <span className="text-xs text-muted-foreground">
              {t("topUps.admin.previewPending")}
            </span>
          ) : null}
          {proof.sameFileAs.length > 0 ? (
            <Badge tone="red" data-same-file>
              {t("topUps.admin.sameFile", { references: proof.sameFileAs.join(", ") })}
            </Badge>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A paid payment with money left to give back and no refund of it on its way. */
function canRefund(payment: QueuedOnlinePayment): boolean {
  return refundableAmount(payment) > 0 && !refundInProgress(payment);
}

/**
 * /admin/top-ups: the queue of top-up requests, searched by reference or customer and filtered by state
 * and method, Approve and Reject.
 */
export function TopUpsQueue({
  items,
  hasMore,
  histories,
  proofs,
  onlinePayments,
  methods,
  query,
  locale,
  result,
}: {
  items: QueuedTopUp[];
  hasMore: boolean;
  histories: Record<string, Partial<Record<TopUpState, number>>>;
  /** Each request's files, by its id. */
  proofs: Record<number, QueuedTopUpProof[]>;
  /** The online payment of each request paid through a provider, by the request's id. */
  onlinePayments: Record<number, QueuedOnlinePayment>;
  methods: { id: number; name: string }[];
  query: Query;
  locale: string;
  result?: TopUpDecisionResult;
}) {
  const { t } = useTranslation("payments");
  const date = mediumDateTime(locale);
  const filters = listFilters(query, "top-ups", [
    {
      kind: "search",
      name: "q",
      label: t("topUps.admin.search"),
      placeholder: t("topUps.admin.searchPlaceholder"),
      dir: "ltr",
      maxLength: 254,
    },
    {
      kind: "select",
      name: "state",
      label: t("topUps.admin.state"),
      anyLabel: t("topUps.admin.all"),
      options: choicesOf(TOP_UP_STATES, (state) => t(TOP_UP_STATE_LABELS[state])),
    },
    {
      kind: "select",
      name: "method",
      label: t("topUps.admin.method"),
      anyLabel: t("topUps.admin.all"),
      options: methods.map((method) => ({ value: String(method.id), label: method.name })),
    },
  ]);
  const columns: Column<QueuedTopUp>[] = [
    {
      id: "request",
      header: t("topUps.admin.request"),
      cell: (request) => (
        <CellWithNote
          value={
            <span className="font-mono" dir="ltr">
              {request.reference}
            </span>
          }
          note={t("topUps.admin.asked", { date: date.format(new Date(request.createdAt)) })}
        />
      ),
    },
    clientColumn(t("topUps.admin.customer"), (request) => ({
      userId: request.userId,
      name: request.customerName,
      email: request.customerEmail,
    })),
    {
      id: "amount",
      header: t("topUps.admin.amount"),
      cell: (request) => (
        <CellWithNote
          value={
            <span dir="ltr">{formatMethodAmount(request.total, request.currency, locale)}</span>
          }
          note={t("topUps.admin.coinsBy", { coins: request.coins, method: request.methodName })}
        />
      ),
    },
    {
      id: "paid",
      header: t("topUps.admin.paid"),
      cell: (request) =>
        onlinePayments[request.id] ? (
          <OnlinePaymentCell payment={onlinePayments[request.id]!} locale={locale} />
        ) : request.payerAccount && request.paidOn ? (
          <span dir="auto">
            {t("topUps.paidFrom", {
              account: request.payerAccount,
              date: formatCalendarDay(request.paidOn, locale),
            })}
          </span>
        ) : (
          <span className="text-muted-foreground">{t("topUps.admin.notPaidYet")}</span>
        ),
    },
    {
      id: "proofs",
      header: t("topUps.admin.proofs"),
      cell: (request) => <ProofFiles proofs={proofs[request.id] ?? []} locale={locale} />,
    },
    {
      id: "state",
      header: t("topUps.state"),
      cell: (request) => {
        const history = histories[request.userId] ?? {};
        return (
          <>
            <Badge tone={TOP_UP_STATE_TONES[request.state]}>
              {t(TOP_UP_STATE_LABELS[request.state])}
            </Badge>
            {request.creditedCoins !== null ? (
              <div className="mt-1 text-xs">
                {t("topUps.creditedCoins", { coins: request.creditedCoins })}
              </div>
            ) : null}
            {request.rejectReason ? (
              <div className="mt-1 text-xs text-muted-foreground" dir="auto">
                {request.rejectReason}
              </div>
            ) : null}
            <div className="mt-1 text-xs text-muted-foreground">
              {t("topUps.admin.history", {
                approved: history.approved ?? 0,
                rejected: history.rejected ?? 0,
                cancelled: history.cancelled ?? 0,
              })}
            </div>
          </>
        );
      },
    },
    {
      ...actionsColumn(
        t("topUps.admin.decision"),
        (request) => {
          const payment = onlinePayments[request.id];
          if (payment && canRefund(payment))
            return (
              <RefundDialog
                payment={payment}
                reference={request.reference}
                locale={locale}
                result={result}
              />
            );
          return isOpenTopUp(request.state) ? <DecisionForms request={request} /> : null;
        },
        { wide: true },
      ),
      present: (request) => {
        const payment = onlinePayments[request.id];
        return isOpenTopUp(request.state) || (payment !== undefined && canRefund(payment));
      },
    },
  ];
  return (
    <FilteredListPage
      heading={{ title: t("topUps.admin.title"), intro: t("topUps.admin.intro") }}
      filters={filters}
      filterBar={{
        label: t("topUps.admin.filter"),
        className: "sm:grid-cols-[2fr_1fr_1fr_auto] sm:items-end",
      }}
      table={{ columns, rows: items, rowKey: byId, phone: "scroll", rowClassName: "align-top" }}
      empty={t("topUps.admin.empty")}
      hasMore={hasMore}
    >
      {/* A refund's refusal is said here too: its dialog is gone when one is under way already. */}
      {result ? <ResultMessage result={result} values={result.params} /> : null}
    </FilteredListPage>
  );
}
