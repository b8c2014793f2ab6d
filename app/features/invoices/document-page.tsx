import { useNavigation } from "react-router";
import { formResultProps } from "~/components/ui/form-result";
import { Link } from "~/components/ui/link";
import { DataTable } from "~/components/data-table/data-table";
import { Badge } from "~/components/ui/badge";
import { DownloadLink } from "~/components/ui/page-heading";
import { FormCard, FormFields, choicesOf } from "~/components/ui/form-card";
import type { ActionResult } from "~/components/ui/result-message";
import {
  documentPdfPath,
  documentView,
  documentViewTools,
  REFUND_METHOD_LABELS,
  REFUND_METHODS,
  REFUND_REASON_MAX,
  type InvoiceDocument,
  type TermTakenBack,
} from "~/domain/invoices/invoices";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { formatEuros } from "~/lib/money";
import { PaymentDetails } from "./document-payment";
import { stateTone } from "./invoice-list";

/** What the refund form answers: the credit note's number once it is issued. */
export interface RefundResult extends ActionResult {
  creditNote?: string;
  /** A renewal's term taken back: the service, the expiry it runs to now, and what else changed. */
  termTakenBack?: TermTakenBack;
  /** Its term kept, the automatic renewal was switched off. */
  autoRenewStopped?: boolean;
}

/**
 * A document as a page: an invoice, a receipt or a credit note, in the reader's language,
 * from the same view a PDF is made from (`documentView`). Admins also get the refund form of a paid
 * invoice.
 */
export function DocumentPage({
  document,
  locale,
  admin,
  mayRefund,
  result,
}: {
  document: InvoiceDocument;
  locale: string;
  /** The reader is a member of the staff who reads invoices: the way back leads to /admin/invoices. */
  admin: boolean;
  /** Their role may refund: a paid invoice shows the refund form. */
  mayRefund: boolean;
  result?: RefundResult;
}) {
  const { t } = useTranslation("invoices");
  const { t: tOrders } = useTranslation("orders");
  const tools = documentViewTools({
    t: (key, values) => t(key, values),
    tOrders: (key) => tOrders(key),
    locale,
  });
  const view = documentView(document, tools);
  const rows = view.lines.map((line, index) => ({ ...line, index }));
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link
          to={admin ? "/admin/invoices" : "/dashboard/billing"}
          className="w-fit text-sm text-primary hover:underline"
        >
          {admin ? t("document.backAdmin") : t("document.back")}
        </Link>
        <DownloadLink href={documentPdfPath(document.number)}>
          {t("document.download")}
        </DownloadLink>
      </div>
      <article
        aria-labelledby="document-title"
        className="grid gap-6 rounded-lg border bg-background p-6"
        data-testid="document"
      >
        <header className="flex flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1">
            <h1 id="document-title" className="text-2xl font-bold">
              {view.title}{" "}
              {/* Whole on a phone too: a browser would break the number after a hyphen. */}
              <span className="font-mono whitespace-nowrap" dir="ltr">
                {view.number}
              </span>
            </h1>
            <p className="text-sm text-muted-foreground">{view.issued}</p>
            {view.notes.map((note) => (
              <p key={note} className="text-sm" dir="auto">
                {note}
              </p>
            ))}
          </div>
          <Badge tone={stateTone(document.state)}>{view.state}</Badge>
        </header>
        <div className="grid gap-4 sm:grid-cols-2">
          {[view.seller, view.buyer].map((party) => (
            <section key={party.heading} className="grid content-start gap-1 text-sm">
              <h2 className="text-xs font-semibold text-muted-foreground uppercase">
                {party.heading}
              </h2>
              <address className="grid not-italic">
                {party.lines.map((line, index) => (
                  <span key={index} dir="auto" className="wrap-anywhere">
                    {line}
                  </span>
                ))}
              </address>
            </section>
          ))}
        </div>
        {view.payment ? <PaymentDetails payment={view.payment} /> : null}
        <DataTable
          caption={t("document.lines")}
          rows={rows}
          rowKey={(line) => line.index}
          columns={[
            {
              id: "description",
              header: view.columns.description,
              label: view.columns.description,
              wide: true,
              cell: (line) => <span dir="auto">{line.description}</span>,
            },
            {
              id: "quantity",
              header: view.columns.quantity,
              label: view.columns.quantity,
              className: "font-mono md:text-end",
              headerClassName: "md:text-end",
              cell: (line) => line.quantity,
            },
            {
              id: "unit",
              header: view.columns.unit,
              label: view.columns.unit,
              className: "font-mono md:text-end md:whitespace-nowrap",
              headerClassName: "md:text-end",
              dir: "ltr",
              cell: (line) => line.unit,
            },
            {
              id: "total",
              header: view.columns.total,
              label: view.columns.total,
              className: "font-mono md:text-end md:whitespace-nowrap",
              headerClassName: "md:text-end",
              dir: "ltr",
              cell: (line) => line.total,
            },
          ]}
        />
        <dl
          aria-label={t("document.totals")}
          className="ms-auto grid w-full max-w-xs gap-1 text-sm"
        >
          {view.totals.map((row) => (
            <div
              key={row.label}
              className={
                row.strong
                  ? "flex justify-between gap-4 border-t pt-2 text-base font-bold"
                  : "flex justify-between gap-4"
              }
            >
              <dt>{row.label}</dt>
              <dd
                className="font-mono"
                dir="ltr"
                data-testid={row.strong ? "document-total" : undefined}
              >
                {row.amount}
              </dd>
            </div>
          ))}
        </dl>
        {view.footer.length > 0 ? (
          <footer className="grid gap-1 border-t pt-4 text-xs text-muted-foreground">
            {view.footer.map((line) => (
              <p key={line}>{line}</p>
            ))}
          </footer>
        ) : null}
      </article>
      {mayRefund && document.kind === "invoice" && document.state === "paid" ? (
        <RefundCard result={result} document={document} date={tools.date} locale={locale} />
      ) : mayRefund && result?.ok ? (
        <RefundCard result={result} date={tools.date} done />
      ) : null}
    </main>
  );
}

