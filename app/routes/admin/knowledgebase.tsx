import { data } from "react-router";
import { requestContext } from "~/context.server";
import { kbActionSchema, type KbAction } from "~/domain/knowledgebase/knowledgebase.schemas";
import { listKnowledgeBase, runKbAction } from "~/domain/knowledgebase/knowledgebase.server";
import { KbAdminPage } from "~/features/admin-knowledgebase/kb-admin-page";
import type { KbActionResult, KbIntent } from "~/features/admin-knowledgebase/kb-admin-shared";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/knowledgebase";

// /admin/knowledgebase (docs/knowledgebase.md): the categories and articles of the public knowledge
// base. The page and each of its forms need `knowledgebase.manage`, which the use-cases check again
// from the database.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.knowledgebase",
  permission: "knowledgebase.manage",
  load: async ({ db }) => listKnowledgeBase(db),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const INTENTS: readonly KbIntent[] = [
  "category-create",
  "category-update",
  "category-delete",
  "article-create",
  "article-update",
  "article-delete",
];

function intentOf(value: unknown): KbIntent | undefined {
  return (INTENTS as readonly unknown[]).includes(value) ? (value as KbIntent) : undefined;
}

function idOf(value: unknown): number | undefined {
  return typeof value === "string" && /^\d{1,10}$/.test(value) ? Number(value) : undefined;
}

const isSave = (intent: KbIntent | undefined) =>
  intent !== undefined && !intent.endsWith("-delete");

/** The editor's fields as a save carries them, to show a refused save again as it was typed. */
function typedOf(action: KbAction): Record<string, string> | undefined {
  const item =
    "category" in action ? action.category : "article" in action ? action.article : undefined;
  if (!item) return undefined;
  const texts = (field: string, values: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(values).map(([locale, text]) => [
        `${field}${locale.charAt(0).toUpperCase()}${locale.slice(1)}`,
        text,
      ]),
    );
  return "names" in item
    ? {
        slug: item.slug,
        position: String(item.position),
        department: item.department ?? "",
        ...texts("name", item.names),
      }
    : {
        slug: item.slug,
        position: String(item.position),
        status: item.status,
        categoryId: String(item.categoryId),
        ...texts("title", item.titles),
        ...texts("body", item.bodies),
      };
}

export const action = adminAction(
  requestContext,
  "knowledgebase.manage",
  kbActionSchema,
  (form) => {
    const intent = intentOf(form.values.intent);
    const save = isSave(intent);
    return data(
      {
        ok: false,
        intent,
        id: idOf(form.values.id),
        message: save
          ? "knowledgebase.admin.saveFailed"
          : (Object.values(form.fieldErrors)[0] ?? "knowledgebase.errors.unknownAction"),
        fieldErrors: save ? form.fieldErrors : undefined,
        values: save ? form.values : undefined,
      } satisfies KbActionResult,
      { status: 400 },
    );
  },
  async ({ db, admin, input }) => {
    const outcome = await runKbAction(db, admin.id, input);
    const id = "id" in input ? input.id : undefined;
    if (!outcome.ok) {
      const field = "field" in outcome ? outcome.field : undefined;
      return data(
        {
          ok: false,
          intent: input.intent,
          id,
          ...(isSave(input.intent)
            ? {
                message: "knowledgebase.admin.saveFailed",
                reason: field ? undefined : outcome.error,
                fieldErrors: field ? { [field]: outcome.error } : undefined,
                values: typedOf(input),
              }
            : { message: outcome.error }),
        } satisfies KbActionResult,
        { status: statusOf(outcome) },
      );
    }
    return {
      ok: true,
      intent: input.intent,
      id: outcome.id,
      name: outcome.name,
      message: outcome.message,
    } satisfies KbActionResult;
  },
);

export default function AdminKnowledgeBase({ loaderData, actionData }: Route.ComponentProps) {
  return <KbAdminPage {...loaderData} result={actionData} />;
}
