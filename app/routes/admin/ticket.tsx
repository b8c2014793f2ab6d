import { useTranslation } from "~/i18n/use-translation";
import { data, Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import {
  adminTicketActionSchema,
  PRIORITIES,
  PRIORITY_LABELS,
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
} from "~/domain/tickets/tickets";
import {
  addCoinsFromTicket,
  getTicketForAdmin,
  setTicketField,
  staffReply,
} from "~/domain/tickets/tickets.server";
import { TicketThread } from "~/features/support/ticket-thread";
import { parseForm } from "~/http/form.server";
import { requireAdmin } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { formatCoins } from "~/lib/money";
import { messageKey } from "~/lib/message-key";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/ticket";
import { StatusMessage } from "~/components/ui/status-message";
import { requestContext } from "~/context.server";

export async function loader({ request, context: routerContext, params }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireAdmin(request, context);
  const found = await getTicketForAdmin(context.services.db, Number(params.id));
  if (!found) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "tickets");
  return {
    meta: { title: t("thread.title", { id: found.ticket.id }) },
    ...found,
    // A fresh key per view of the page: a replayed credit is made once (ADR 10).
    coinKey: crypto.randomUUID(),
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext, params }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const admin = requireAdmin(request, context);
  const form = await parseForm(request, adminTicketActionSchema);
  if (!form.ok)
    return data(
      {
        ok: false,
        message: Object.values(form.fieldErrors)[0] ?? "tickets.errors.messageRequired",
      },
      { status: 400 },
    );
  const db = context.services.db;
  const ticketId = Number(params.id);
  const input = form.data;
  let result;
  if (input.intent === "reply")
    result = await staffReply(db, { actorId: admin.id, ticketId, message: input.message });
  else if (input.intent === "status")
    result = await setTicketField(db, { actorId: admin.id, ticketId, status: input.status });
  else if (input.intent === "priority")
    result = await setTicketField(db, { actorId: admin.id, ticketId, priority: input.priority });
  else
    result = await addCoinsFromTicket(db, {
      actorId: admin.id,
      ticketId,
      amountCents: input.amount,
      note: input.reason,
      idempotencyKey: input.idempotencyKey,
    });
  if (!result.ok) return data({ ok: false, message: result.error }, { status: statusOf(result) });
  return { ok: true, message: result.message };
}

export default function AdminTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("tickets");
  const tr = t as (key: string) => string;
  const busy = useNavigation().state !== "idle";
  const { ticket, customer, messages, locale } = loaderData;
  const selectClass = "h-9 rounded-md border bg-background px-2 text-sm";
  return (
    <main className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      <section className="grid gap-4">
        <Link to="/admin/tickets" className="text-sm text-primary hover:underline">
          {t("admin.back")}
        </Link>
        <h1 className="text-2xl font-bold" dir="auto">
          #{ticket.id} {ticket.subject}
        </h1>
        {actionData ? (
          <StatusMessage ok={actionData.ok}>{tr(messageKey(actionData.message))}</StatusMessage>
        ) : null}
        <TicketThread messages={messages} locale={locale} viewer="staff" />
        <Form method="post" className="grid gap-2">
          <input type="hidden" name="intent" value="reply" />
          <Label htmlFor="reply">{t("admin.reply")}</Label>
          <textarea
            id="reply"
            name="message"
            required
            rows={5}
            maxLength={5000}
            dir="auto"
            className="w-full rounded-md border bg-background px-3 py-2"
          />
          <Button type="submit" disabled={busy} className="w-fit">
            {t("admin.send")}
          </Button>
        </Form>
      </section>
      <aside className="grid content-start gap-4">
        <div className="rounded-lg border bg-background p-4 text-sm">
          <p className="font-semibold">{customer.name}</p>
          <p className="text-muted-foreground" dir="ltr">
            {customer.email}
          </p>
          <p>{t("admin.balance", { amount: formatCoins(customer.coinBalanceCents, locale) })}</p>
        </div>
        <Form method="post" className="flex items-end gap-2 rounded-lg border bg-background p-4">
          <input type="hidden" name="intent" value="status" />
          <label className="grid flex-1 gap-1 text-sm">
            {t("admin.setStatus")}
            <select name="status" defaultValue={ticket.status} className={selectClass}>
              {TICKET_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(TICKET_STATUS_LABELS[s])}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            {t("admin.save")}
          </Button>
        </Form>
        <Form method="post" className="flex items-end gap-2 rounded-lg border bg-background p-4">
          <input type="hidden" name="intent" value="priority" />
          <label className="grid flex-1 gap-1 text-sm">
            {t("admin.setPriority")}
            <select name="priority" defaultValue={ticket.priority} className={selectClass}>
              {PRIORITIES.map((p) => (
                <option key={p} value={p}>
                  {t(PRIORITY_LABELS[p])}
                </option>
              ))}
            </select>
          </label>
          <Button type="submit" size="sm" variant="outline" disabled={busy}>
            {t("admin.save")}
          </Button>
        </Form>
        <Form method="post" className="grid gap-2 rounded-lg border bg-background p-4">
          <input type="hidden" name="intent" value="coins" />
          <input type="hidden" name="idempotencyKey" value={loaderData.coinKey} />
          <p className="font-semibold">{t("admin.addCoins", { name: customer.name })}</p>
          <Label htmlFor="coin-amount">{t("admin.amount")}</Label>
          <Input id="coin-amount" name="amount" inputMode="decimal" dir="ltr" required />
          <Label htmlFor="coin-note">{t("admin.note")}</Label>
          <Input id="coin-note" name="reason" maxLength={500} />
          <Button type="submit" size="sm" disabled={busy} className="w-fit">
            {t("admin.addCoinsButton")}
          </Button>
        </Form>
      </aside>
    </main>
  );
}