/** The admin's refund of a paid invoice: how the money went back and why (recordRefund). */
function RefundCard({
  result,
  document,
  date,
  locale = "en",
  done = false,
}: {
  result?: RefundResult;
  /** The paid invoice (its renewal's term or its order's service), unless just refunded. */
  document?: InvoiceDocument;
  date?: (iso: string) => string;
  locale?: string;
  /** Just refunded: only the outcome is left to show. */
  done?: boolean;
}) {
  const { t } = useTranslation("invoices");
  const message = useMessage();
  const navigation = useNavigation();
  const refused = result && !result.ok ? result : undefined;
  // What was done: the credit note, and a renewal's term taken back.
  const outcome = result
    ? [
        message(result.message, { number: result.creditNote }),
        ...(result.termTakenBack && date
          ? [
              t(
                result.termTakenBack.suspended
                  ? "refund.termTakenBackSuspended"
                  : "refund.termTakenBack",
                {
                  service: result.termTakenBack.service,
                  date: date(result.termTakenBack.expiresAt),
                },
              ),
              result.termTakenBack.autoRenewOff ? t("refund.autoRenewOff") : "",
            ]
          : []),
        result.autoRenewStopped ? t("refund.autoRenewOff") : "",
      ]
        .filter(Boolean)
        .join(" ")
    : "";
  if (done && result)
    return (
      <p
        role="status"
        {...formResultProps}
        className="rounded-md bg-green-50 p-3 text-sm text-green-800"
      >
        {outcome}
      </p>
    );
  return (
    <FormCard
      id="refund"
      title={t("refund.title")}
      description={t("refund.intro")}
      busy={navigation.state !== "idle" && navigation.formData?.get("intent") === "refund"}
      status={result ? { ok: result.ok, text: outcome } : null}
      submit={{ label: t("refund.submit"), busyLabel: t("refund.submitting") }}
    >
      <FormFields
        idPrefix="refund"
        fields={[
          {
            kind: "select",
            variant: "form",
            name: "method",
            label: t("refund.method"),
            options: choicesOf(REFUND_METHODS, (method) => t(REFUND_METHOD_LABELS[method])),
          },
          {
            kind: "textarea",
            variant: "validated",
            rows: 3,
            name: "reason",
            label: t("refund.reason"),
            hint: t("refund.reasonHint"),
            maxLength: REFUND_REASON_MAX,
            dir: "auto",
          },
        ]}
        values={refused?.values ?? {}}
        errors={refused?.fieldErrors ?? {}}
      />
      {document?.creditedSoFarCents ? (
        <p className="text-sm text-muted-foreground">
          {t("refund.partlyCredited", {
            credited: formatEuros(document.creditedSoFarCents, locale),
            left: formatEuros(document.totalCents - document.creditedSoFarCents, locale),
          })}
        </p>
      ) : null}
      {document && date ? (
        <RefundServiceEffect document={document} date={date} sent={refused?.values} />
      ) : null}
    </FormCard>
  );
}

