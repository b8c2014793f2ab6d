import { useTranslation } from "~/i18n/use-translation";
import { useState } from "react";
import { data, Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { Label } from "~/components/ui/label";
import { ResultMessage } from "~/components/ui/result-message";
import { Select } from "~/components/ui/select";
import { Badge } from "~/components/ui/badge";
import {
  DEPARTMENT_LABELS,
  PRIORITIES,
  PRIORITY_LABELS,
  TICKET_CREDIT_KINDS,
  TICKET_CREDIT_LABELS,
  TICKET_STATUS_LABELS,
  TICKET_STATUSES,
  ticketTone,
} from "~/domain/tickets/tickets";
import { adminTicketActionSchema } from "~/domain/tickets/tickets.schemas";
import { addCoinsFromTicket, setTicketField, staffReply } from "~/domain/tickets/tickets.server";
import { getTicketWithClient } from "~/domain/clients/clients.server";
import { ClientLink } from "~/components/ui/client-link";
import { ClientSummaryPanel } from "~/features/admin-clients/client-detail-summary";
import { TicketThread } from "~/features/support/ticket-thread";
import { CannedReplyPicker } from "~/features/admin-canned-replies/canned-reply-picker";
import { cannedReplyPicker } from "~/domain/tickets/canned-replies.server";
import { TicketFilesField, TICKET_FILES_FIELD } from "~/features/support/ticket-files-field";
import { StaffReplyForm } from "~/features/admin-tickets/staff-reply-form";
import { addInternalNote } from "~/domain/tickets/ticket-notes.server";
import { inUploadTurn } from "~/http/form.server";
import { statusOf } from "~/http/result-status";
import { requirePermission } from "~/http/guards.server";
import { formatCoins } from "~/lib/money";
import { adminForm, refusal } from "~/http/route-request.server";
import { proofIsFresh, readProofPost, requireFreshProof } from "~/http/fresh-proof.server";
import { coinChangeNeedsProof } from "~/domain/staff/fresh-proof";
import { FreshProofField, proofAnswerOf } from "~/components/ui/fresh-proof-field";
import { parseCoinAmount } from "~/domain/coins/coins";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/ticket";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext, params }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requirePermission(url, context, "tickets.reply");
  const found = await getTicketWithClient(context.services.db, Number(params.id));
  if (!found) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "tickets");
  return {
    meta: { title: t("thread.title", { id: found.ticket.id }) },
    ...found,
    // A fresh key per view of the page: a replayed credit is made once (ADR 10), a replayed reply is
    // stored once. The reply form is keyed on the thread's last message and the coin form on
    // its key, so after it worked each comes back empty.
    coinKey: crypto.randomUUID(),
    replyKey: crypto.randomUUID(),
    // Goodwill coins above the threshold ask for the password or a code first while this is false.
    proofFresh: proofIsFresh(context),
    coinProofThreshold: context.settings.security.freshProofCoinThreshold,
    locale: context.locale,
    // The moment the sidebar's service expiries are read against, on the server and when hydrating.
    now: new Date().toISOString(),
    // The reply form's canned replies, in the customer's language.
    canned: await cannedReplyPicker(context.services.db, {
      ticketId: found.ticket.id,
      siteLocale: context.settings.general.defaultLocale,
    }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext, params }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  // A reply with files waits for the process's other uploads (their images are decoded one at a time).
  return inUploadTurn(request, () => answer(request, url, context, Number(params.id)));
}

