import { useTranslation } from "~/i18n/use-translation";
import { Badge } from "~/components/ui/badge";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import { BidiText } from "~/components/ui/bidi-text";
import { cn } from "~/lib/utils";
import { mediumDateTime } from "~/lib/intl-format";
import type { TicketMessage as Message } from "~/domain/tickets/tickets";
import { TicketFileList } from "./ticket-file-list";

/**
 * The thread, oldest first, newest last, each message with its files. Bodies are plain text: React escapes
 * them, nothing typed runs. The staff's internal notes (only the staff's thread has any) are marked so.
 */
export function TicketThread({
  ticketId,
  messages,
  locale,
  viewer,
}: {
  ticketId: number;
  messages: Message[];
  locale: string;
  viewer: "customer" | "staff";
}) {
  const { t } = useTranslation("tickets");
  const date = mediumDateTime(locale);
  return (
    <ol className="grid gap-3">
      {messages.map((message) => {
        const mine = viewer === "staff" ? message.isStaff : !message.isStaff;
        const author = message.isStaff
          ? viewer === "staff"
            ? message.authorName
            : t("thread.staff")
          : viewer === "customer"
            ? t("thread.you")
            : message.authorName;
        return (
          <li
            key={message.id}
            className={cn(
              "rounded-lg border p-4",
              message.internal
                ? "ms-8 border-dashed border-amber-400 bg-amber-50"
                : mine
                  ? "ms-8 bg-blue-50"
                  : "me-8 bg-background",
            )}
            data-internal={message.internal ? "" : undefined}
          >
            <p className="mb-2 text-xs text-muted-foreground">
              {message.internal ? (
                <Badge tone="yellow" className="me-2">
                  {t("notes.badge")}
                </Badge>
              ) : null}
              <span className="font-semibold text-foreground">{author}</span> ·{" "}
              {date.format(new Date(message.createdAt))}
            </p>
            <p className="user-text text-sm whitespace-pre-wrap" dir="auto">
              <BidiText text={message.body} />
            </p>
            <TicketFileList ticketId={ticketId} files={message.files} locale={locale} />
          </li>
        );
      })}
    </ol>
  );
}

/** The box under a thread for the next message, the customer's or the staff's: its label and text. */
export function ReplyField({
  id,
  label,
  defaultValue,
}: {
  id: string;
  label: string;
  /** What was typed, when the page comes back with the reply refused. */
  defaultValue?: string;
}) {
  return (
    <>
      <Label htmlFor={id}>{label}</Label>
      <Textarea
        id={id}
        name="message"
        defaultValue={defaultValue}
        required
        rows={5}
        maxLength={5000}
        dir="auto"
        variant="plain"
      />
    </>
  );
}
