import { byId, type Column } from "~/components/data-table/data-table";
import { actionsColumn, column } from "~/components/data-table/column-presets";
import { ListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import { CANNED_LOCALE_LABELS, CANNED_REPLY_LOCALES } from "~/domain/tickets/canned-replies";
import { DEPARTMENT_LABELS } from "~/domain/tickets/tickets";
import { useTranslation } from "~/i18n/use-translation";
import type { CannedReply, CannedReplyActionResult } from "./canned-replies-shared";
import { DeleteReplyDialog, MoveButton, ReplyEditorDialog } from "./canned-reply-dialogs";

/** The start of a reply's English text, under its title: enough to tell two replies apart. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

function useColumns(
  replies: readonly CannedReply[],
  result: CannedReplyActionResult | undefined,
): Column<CannedReply>[] {
  const { t } = useTranslation("admin-tickets");
  const { t: tCommon } = useTranslation("common");
  const busy = useBusy();
  return [
    actionsColumn(
      t("cannedReplies.columns.actions"),
      (reply) => {
        const index = replies.indexOf(reply);
        return (
          <div className="flex flex-wrap items-center gap-2">
            <ReplyEditorDialog reply={reply} result={result} />
            <MoveButton reply={reply} direction="up" disabled={busy || index <= 0} />
            <MoveButton
              reply={reply}
              direction="down"
              disabled={busy || index >= replies.length - 1}
            />
            <DeleteReplyDialog reply={reply} />
          </div>
        );
      },
      { wide: true },
    ),
    column(
      "title",
      t("cannedReplies.columns.title"),
      (reply) => (
        <>
          <p className="font-semibold" dir="auto" id={`canned-reply-${reply.id}`}>
            {reply.title}
          </p>
          <p className="user-text text-xs text-muted-foreground" dir="auto">
            {excerpt(reply.texts.en)}
          </p>
        </>
      ),
      { wide: true },
    ),
    column("department", t("cannedReplies.columns.department"), (reply) =>
      reply.department ? (
        <span>{tCommon(DEPARTMENT_LABELS[reply.department])}</span>
      ) : (
        <span className="text-muted-foreground">{t("cannedReplies.anyDepartment")}</span>
      ),
    ),
    column("languages", t("cannedReplies.columns.languages"), (reply) => (
      <span className="flex flex-wrap gap-1">
        {CANNED_REPLY_LOCALES.filter((locale) => reply.texts[locale].trim() !== "").map(
          (locale) => (
            <Badge key={locale}>{t(CANNED_LOCALE_LABELS[locale])}</Badge>
          ),
        )}
      </span>
    )),
    column("author", t("cannedReplies.columns.author"), (reply) =>
      reply.authorName ? (
        <bdi>{reply.authorName}</bdi>
      ) : (
        <span className="text-muted-foreground">{t("cannedReplies.seeded")}</span>
      ),
    ),
  ];
}

/**
 * /admin/tickets/replies (docs/self-service.md): the canned replies in the order the ticket pages offer
 * them, each with its department and the languages it is written in; add one, edit it in a dialog, move
 * it up or down, delete it. On a phone each reply is a card, its buttons first.
 */
export function CannedRepliesPage({
  replies,
  result,
}: {
  replies: CannedReply[];
  locale: string;
  result?: CannedReplyActionResult;
}) {
  const { t } = useTranslation("admin");
  const { t: tReplies } = useTranslation("admin-tickets");
  const columns = useColumns(replies, result);
  // A refused save is said in its dialog; anything else here, above the list.
  const saving = result?.intent === "create" || result?.intent === "update";
  const said = result && (result.ok || !saving) ? result : undefined;
  return (
    <ListPage
      header={
        <PageHeading
          title={t("nav.cannedReplies")}
          intro={tReplies("cannedReplies.intro")}
          parent={{ to: "/admin/tickets", label: tReplies("cannedReplies.backToTickets") }}
          action={<ReplyEditorDialog result={result} />}
        >
          <p className="text-sm text-muted-foreground">{tReplies("cannedReplies.placeholders")}</p>
          <p className="text-sm text-muted-foreground">
            {tReplies("cannedReplies.count", { count: replies.length })}
          </p>
        </PageHeading>
      }
      table={{ caption: t("nav.cannedReplies"), columns, rows: replies, rowKey: byId }}
      empty={tReplies("cannedReplies.empty")}
    >
      {said ? <ResultMessage result={said} values={{ title: said.title ?? "" }} /> : null}
    </ListPage>
  );
}
