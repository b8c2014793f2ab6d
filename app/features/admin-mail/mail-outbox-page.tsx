import { Link } from "~/components/ui/link";
import { actionsColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { byId, timeColumn, type Column } from "~/components/data-table/data-table";
import { listFilters } from "~/components/data-table/filter-bar";
import { FilteredListPage } from "~/components/data-table/list-page";
import { pageHref } from "~/components/data-table/pager";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DetailList } from "~/components/ui/detail-list";
import { EmailAddress } from "~/components/ui/email-address";
import { choicesOf } from "~/components/ui/form-card";
import { OpenedPanel } from "~/components/ui/opened-panel";
import { Moment } from "~/components/ui/moment";
import {
  MAIL_KIND_LABELS,
  MAIL_STATE_LABELS,
  MAIL_STATE_TONES,
  MAIL_STATES,
  type MailListQuery,
  type OutboxMessageView,
} from "~/domain/mail/mail";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";

/** The list's address with its filter kept and another message opened (or none). */
function listHref(query: MailListQuery, changes: Partial<MailListQuery>) {
  const merged = { ...query, ...changes };
  return pageHref({ state: merged.state, to: merged.to }, merged.page, merged.open);
}

/** A header the server wrote (the message's id, the last error): small monospace, left to right. */
const CODE = { className: "min-w-0 font-mono text-xs wrap-anywhere", dir: "ltr" } as const;

/** One message in full: its headers, its state, its plain-text part (token links redacted). */
function OpenedMessage({
  message,
  query,
  date,
}: {
  message: OutboxMessageView;
  query: MailListQuery;
  date: Intl.DateTimeFormat;
}) {
  const { t } = useTranslation("mail");
  return (
    <OpenedPanel
      label={t("outbox.opened")}
      title={message.subject ?? t(MAIL_KIND_LABELS[message.kind])}
      titleId="opened-mail-subject"
      closeHref={listHref(query, { open: undefined })}
      closeLabel={t("outbox.close")}
      testId="opened-mail"
    >
      <DetailList
        className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4"
        details={[
          {
            term: t("outbox.to"),
            value: <EmailAddress email={message.to} />,
            className: "min-w-0",
          },
          {
            term: t("outbox.state"),
            value: (
              <Badge tone={MAIL_STATE_TONES[message.state]}>
                {t(MAIL_STATE_LABELS[message.state])}
              </Badge>
            ),
          },
          { term: t("outbox.kind"), value: t(MAIL_KIND_LABELS[message.kind]) },
          { term: t("outbox.language"), value: message.locale, dir: "ltr" },
          { term: t("outbox.queued"), value: <Moment at={message.createdAt} format={date} /> },
          message.sentAt
            ? { term: t("outbox.sentAt"), value: <Moment at={message.sentAt} format={date} /> }
            : null,
          message.messageId
            ? { term: t("outbox.messageId"), value: message.messageId, ...CODE }
            : null,
          { term: t("outbox.attempts"), value: message.attempts, dir: "ltr" },
          message.lastError
            ? { term: t("outbox.lastError"), value: message.lastError, ...CODE }
            : null,
        ]}
      />
      {message.text === null ? (
        <p className="text-sm text-muted-foreground">{t("outbox.notWritten")}</p>
      ) : (
        <section aria-labelledby="opened-mail-text" className="grid gap-2">
          <h3 id="opened-mail-text" className="text-sm font-medium">
            {t("outbox.textPart")}
          </h3>
          {/* Plain text: React escapes it; line breaks kept; the recipient's language and direction. */}
          <p
            className="rounded-md bg-muted p-3 text-sm whitespace-pre-wrap wrap-anywhere"
            lang={message.locale}
            dir={message.locale === "ar" ? "rtl" : "ltr"}
            data-testid="opened-mail-text"
          >
            {message.text}
          </p>
          <p className="text-xs text-muted-foreground">{t("outbox.redactedNote")}</p>
        </section>
      )}
    </OpenedPanel>
  );
}

/**
 * /admin/mail: the outbox, newest first, searched by recipient and filtered by state; a message opened in
 * full above the list.
 */
export function MailOutboxPage({
  messages,
  opened,
  hasMore,
  matching,
  query,
  locale,
  smtpServer,
}: {
  messages: OutboxMessageView[];
  opened: OutboxMessageView | null;
  hasMore: boolean;
  matching: number;
  query: MailListQuery;
  locale: string;
  /** The SMTP server (its password hidden), or null when messages are kept. */
  smtpServer: string | null;
}) {
  const { t } = useTranslation("mail");
  const { t: tAdmin } = useTranslation("admin");
  const date = mediumDateTime(locale);
  const filters = listFilters(query, "mail", [
    {
      kind: "search",
      name: "to",
      label: t("outbox.search"),
      placeholder: t("outbox.searchPlaceholder"),
      dir: "ltr",
      maxLength: 254,
    },
    {
      kind: "select",
      name: "state",
      label: t("outbox.state"),
      anyLabel: t("outbox.anyState"),
      options: choicesOf(MAIL_STATES, (state) => t(MAIL_STATE_LABELS[state])),
    },
  ]);
  const columns: Column<OutboxMessageView>[] = [
    timeColumn({ id: "queued", name: t("outbox.queued"), at: (m) => m.createdAt, format: date }),
    // The card's whole width on a phone, so a long address breaks at its "@" rather than mid-name.
    column("to", t("outbox.to"), (m) => <EmailAddress email={m.to} />, { wide: true }),
    column(
      "subject",
      t("outbox.subject"),
      (m) => (
        <span className="grid gap-0.5">
          <span dir="auto" className="wrap-anywhere">
            {m.subject ?? t("outbox.pending")}
          </span>
          <span className="text-xs text-muted-foreground">{t(MAIL_KIND_LABELS[m.kind])}</span>
        </span>
      ),
      { wide: true },
    ),
    badgeColumn(
      "state",
      t("outbox.state"),
      (m) => ({ tone: MAIL_STATE_TONES[m.state], text: t(MAIL_STATE_LABELS[m.state]) }),
      { label: true },
    ),
    actionsColumn(
      t("outbox.actions"),
      (m) => (
        <Button asChild size="sm" variant="outline">
          <Link
            to={listHref(query, { open: m.id })}
            aria-label={t("outbox.openFor", { to: m.to, subject: m.subject ?? "" })}
          >
            {t("outbox.open")}
          </Link>
        </Button>
      ),
      { hideName: true },
    ),
  ];
  return (
    <FilteredListPage
      heading={{
        title: tAdmin("nav.mail"),
        intro: t("outbox.intro"),
        children: (
          <p className="text-sm" data-testid="mail-transport">
            {smtpServer ? (
              <span dir="ltr">{t("outbox.configured", { server: smtpServer })}</span>
            ) : (
              t("outbox.notConfigured")
            )}
          </p>
        ),
      }}
      filters={filters}
      filterBar={{
        label: t("outbox.filter"),
        className: "sm:grid-cols-[minmax(0,1fr)_minmax(0,16rem)_auto] sm:items-end",
      }}
      table={{ columns, rows: messages, rowKey: byId }}
      empty={t("outbox.empty")}
      noMatch={t("outbox.noMatch")}
      matching={t("outbox.count", { count: matching })}
      hasMore={hasMore}
    >
      {opened ? <OpenedMessage message={opened} query={query} date={date} /> : null}
    </FilteredListPage>
  );
}
