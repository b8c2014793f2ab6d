import { MailIcon, MailOpenIcon, ReplyIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { FilterBar, listFilters } from "~/components/data-table/filter-bar";
import { pageHref, Pager } from "~/components/data-table/pager";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { OpenedPanel } from "~/components/ui/opened-panel";
import { ClientLink } from "~/components/ui/client-link";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import {
  CONTACT_FILTER_LABELS,
  CONTACT_FILTERS,
  replyHref,
  type ContactListQuery,
} from "~/domain/inbox/inbox";
import { cn } from "~/lib/utils";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { choicesOf } from "~/components/ui/form-card";
import { mediumDateTime } from "~/lib/intl-format";
import type { ContactMessageView as ContactMessageRow } from "~/domain/inbox/inbox";
import { PageHeading } from "~/components/ui/page-heading";
import { DetailList } from "~/components/ui/detail-list";
import { Moment } from "~/components/ui/moment";

export type ContactActionResult = Pick<ActionResult, "ok" | "message">;

/** What both inbox lists are given: a page of rows and how many match, the filters, the last result. */
export interface InboxListProps<Query> {
  hasMore: boolean;
  matching: number;
  total: number;
  query: Query;
  locale: string;
  result?: ContactActionResult;
}

/** The inbox pages' words (their own and the admin area's) and how they write a date and time. */
export function useInboxWords(locale: string) {
  const { t } = useTranslation("admin-inbox");
  const { t: tAdmin } = useTranslation("admin");
  const date = mediumDateTime(locale);
  return { t, tAdmin, date };
}

/**
 * The inbox's address with some of its filters changed (an empty value drops the parameter, and so does
 * `show=all`, the inbox unfiltered): its links, and where opening a message goes back to (the route).
 */
export function contactListHref(query: ContactListQuery, changes: Partial<ContactListQuery>) {
  const merged = { ...query, ...changes };
  const show = merged.show === "all" ? undefined : merged.show;
  return pageHref({ q: merged.q, show }, merged.page, merged.open);
}

/** Marks a message read, or unread again. */
function ReadToggle({ message }: { message: ContactMessageRow }) {
  const { t } = useTranslation("admin-inbox");
  const read = message.readAt !== null;
  return (
    <IntentButton intent={read ? "unread" : "read"} fields={{ id: message.id }} variant="outline">
      {read ? t("contact.markUnread") : t("contact.markRead")}
    </IntentButton>
  );
}

function DeleteMessage({ message }: { message: ContactMessageRow }) {
  const { t } = useTranslation("admin-inbox");
  return (
    <ConfirmDialog
      fields={{ intent: "delete", id: String(message.id) }}
      labels={{
        trigger: t("contact.delete"),
        triggerFor: t("contact.deleteFor", { subject: message.subject }),
        title: t("contact.deleteTitle"),
        text: t("contact.deleteText", { subject: message.subject, email: message.email }),
        confirm: t("contact.deleteConfirm"),
        cancel: t("contact.cancel"),
        close: t("contact.dialogClose"),
      }}
      textClassName="wrap-anywhere"
    />
  );
}

/**
 * Who wrote: the name as typed (any direction), a link to their client page when an account has the
 * address, and the address (left to right).
 */
function Sender({ message }: { message: ContactMessageRow }) {
  return (
    <span className="min-w-0 wrap-anywhere">
      {message.userId ? (
        <ClientLink userId={message.userId}>
          <bdi>{message.name}</bdi>
        </ClientLink>
      ) : (
        <bdi className="font-medium">{message.name}</bdi>
      )}{" "}
      <span className="text-muted-foreground" dir="ltr">
        &lt;{message.email}&gt;
      </span>
    </span>
  );
}

function OpenedMessage({
  message,
  query,
  date,
}: {
  message: ContactMessageRow;
  query: ContactListQuery;
  date: Intl.DateTimeFormat;
}) {
  const { t } = useTranslation("admin-inbox");
  return (
    <OpenedPanel
      label={t("contact.opened")}
      title={message.subject}
      titleId="opened-subject"
      closeHref={contactListHref(query, { open: undefined })}
      closeLabel={t("contact.close")}
      testId="opened-message"
    >
      <DetailList
        className="grid gap-1 text-sm sm:grid-cols-[auto_1fr] sm:gap-x-4"
        details={[
          { term: t("contact.from"), value: <Sender message={message} />, className: "min-w-0" },
          { term: t("contact.received"), value: <Moment at={message.createdAt} format={date} /> },
        ]}
      />
      {/* Plain text as typed: React escapes it; line breaks kept; long words wrap. */}
      <p
        className="rounded-md bg-muted p-3 text-sm whitespace-pre-wrap wrap-anywhere"
        dir="auto"
        data-testid="opened-text"
      >
        {message.message}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button asChild size="sm">
          <a href={replyHref(message.email, message.subject)}>
            <ReplyIcon aria-hidden className="rtl:rotate-180" />
            {t("contact.reply")}
          </a>
        </Button>
        <ReadToggle message={message} />
        <DeleteMessage message={message} />
      </div>
    </OpenedPanel>
  );
}

export function ContactMessagesPage({
  messages,
  opened,
  hasMore,
  matching,
  total,
  unread,
  query,
  locale,
  result,
}: InboxListProps<ContactListQuery> & {
  messages: ContactMessageRow[];
  opened: ContactMessageRow | null;
  unread: number;
}) {
  const { t, tAdmin, date } = useInboxWords(locale);
  const filters = listFilters(query, "contact", [
    {
      kind: "search",
      name: "q",
      label: t("contact.search"),
      dir: "auto",
      placeholder: t("contact.searchPlaceholder"),
    },
    {
      kind: "select",
      name: "show",
      label: t("contact.show"),
      options: choicesOf(CONTACT_FILTERS, (filter) => t(CONTACT_FILTER_LABELS[filter])),
      anyValue: "all",
    },
  ]);
  const { filtered } = filters;
  return (
    <main className="grid min-w-0 gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <PageHeading title={tAdmin("nav.contactMessages")} intro={t("contact.intro")} />
        <p className="flex flex-wrap gap-2 text-sm">
          <Badge tone={unread > 0 ? "blue" : "grey"} data-testid="unread-count">
            {t("contact.unread", { count: unread })}
          </Badge>
          <span className="text-muted-foreground">{t("contact.count", { count: total })}</span>
        </p>
      </div>

      <FilterBar
        filters={filters}
        label={t("contact.search")}
        className="sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_auto] sm:items-end"
      />

      {result ? <ResultMessage result={result} /> : null}

      {opened ? <OpenedMessage message={opened} query={query} date={date} /> : null}

      {filtered ? (
        <p className="text-sm text-muted-foreground">
          {t("contact.matching", { count: matching })}
        </p>
      ) : null}

      {messages.length === 0 ? (
        <p className="text-muted-foreground">{t(filtered ? "contact.noMatch" : "contact.empty")}</p>
      ) : (
        <ul className="grid gap-3" aria-label={tAdmin("nav.contactMessages")}>
          {messages.map((message) => {
            const isUnread = message.readAt === null;
            return (
              <li
                key={message.id}
                className={cn(
                  "grid min-w-0 gap-2 rounded-lg border bg-background p-3",
                  isUnread && "border-s-4 border-s-primary",
                  opened?.id === message.id && "ring-2 ring-primary/40",
                )}
                data-unread={isUnread ? "true" : "false"}
              >
                <div className="flex items-center gap-2">
                  {isUnread ? (
                    <Badge tone="blue">
                      <MailIcon aria-hidden className="me-1 size-3" />
                      {t("contact.unreadBadge")}
                    </Badge>
                  ) : (
                    <MailOpenIcon aria-hidden className="size-4 text-muted-foreground" />
                  )}
                  <time
                    dateTime={message.createdAt}
                    className="ms-auto text-xs whitespace-nowrap text-muted-foreground"
                  >
                    {date.format(new Date(message.createdAt))}
                  </time>
                </div>
                <p className={cn("wrap-anywhere", isUnread && "font-semibold")} dir="auto">
                  {message.subject}
                </p>
                <p className="text-sm">
                  <Sender message={message} />
                </p>
                <p
                  className="line-clamp-2 text-sm whitespace-pre-wrap wrap-anywhere text-muted-foreground"
                  dir="auto"
                >
                  {message.message}
                </p>
                <div className="flex flex-wrap gap-2">
                  <IntentButton
                    intent="open"
                    fields={{ id: message.id }}
                    variant="default"
                    accessibleName={t("contact.openFor", { subject: message.subject })}
                  >
                    {t("contact.open")}
                  </IntentButton>
                  <ReadToggle message={message} />
                  <DeleteMessage message={message} />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      <Pager
        page={query.page}
        hasMore={hasMore}
        href={(page) => contactListHref(query, { page, open: undefined })}
      />
    </main>
  );
}
