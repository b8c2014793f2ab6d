import { Link } from "~/components/ui/link";
import { DataTable, byId, type Column } from "~/components/data-table/data-table";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { IntentButton } from "~/components/ui/intent-button";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { formatMethodAmount, type OfferedPaymentMethod } from "~/domain/payments/payment-methods";
import {
  formatFileSize,
  isImageProof,
  proofPath,
  type TopUpProof,
} from "~/domain/payments/top-up-proofs";
import {
  TOP_UP_STATE_LABELS,
  TOP_UP_STATE_TONES,
  type TopUpRequest,
} from "~/domain/payments/top-ups";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { formatCalendarDay, mediumDate } from "~/lib/intl-format";
import { PaidForm } from "./top-up-paid-form";
import { RequestForm } from "./top-up-request-form";
import { ApprovalTime } from "~/components/ui/approval-time";
import { Notice } from "~/components/ui/notice";
import { onlinePaymentPath } from "~/domain/payments/online-payments";

/** What a post to the page said: its message, the request's reference or a refusal's bounds. */
export type TopUpPageResult = Pick<ActionResult, "ok" | "message" | "fieldErrors"> & {
  params?: Record<string, string | number>;
  intent?: string;
  /** Refused until the address is confirmed: where to confirm it. */
  verifyEmailUrl?: string;
};

function amountOf(request: Pick<TopUpRequest, "total" | "currency">, locale: string) {
  return formatMethodAmount(request.total, request.currency, locale);
}

/** A request's state as a coloured badge: the same on the open request and in the past ones. */
function StateBadge({ state }: { state: TopUpRequest["state"] }) {
  const { t } = useTranslation("payments");
  return <Badge tone={TOP_UP_STATE_TONES[state]}>{t(TOP_UP_STATE_LABELS[state])}</Badge>;
}

