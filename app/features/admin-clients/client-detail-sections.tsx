import type { ReactNode } from "react";
import { Link } from "~/components/ui/link";
import { byId, CellWithNote, timeColumn, type Column } from "~/components/data-table/data-table";
import { amountColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { ListTable } from "~/components/data-table/list-page";
import { EmailAddress } from "~/components/ui/email-address";
import type { Latest } from "~/domain/clients/clients";
import {
  DOCUMENT_KIND_LABELS,
  documentPath,
  documentStateLabel,
  type DocumentSummary,
} from "~/domain/invoices/invoices";
import {
  MAIL_KIND_LABELS,
  MAIL_STATE_LABELS,
  MAIL_STATE_TONES,
  type ClientMailView,
} from "~/domain/mail/mail";
import { formatMethodAmount } from "~/domain/payments/payment-methods";
import {
  TOP_UP_STATE_LABELS,
  TOP_UP_STATE_TONES,
  topUpQueuePath,
  type TopUpRequest,
} from "~/domain/payments/top-ups";
import { useTranslation } from "~/i18n/use-translation";
import { formatEuros } from "~/lib/money";

// Each section's catalogue keys (admin-clients namespace) written out, so the catalogue test sees them:
// its heading, the line when it is empty and, for a list kept elsewhere, the link to all of it.
const SECTION_WORDS = {
  services: { title: "services.title", empty: "services.empty", all: "services.all" },
  orders: { title: "orders.title", empty: "orders.empty" },
  tickets: { title: "tickets.title", empty: "tickets.empty" },
  invoices: { title: "invoices.title", empty: "invoices.empty", all: "invoices.all" },
  topUps: { title: "topUps.title", empty: "topUps.empty", all: "topUps.all" },
  mail: { title: "mail.title", empty: "mail.empty", all: "mail.all" },
  ledger: { title: "ledger.title", empty: "ledger.empty", all: "ledger.all" },
  audit: { title: "audit.title", empty: "audit.empty", all: "audit.all" },
} as const;

/** A section of the client page: its table, or the line saying there is nothing, and a way to the rest. */
export function Section<Row extends { id: number }>({
  id,
  list,
  columns,
  all,
}: {
  id: keyof typeof SECTION_WORDS;
  list: Latest<Row>;
  columns: Column<Row>[];
  /** Where the whole list is; the link to it shows while older rows exist. */
  all?: string;
}) {
  const { t } = useTranslation("admin-clients");
  const words = SECTION_WORDS[id];
  const title = t(words.title);
  const empty = t(words.empty);
  const more = all && "all" in words ? { to: all, label: t(words.all) } : undefined;
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="grid min-w-0 gap-3">
      <h2 id={`${id}-title`} className="text-xl font-semibold">
        {title}
      </h2>
      <ListTable table={{ caption: title, columns, rows: list.rows, rowKey: byId }} empty={empty} />
      {list.hasMore ? (
        <p className="text-sm text-muted-foreground">
          {t("newestOnly")}{" "}
          {more ? (
            <Link to={more.to} className="text-primary underline hover:no-underline">
              {more.label}
            </Link>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}

/** Where the client's whole lists of documents, top-ups and mail are: the admin lists, searched. */
export function recordLists(email: string) {
  const q = encodeURIComponent(email);
  return {
    invoices: `/admin/invoices?q=${q}`,
    topUps: topUpQueuePath(email),
    mail: `/admin/mail?to=${q}`,
  };
}

const LINK = "text-primary underline hover:no-underline";

/** The invoices section's columns: each document's number links to its page. */
export function useInvoiceColumns(locale: string, moment: Intl.DateTimeFormat) {
  const { t } = useTranslation("invoices");
  return [
    column("number", t("list.number"), (doc) => (
      <CellWithNote
        value={
          <Link to={documentPath(doc.number)} className={`font-mono ${LINK}`} dir="ltr">
            {doc.number}
          </Link>
        }
        note={t(DOCUMENT_KIND_LABELS[doc.kind])}
      />
    )),
    timeColumn({ id: "date", name: t("list.date"), at: (doc) => doc.issuedAt, format: moment }),
    amountColumn("total", t("list.total"), (doc) => formatEuros(doc.totalCents, locale)),
    badgeColumn(
      "state",
      t("list.state"),
      (doc) => ({
        tone: doc.state === "paid" ? "green" : "grey",
        text: t(documentStateLabel(doc.kind, doc.state)),
      }),
      { label: true },
    ),
  ] satisfies Column<DocumentSummary>[];
}

/** The top-ups section's columns: each reference links to the queue searched by it. */
export function useTopUpColumns(locale: string, moment: Intl.DateTimeFormat) {
  const { t } = useTranslation("payments");
  const { t: tClients } = useTranslation("admin-clients");
  return [
    column("request", t("topUps.admin.request"), (request) => (
      <Link
        to={topUpQueuePath(request.reference)}
        className={`font-mono ${LINK}`}
        dir="ltr"
        aria-label={tClients("topUps.open", { reference: request.reference })}
      >
        {request.reference}
      </Link>
    )),
    timeColumn({
      id: "asked",
      name: t("topUps.admin.askedOn"),
      at: (request) => request.createdAt,
      format: moment,
    }),
    column("amount", t("topUps.admin.amount"), (request) => (
      <CellWithNote
        value={
          <span className="font-mono" dir="ltr">
            {formatMethodAmount(request.total, request.currency, locale)}
          </span>
        }
        note={t("topUps.admin.coinsBy", { coins: request.coins, method: request.methodName })}
      />
    )),
    badgeColumn(
      "state",
      t("topUps.state"),
      (request) => ({
        tone: TOP_UP_STATE_TONES[request.state],
        text: t(TOP_UP_STATE_LABELS[request.state]),
      }),
      { label: true },
    ),
  ] satisfies Column<TopUpRequest>[];
}

/** The mail section's columns: each message opens in full on /admin/mail. */
export function useMailColumns(moment: Intl.DateTimeFormat, email: string) {
  const { t } = useTranslation("mail");
  const { t: tClients } = useTranslation("admin-clients");
  const list = recordLists(email).mail;
  return [
    timeColumn({ id: "queued", name: t("outbox.queued"), at: (m) => m.createdAt, format: moment }),
    column(
      "subject",
      t("outbox.subject"),
      (m) => {
        const kind = t(MAIL_KIND_LABELS[m.kind]);
        const subject = m.subject ?? kind;
        return (
          <CellWithNote
            value={
              <Link
                to={`${list}&open=${m.id}`}
                className={LINK}
                dir="auto"
                aria-label={tClients("mail.openFor", { subject })}
              >
                {subject}
              </Link>
            }
            note={m.subject === null ? t("outbox.pending") : kind}
          />
        );
      },
      { wide: true },
    ),
    // The card's whole width on a phone, so a long address breaks at its "@" rather than mid-name.
    column("to", t("outbox.to"), (m) => <EmailAddress email={m.to} />, { wide: true }),
    badgeColumn(
      "state",
      t("outbox.state"),
      (m) => ({ tone: MAIL_STATE_TONES[m.state], text: t(MAIL_STATE_LABELS[m.state]) }),
      { label: true },
    ),
  ] satisfies Column<ClientMailView>[];
}

/** A line of the profile: what it is, then its value. */
export function ProfileLine({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid min-w-0 gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="min-w-0 wrap-anywhere">{children}</dd>
    </div>
  );
}
