import { data } from "react-router";
import { requestContext } from "~/context.server";
import type { CannedReplyInput } from "~/domain/tickets/canned-replies";
import { cannedReplyActionSchema } from "~/domain/tickets/canned-replies.schemas";
import { listCannedReplies, runCannedReplyAction } from "~/domain/tickets/canned-replies.server";
import { CannedRepliesPage } from "~/features/admin-canned-replies/canned-replies-page";
import type {
  CannedReplyActionResult,
  CannedReplyIntent,
} from "~/features/admin-canned-replies/canned-replies-shared";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/canned-replies";

// /admin/tickets/replies (docs/self-service.md): the canned replies the ticket pages' picker offers. The
// page and each of its forms need `tickets.reply`, which the use-cases check again from the database.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.cannedReplies",
  permission: "tickets.reply",
  load: async ({ db }) => ({ replies: await listCannedReplies(db) }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const INTENTS: readonly CannedReplyIntent[] = ["create", "update", "up", "down", "delete"];
const SAVES: readonly CannedReplyIntent[] = ["create", "update"];

function intentOf(value: unknown): CannedReplyIntent | undefined {
  return (INTENTS as readonly unknown[]).includes(value) ? (value as CannedReplyIntent) : undefined;
}

/** A row's id as posted, when it is one. */
function idOf(value: unknown): number | undefined {
  return typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : undefined;
}

/** The editor's fields as a reply fills them, to show a refused save again as it was typed. */
function typedOf(reply: CannedReplyInput): Record<string, string> {
  return {
    title: reply.title,
    department: reply.department ?? "",
    textEn: reply.texts.en,
    textFr: reply.texts.fr,
    textAr: reply.texts.ar,
  };
}

export const action = adminAction(
  requestContext,
  "tickets.reply",
  cannedReplyActionSchema,
  (form) => {
    const intent = intentOf(form.values.intent);
    const save = intent !== undefined && SAVES.includes(intent);
    return data(
      {
        ok: false,
        intent,
        id: idOf(form.values.id),
        message: save
          ? "admin-tickets.cannedReplies.saveFailed"
          : (Object.values(form.fieldErrors)[0] ??
            "admin-tickets.cannedReplies.errors.unknownAction"),
        fieldErrors: save ? form.fieldErrors : undefined,
        values: save ? form.values : undefined,
      } satisfies CannedReplyActionResult,
      { status: 400 },
    );
  },
  async ({ db, admin, input }) => {
    const outcome = await runCannedReplyAction(db, admin.id, input);
    const id = "id" in input ? input.id : undefined;
    if (!outcome.ok) {
      const save = input.intent === "create" || input.intent === "update";
      const field = "field" in outcome ? outcome.field : undefined;
      return data(
        {
          ok: false,
          intent: input.intent,
          id,
          ...(save
            ? {
                message: "admin-tickets.cannedReplies.saveFailed",
                reason: field ? undefined : outcome.error,
                fieldErrors: field ? { [field]: outcome.error } : undefined,
                values: typedOf(input.reply),
              }
            : { message: outcome.error }),
        } satisfies CannedReplyActionResult,
        { status: statusOf(outcome) },
      );
    }
    return {
      ok: true,
      intent: input.intent,
      id: outcome.id,
      title: outcome.title,
      message: outcome.message,
    } satisfies CannedReplyActionResult;
  },
);

export default function AdminCannedReplies({ loaderData, actionData }: Route.ComponentProps) {
  return <CannedRepliesPage {...loaderData} result={actionData} />;
}