/** The files attached to the open request: each opens (its owner may see it), with its size. */
function AttachedProofs({ proofs, locale }: { proofs: TopUpProof[]; locale: string }) {
  const { t } = useTranslation("payments");
  if (proofs.length === 0) return null;
  return (
    <section className="grid gap-2" aria-labelledby="top-up-attached">
      <h3 id="top-up-attached" className="font-semibold">
        {t("topUps.attached")}
      </h3>
      <ul className="grid gap-1 text-sm" data-proofs>
        {proofs.map((proof) => (
          <li key={proof.id} className="flex flex-wrap items-baseline gap-x-2">
            <a
              href={proofPath(proof.id)}
              // An image opens in a tab; a PDF is served as a download, never as a page of the site.
              {...(isImageProof(proof.contentType)
                ? { target: "_blank", rel: "noreferrer" }
                : { download: proof.fileName })}
              className="break-all text-primary underline-offset-4 hover:underline"
              dir="auto"
            >
              {proof.fileName}
            </a>
            <span className="text-muted-foreground">{formatFileSize(proof.byteSize, locale)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The knowledge base's step-by-step guide of the request's payment method. */
function GuideLink({ to }: { to: string }) {
  const { t } = useTranslation("knowledgebase");
  return (
    <Link to={to} className="w-fit text-sm text-primary underline underline-offset-4">
      {t("topUp.guide")}
    </Link>
  );
}

/** The open request: its reference, what to send where, its state, "I have paid" and Cancel. */
function CurrentRequest({
  request,
  proofs,
  instructions,
  guide,
  locale,
  result,
  today,
  approvalHours,
}: Pick<
  TopUpPageProps,
  "proofs" | "instructions" | "guide" | "locale" | "result" | "today" | "approvalHours"
> & {
  request: TopUpRequest;
}) {
  const { t } = useTranslation("payments");
  return (
    <TitledCard title={t("topUps.current")} contentClassName="grid gap-5">
      <dl className="grid gap-3 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-muted-foreground">{t("topUps.reference")}</dt>
          <dd className="font-mono text-2xl font-bold" dir="ltr" data-reference>
            {request.reference}
          </dd>
          <dd className="text-sm text-muted-foreground">{t("topUps.referenceHelp")}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">{t("topUps.toSend")}</dt>
          <dd className="text-2xl font-bold" dir="ltr" data-total>
            {amountOf(request, locale)}
          </dd>
          {request.fee > 0 ? (
            <dd className="text-sm text-muted-foreground" dir="ltr">
              {t("topUps.breakdown", {
                amount: formatMethodAmount(request.amount, request.currency, locale),
                fee: formatMethodAmount(request.fee, request.currency, locale),
              })}
            </dd>
          ) : null}
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">{t("topUps.coins")}</dt>
          <dd>{request.coins}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">{t("topUps.method")}</dt>
          <dd>{request.methodName}</dd>
        </div>
        <div>
          <dt className="text-sm text-muted-foreground">{t("topUps.state")}</dt>
          <dd>
            <StateBadge state={request.state} />
          </dd>
        </div>
      </dl>
      {instructions ? (
        <section className="grid gap-1" aria-labelledby="top-up-instructions">
          <h3 id="top-up-instructions" className="font-semibold">
            {t("topUps.instructions")}
          </h3>
          <p
            className="rounded-md bg-muted p-3 text-sm whitespace-pre-line wrap-anywhere"
            dir="auto"
          >
            {instructions}
          </p>
          {guide ? <GuideLink to={guide} /> : null}
        </section>
      ) : guide ? (
        <GuideLink to={guide} />
      ) : null}
      {request.state === "proof_sent" ? (
        <div className="grid gap-1">
          <p className="text-sm">
            {t("topUps.checking")}{" "}
            {request.payerAccount && request.paidOn
              ? t("topUps.paidFrom", {
                  account: request.payerAccount,
                  date: formatCalendarDay(request.paidOn, locale),
                })
              : null}
          </p>
          <ApprovalTime hours={approvalHours} />
        </div>
      ) : null}
      <AttachedProofs proofs={proofs} locale={locale} />
      <PaidForm request={request} proofs={proofs} result={result} today={today} />
      <div>
        <IntentButton intent="cancel" fields={{ requestId: request.id }} variant="outline">
          {t("topUps.cancel")}
        </IntentButton>
      </div>
    </TitledCard>
  );
}

function PastRequests({ requests, locale }: { requests: TopUpRequest[]; locale: string }) {
  const { t } = useTranslation("payments");
  const date = mediumDate(locale);
  const columns: Column<TopUpRequest>[] = [
    {
      id: "date",
      header: t("topUps.date"),
      label: t("topUps.date"),
      className: "md:whitespace-nowrap",
      cell: (request) => (
        <time dateTime={request.createdAt}>{date.format(new Date(request.createdAt))}</time>
      ),
    },
    {
      id: "reference",
      header: t("topUps.reference"),
      label: t("topUps.reference"),
      className: "font-mono",
      dir: "ltr",
      cell: (request) => request.reference,
    },
    {
      id: "coins",
      header: t("topUps.coins"),
      label: t("topUps.coins"),
      cell: (request) => (
        <>
          {request.coins} · {request.methodName}
          <span className="block text-xs text-muted-foreground" dir="ltr">
            {amountOf(request, locale)}
          </span>
        </>
      ),
    },
    {
      id: "state",
      header: t("topUps.state"),
      label: t("topUps.state"),
      wide: true,
      cell: (request) => (
        <>
          <StateBadge state={request.state} />
          {request.creditedCoins !== null ? (
            <span className="block text-xs">
              {t("topUps.creditedCoins", { coins: request.creditedCoins })}
            </span>
          ) : null}
          {request.rejectReason ? (
            <span className="block text-xs text-muted-foreground" dir="auto">
              {t("topUps.rejectedBecause", { reason: request.rejectReason })}
            </span>
          ) : null}
        </>
      ),
    },
  ];
  return (
    <TitledCard
      title={t("topUps.past")}
      empty={requests.length === 0 ? t("topUps.noPast") : undefined}
    >
      <DataTable caption={t("topUps.past")} columns={columns} rows={requests} rowKey={byId} />
    </TitledCard>
  );
}

/** What the page shows: the loader's data and what the last post answered. */
type TopUpPageProps = {
  current: TopUpRequest | null;
  /** An open request paid online (its payment's page tells where it stands), and its payment's id. */
  pending: TopUpRequest | null;
  pendingPaymentId: number | null;
  /** The open request's files. */
  proofs: TopUpProof[];
  instructions: string;
  /** The knowledge base's guide of the open request's method, when it has one. */
  guide?: string | null;
  past: TopUpRequest[];
  methods: OfferedPaymentMethod[];
  purchaseOpen: boolean;
  /** Whole coins an "Add coins" link said were missing (?coins=): the request form starts on them. */
  wantedCoins: number | null;
  /** The server's day (YYYY-MM-DD): when "I have paid" says the money went, at the latest. */
  today: string;
  locale: string;
  /** How long approving a top-up usually takes (the settings'), said once its payment is sent. */
  approvalHours: number;
  result?: TopUpPageResult;
};

/** /dashboard/top-up: buy coins with a payment method (docs/payments.md). */
export function TopUpPage(props: TopUpPageProps) {
  const { current, past, locale, result } = props;
  const { t } = useTranslation("payments");
  const message = useMessage();
  return (
    <main className="mx-auto grid w-full max-w-3xl min-w-0 gap-6 px-4 py-10">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <PageHeading title={t("topUps.title")} intro={t("topUps.intro")} />
        <Button asChild variant="outline" size="sm">
          <Link to="/dashboard/billing">{t("topUps.back")}</Link>
        </Button>
      </div>
      {result?.ok ? <ResultMessage result={result} values={result.params} /> : null}
      {/* A refusal no field holds (one open already, a request decided meanwhile) says so up here. */}
      {result && !result.ok && !result.fieldErrors ? (
        <ResultMessage result={result} values={result.params} />
      ) : null}
      {result?.verifyEmailUrl ? (
        <Button asChild size="sm" className="w-fit">
          <Link to={result.verifyEmailUrl}>{message("auth.verify.goConfirm")}</Link>
        </Button>
      ) : null}
      {props.pending && props.pendingPaymentId !== null ? (
        <Notice tone="info" data-testid="pending-checkout">
          {t("topUps.pendingCheckout", {
            reference: props.pending.reference,
            method: props.pending.methodName,
          })}{" "}
          <Link
            className="font-medium underline underline-offset-4"
            to={onlinePaymentPath(props.pendingPaymentId)}
          >
            {t("topUps.pendingCheckoutLink")}
          </Link>
        </Notice>
      ) : null}
      {current ? <CurrentRequest {...props} request={current} /> : <RequestForm {...props} />}
      <PastRequests requests={past} locale={locale} />
    </main>
  );
}