/** The action's work, once it is this post's turn. */
async function answer(
  request: Request,
  url: URL,
  context: ReturnType<typeof requestContext>,
  ticketId: number,
) {
  // Read as typed before the form is: coins above the threshold may carry a proof of identity. The
  // reply's post (multipart, with files) carries none, and is not copied to look.
  const multipart = /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "");
  const typed = multipart ? { proof: null, values: {} } : await readProofPost(request);
  const { admin, form, files } = await adminForm(
    request,
    url,
    context,
    adminTicketActionSchema,
    { "*": "tickets.reply", coins: "coins.adjust" },
    TICKET_FILES_FIELD,
  );
  // Every form here is on the ticket's page: its goodwill coins need tickets.reply as well as the coin
  // permission (checked once the post's own permission has been).
  requirePermission(url, context, "tickets.reply");
  if (!form.ok) {
    // Said beside the form it came from; a refused reply keeps what was typed.
    const intent = form.values.intent;
    return data(
      {
        ok: false as const,
        intent,
        message: Object.values(form.fieldErrors)[0] ?? "tickets.errors.messageRequired",
        typed: intent === "reply" ? form.values.message : undefined,
        internal: form.values.internal === "on",
      },
      { status: 400 },
    );
  }
  const db = context.services.db;
  const input = form.data;
  const intent = input.intent;
  if (input.intent === "insertCanned") {
    // Without scripts: the page again, the chosen reply after what the box held; nothing is sent.
    const picker = await cannedReplyPicker(db, {
      ticketId,
      siteLocale: context.settings.general.defaultLocale,
      insert: { canned: input.canned, message: input.message },
    });
    return {
      ok: true as const,
      intent,
      message: "admin-tickets.cannedReplies.picker.inserted" as const,
      typed: picker.draft,
      internal: input.internal,
    };
  }
  let result;
  if (input.intent === "reply") {
    const post = {
      actorId: admin.id,
      ticketId,
      message: input.message,
      idempotencyKey: input.idempotencyKey,
      uploads: files,
    };
    result = input.internal ? await addInternalNote(db, post) : await staffReply(db, post);
  } else if (input.intent === "status")
    result = await setTicketField(db, { actorId: admin.id, ticketId, status: input.status });
  else if (input.intent === "priority")
    result = await setTicketField(db, { actorId: admin.id, ticketId, priority: input.priority });
  else {
    const threshold = context.settings.security.freshProofCoinThreshold;
    if (coinChangeNeedsProof(input.amount, threshold)) {
      const unproven = await requireFreshProof({
        context,
        post: typed,
        refused: (proof) => ({
          ok: false as const,
          intent,
          ...proof,
          typed: undefined,
          internal: undefined,
          values: {
            amount: typed.values.amount ?? "",
            reason: typed.values.reason ?? "",
            creditAs: typed.values.creditAs ?? "",
          },
        }),
      });
      if (unproven) return unproven;
    }
    result = await addCoinsFromTicket(db, {
      actorId: admin.id,
      ticketId,
      amountCents: input.amount,
      note: input.reason,
      idempotencyKey: input.idempotencyKey,
      creditAs: input.creditAs,
    });
  }
  const internal = input.intent === "reply" && input.internal;
  if (!result.ok) {
    if (isFileRefusal(result))
      // A file refused: its name and why, said under the files; what was typed stays.
      return data(
        {
          ok: false as const,
          intent,
          message: result.error,
          filesParams: result.params as Record<string, string | number>,
          typed: input.intent === "reply" ? input.message : undefined,
          internal,
        },
        { status: statusOf(result) },
      );
    return refusal(result, {
      intent,
      typed: input.intent === "reply" ? input.message : undefined,
      internal,
    });
  }
  return {
    ok: true as const,
    intent,
    message: result.message,
    typed: undefined,
    amountCents: "amountCents" in result ? result.amountCents : undefined,
    balanceCents: "balanceCents" in result ? result.balanceCents : undefined,
    receipt: "receipt" in result ? result.receipt : undefined,
  };
}

/** A refusal of the files sent with a reply or a note (ticket-files.server.ts). */
function isFileRefusal<R extends { ok: false }>(
  result: R,
): result is Extract<R, { field: "files" }> {
  return "field" in result && result.field === "files";
}

