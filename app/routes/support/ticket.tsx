import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import {
  CUSTOMER_TICKET_STATUS_LABELS,
  DEPARTMENT_LABELS,
  PRIORITY_LABELS,
  ticketTone,
} from "~/domain/tickets/tickets";
import { customerTicketActionSchema } from "~/domain/tickets/tickets.schemas";
import { customerTicketAction, getCustomerTicket } from "~/domain/tickets/tickets.server";
import { ReplyField, TicketThread } from "~/features/support/ticket-thread";
import { TicketFilesField } from "~/features/support/ticket-files-field";
import { redirectWithToast } from "~/http/form-answers.server";
import { inUploadTurn, parseFormWithFiles } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/ticket";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext, params }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const found = await getCustomerTicket(context.services.db, user.id, Number(params.id));
  // Another customer's ticket is simply not found.
  if (!found) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "tickets");
  return {
    meta: { title: t("thread.title", { id: found.ticket.id }) },
    ...found,
    opened: url.searchParams.has("opened"),
    // A fresh key per reply form shown: the same reply sent twice is stored once.
    replyKey: crypto.randomUUID(),
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext, params }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  // A reply with files waits for the process's other uploads (their images are decoded one at a time).
  return inUploadTurn(request, () => answer(request, context, user.id, Number(params.id)));
}

/** The action's work, once it is this post's turn. */
async function answer(
  request: Request,
  context: ReturnType<typeof requestContext>,
  userId: string,
  ticketId: number,
) {
  const form = await parseFormWithFiles(request, customerTicketActionSchema, "files");
  // A refused reply keeps what was typed, for the page shown without JavaScript.
  if (!form.ok)
    return data(
      {
        error: Object.values(form.fieldErrors)[0] ?? "tickets.errors.messageRequired",
        typed: form.values.message,
        count: undefined,
        params: undefined,
      },
      { status: 400 },
    );
  const typed = form.data.intent === "reply" ? form.data.message : undefined;
  const action = form.data.intent === "reply" ? { ...form.data, uploads: form.files } : form.data;
  const result = await customerTicketAction(context.services.db, { userId, ticketId, action });
  if (!result.ok) {
    if (result.kind === "notFound") throw data(null, { status: statusOf(result) });
    // Too many replies lately: how many minutes to wait, said in the message; a refused file: its
    // name and why (`params`).
    const count = "count" in result ? result.count : undefined;
    const params = "params" in result ? result.params : undefined;
    return data({ error: result.error, typed, count, params }, { status: statusOf(result) });
  }
  // After a reply, to the thread again with a toast: the box is empty (a new form, a new key), and a
  // reload does not post it again.
  if (form.data.intent === "reply")
    throw redirectWithToast(`/support/${ticketId}`, "toast.replySent");
  return { error: undefined, typed: undefined, count: undefined, params: undefined };
}

export default function TicketPage({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("tickets");
  const { t: tCommon } = useTranslation("common");
  const message = useMessage();
  const busy = useNavigation().state !== "idle";
  const { ticket, messages } = loaderData;
  const closed = ticket.status === "closed";
  const filesError =
    actionData?.error && actionData.params
      ? { message: actionData.error, params: actionData.params }
      : undefined;
  return (
    <main className="mx-auto grid max-w-3xl gap-6 px-4 py-10">
      <Link to="/dashboard/support" className="text-sm text-primary hover:underline">
        {t("thread.back")}
      </Link>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="min-w-0 text-2xl font-bold wrap-anywhere" dir="auto">
          #{ticket.id} {ticket.subject}
        </h1>
        <div className="flex gap-2">
          <Badge tone={ticketTone(ticket.status)}>
            {t(CUSTOMER_TICKET_STATUS_LABELS[ticket.status])}
          </Badge>
          <Badge>{tCommon(DEPARTMENT_LABELS[ticket.department])}</Badge>
          <Badge>{t(PRIORITY_LABELS[ticket.priority])}</Badge>
        </div>
      </div>
      {loaderData.opened ? (
        <p role="status" className="rounded-md bg-green-50 p-3 text-sm text-green-800">
          {t("thread.opened")}
        </p>
      ) : null}
      <TicketThread
        ticketId={ticket.id}
        messages={messages}
        locale={loaderData.locale}
        viewer="customer"
      />
      {closed ? <p className="text-sm text-muted-foreground">{t("thread.closedNote")}</p> : null}
      {/* Keyed on the thread's last message: once a reply is in the thread, the box is empty (its key
          new); a status change keeps what is being typed. */}
      <Form
        key={messages.at(-1)?.id ?? 0}
        method="post"
        encType="multipart/form-data"
        className="grid gap-3"
      >
        <input type="hidden" name="intent" value="reply" />
        <input type="hidden" name="idempotencyKey" value={loaderData.replyKey} />
        <ReplyField id="message" label={t("thread.reply")} defaultValue={actionData?.typed} />
        {/* A refused file is said under the files, by its name; anything else under the reply. */}
        <TicketFilesField id="reply-files" error={filesError} />
        {actionData?.error && !filesError ? (
          <p role="alert" className="text-sm text-destructive">
            {message(actionData.error, { count: actionData.count })}
          </p>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {t("thread.send")}
          </Button>
        </div>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value={closed ? "reopen" : "close"} />
        <Button type="submit" variant="outline" disabled={busy}>
          {closed ? t("thread.reopen") : t("thread.close")}
        </Button>
      </Form>
    </main>
  );
}