/**
 * What the refund does to the service the invoice paid for: a renewal's term may be taken back (a box,
 * ticked unless the admin unticked it before a refusal), or why it cannot be; an order's service stays
 * as it is (terminating a server is a step of its own, on its page).
 */
function RefundServiceEffect({
  document,
  date,
  sent,
}: {
  document: InvoiceDocument;
  date: (iso: string) => string;
  /** What a refused form sent: the box stays as the admin left it. */
  sent?: Readonly<Record<string, string | undefined>>;
}) {
  const { t } = useTranslation("invoices");
  const choice = document.renewalRefund;
  const serviceLink = (serviceId: number) => (
    <Link
      to={`/admin/services?edit=${serviceId}`}
      className="text-primary underline hover:no-underline"
    >
      {t("refund.servicesLink")}
    </Link>
  );
  if (choice?.canTakeBack) {
    // "Runs until" the expiry restored, which is the term's start unless the service had expired.
    const dates = {
      service: choice.service,
      from: date(choice.restoresExpiry),
      until: date(choice.until),
    };
    return (
      <FormFields
        idPrefix="refund"
        fields={[
          {
            kind: "switch",
            name: "takeBackTerm",
            label: t("refund.takeBack"),
            hint: choice.suspendsAgain
              ? t("refund.takeBackHintSuspends", dates)
              : t("refund.takeBackHint", dates),
          },
          // Left on, the lifecycle renews it again once that date is due: what a customer who renewed
          // twice by mistake wants, not one refunded for a renewal they did not ask for.
          ...(choice.autoRenew
            ? [
                {
                  kind: "switch",
                  name: "stopAutoRenew",
                  label: t("refund.stopAutoRenew"),
                  // Suspended again, it renews by itself only once the customer has renewed it.
                  hint: choice.suspendsAgain
                    ? t("refund.stopAutoRenewHintSuspended", dates)
                    : choice.renewsAtNextRun
                      ? t("refund.stopAutoRenewHintDue", dates)
                      : choice.automatic
                        ? t("refund.stopAutoRenewHintAutomatic", dates)
                        : t("refund.stopAutoRenewHintCustomer", dates),
                } as const,
              ]
            : []),
        ]}
        checked={{
          takeBackTerm: sent ? sent.takeBackTerm === "on" : true,
          stopAutoRenew: sent ? sent.stopAutoRenew === "on" : choice.stopAutoRenewByDefault,
        }}
      />
    );
  }
  const ordered = document.orderService;
  const note = choice
    ? choice.expiresAt === null
      ? t("refund.serviceGone")
      : choice.status === "terminated"
        ? t("refund.serviceTerminated", { service: choice.service })
        : t("refund.termMoved", { service: choice.service, expiresAt: date(choice.expiresAt) })
    : document.orderId === null || ordered === undefined
      ? null
      : ordered === null
        ? t("refund.orderServiceGone")
        : ordered.status === "terminated"
          ? t("refund.serviceTerminated", { service: ordered.name })
          : t("refund.orderNote");
  if (!note) return null;
  const serviceId = choice
    ? choice.expiresAt === null
      ? null
      : choice.serviceId
    : (ordered?.id ?? null);
  return (
    <p className="text-sm text-muted-foreground" data-testid="refund-service-note">
      {note} {serviceId !== null ? serviceLink(serviceId) : null}
    </p>
  );
}