export default function AdminTicket({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("tickets");
  const { t: tCommon } = useTranslation("common");
  const busy = useNavigation().state !== "idle";
  const { ticket, customer, client, messages, locale } = loaderData;
  // Each result is said beside the form it came from.
  const resultOf = (intents: string[]) =>
    actionData && intents.includes(actionData.intent ?? "") ? actionData : undefined;
  const fieldResult = resultOf(["status", "priority"]);
  const replyResult = resultOf(["reply"]);
  const inserted = resultOf(["insertCanned"]);
  const coinResult = resultOf(["coins"]);
  const filesError =
    replyResult && "filesParams" in replyResult && replyResult.filesParams
      ? {
          message: replyResult.message,
          params: replyResult.filesParams as Record<string, string | number>,
        }
      : undefined;
  // The coin form starts anew (empty, with the page's newest key) only after a credit went through: saving
  // the status or sending a reply reloads the page's data, and must not wipe an amount being typed.
  const [coinForm, setCoinForm] = useState({ key: loaderData.coinKey, after: coinResult });
  // The amount as typed: above the threshold, with a stale proof, the form asks for one before posting.
  const [coinAmount, setCoinAmount] = useState("");
  if (coinResult?.ok && coinResult !== coinForm.after) {
    setCoinForm({ key: loaderData.coinKey, after: coinResult });
    setCoinAmount("");
  }
  const coinTyped = proofAnswerOf(coinResult);
  const coinProofNeeded =
    !loaderData.proofFresh &&
    coinChangeNeedsProof(parseCoinAmount(coinAmount) ?? 0, loaderData.coinProofThreshold);
  return (
    <main className="grid gap-6 lg:grid-cols-[1fr_20rem]">
      {/* content-start: beside a taller sidebar the column keeps its own height, its rows packed at
          the top (stretched, its few rows shared the sidebar's height: a title floating mid-page). */}
      <section className="grid min-w-0 content-start gap-4">
        <Link to="/admin/tickets" className="text-sm text-primary hover:underline">
          {t("admin.back")}
        </Link>
        <h1 className="text-2xl font-bold wrap-anywhere" dir="auto">
          #{ticket.id} {ticket.subject}
        </h1>
        <div className="flex flex-wrap gap-2">
          <Badge tone={ticketTone(ticket.status)}>{t(TICKET_STATUS_LABELS[ticket.status])}</Badge>
          <Badge>{tCommon(DEPARTMENT_LABELS[ticket.department])}</Badge>
          <Badge>{t(PRIORITY_LABELS[ticket.priority])}</Badge>
        </div>
        {fieldResult ? <ResultMessage result={fieldResult} /> : null}
        <TicketThread ticketId={ticket.id} messages={messages} locale={locale} viewer="staff" />
        {/* Keyed on the thread's last message: once a reply is in the thread, the box is empty (its key
            new); a status change keeps what is being typed. */}
        <StaffReplyForm
          formKey={messages.at(-1)?.id ?? 0}
          replyKey={loaderData.replyKey}
          files={<TicketFilesField id="reply-files" error={filesError} />}
          picker={
            <CannedReplyPicker
              replies={loaderData.canned.replies}
              locale={loaderData.canned.locale}
            />
          }
          result={replyResult && !filesError ? replyResult : inserted}
          typed={
            inserted
              ? { message: inserted.typed, internal: inserted.internal }
              : replyResult && !replyResult.ok
                ? { message: replyResult.typed, internal: replyResult.internal }
                : undefined
          }
        />
      </section>
      <aside className="grid content-start gap-4">
        <div className="rounded-lg border bg-background p-4 text-sm">
          <p className="font-semibold">
            <ClientLink userId={customer.id}>{customer.name}</ClientLink>
          </p>
          <p className="text-muted-foreground" dir="ltr">
            {customer.email}
          </p>
          <p>{t("admin.balance", { amount: formatCoins(customer.coinBalanceCents, locale) })}</p>
        </div>
        <ClientSummaryPanel
          userId={customer.id}
          client={client}
          locale={locale}
          now={loaderData.now}
        />
        {[
          {
            name: "status",
            label: t("admin.setStatus"),
            value: ticket.status,
            options: TICKET_STATUSES.map((s) => ({ value: s, label: t(TICKET_STATUS_LABELS[s]) })),
          },
          {
            name: "priority",
            label: t("admin.setPriority"),
            value: ticket.priority,
            options: PRIORITIES.map((p) => ({ value: p, label: t(PRIORITY_LABELS[p]) })),
          },
        ].map((field) => (
          // One small form per field, each saved on its own. Keyed on the value too: a reply changes the
          // status, and the control must show the new one, not keep what it showed before.
          <Form
            key={`${field.name}:${field.value}`}
            method="post"
            className="flex items-end gap-2 rounded-lg border bg-background p-4"
          >
            <input type="hidden" name="intent" value={field.name} />
            <label className="grid flex-1 gap-1 text-sm">
              {field.label}
              <Select name={field.name} defaultValue={field.value} variant="compact">
                {field.options.map((option) => (
                  <option key={option.value} value={option.value}>
                    {option.label}
                  </option>
                ))}
              </Select>
            </label>
            <Button type="submit" size="sm" variant="outline" disabled={busy}>
              {t("admin.save")}
            </Button>
          </Form>
        ))}
        <Form
          key={`${ticket.id}:${coinForm.key}`}
          method="post"
          className="grid gap-2 rounded-lg border bg-background p-4"
        >
          <input type="hidden" name="intent" value="coins" />
          <input type="hidden" name="idempotencyKey" value={coinForm.key} />
          <p className="font-semibold">{t("admin.addCoins", { name: customer.name })}</p>
          <Label htmlFor="coin-amount">{t("admin.amount")}</Label>
          <Input
            id="coin-amount"
            name="amount"
            inputMode="decimal"
            dir="ltr"
            required
            defaultValue={coinTyped?.values?.amount}
            onChange={(event) => setCoinAmount(event.target.value)}
          />
          <Label htmlFor="coin-note">{t("admin.note")}</Label>
          <Input
            id="coin-note"
            name="reason"
            maxLength={500}
            defaultValue={coinTyped?.values?.reason}
          />
          {/* A payment issues the customer's receipt; a goodwill credit no document. */}
          <fieldset className="grid gap-1">
            <legend className="text-sm font-medium">{t("admin.creditAsLegend")}</legend>
            {TICKET_CREDIT_KINDS.map((choice) => (
              <label key={choice} className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="creditAs"
                  value={choice}
                  defaultChecked={choice === (coinTyped?.values?.creditAs || "payment")}
                  className="mt-1"
                />
                {t(TICKET_CREDIT_LABELS[choice])}
              </label>
            ))}
          </fieldset>
          <FreshProofField id="coin-proof" needed={coinProofNeeded} result={coinTyped} />
          <Button type="submit" size="sm" disabled={busy} className="w-fit">
            {t("admin.addCoinsButton")}
          </Button>
          {coinResult ? (
            <ResultMessage
              result={coinResult}
              values={
                coinResult.ok && coinResult.amountCents !== undefined
                  ? {
                      amount: formatCoins(coinResult.amountCents, locale),
                      balance: formatCoins(coinResult.balanceCents ?? 0, locale),
                      number: coinResult.receipt ?? "",
                    }
                  : undefined
              }
            />
          ) : null}
        </Form>
      </aside>
    </main>
  );
}
