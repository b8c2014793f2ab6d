import { data, redirect } from "react-router";
import type { z } from "zod";
import type { RequestContext } from "~/context.server";
import { requireAdmin } from "./guards.server";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";
import { parseForm, typedValues } from "./form.server";
import { statusOf } from "./result-status";

/**
 * The outcome of a post to a list with an editor (/admin/products, /admin/promotions): "save" for the
 * create and edit form, "row" for a row's buttons (`id` says which row).
 */
export interface ListEditorResult {
  ok: boolean;
  intent: "save" | "row";
  id?: string;
  message: MessageKey;
  reason?: MessageKey;
  fieldErrors?: Record<string, MessageKey>;
  /** What was typed, to show the form again as it was. */
  values?: Record<string, string>;
}

/**
 * A list-with-editor page's loader: for admins only, the list's query from the address, then the page's
 * data with its title (the admin menu's name of the list) and the reader's locale.
 */
export async function listEditorLoader<S extends z.ZodType, Page>(
  url: URL,
  context: RequestContext,
  options: {
    querySchema: S;
    title: "nav.products" | "nav.promotions";
    load: (db: RequestContext["services"]["db"], query: z.output<S>) => Promise<Page>;
  },
) {
  requireAdmin(url, context);
  const t = context.i18n.getFixedT(null, "admin");
  const query: z.output<S> = options.querySchema.parse(Object.fromEntries(url.searchParams));
  return {
    meta: { title: t(options.title) },
    ...(await options.load(context.services.db, query)),
    query,
    locale: context.locale,
  };
}

type Refusal = { ok: false; kind: FailureKind; error: MessageKey };
type SaveIntent = "create" | "update";

const SAVE_INTENTS: readonly string[] = ["create", "update"] satisfies SaveIntent[];

/**
 * A list-with-editor page's action: parse the post, then either save the item (create or update) and go
 * back to the list with a notice and the item's anchor, or run a row's intent and say what it did.
 */
export async function listEditorAction<
  S extends z.ZodType<{ intent: string }>,
  Input extends z.infer<S> = z.infer<S>,
>(
  request: Request,
  schema: S,
  options: {
    /** The list's path, where a save leads back to. */
    listPath: string;
    /** The items' anchor prefix on the list ("product" for #product-12). */
    anchor: string;
    /** The message of a refused save ("admin-catalogue.products.saveFailed"). */
    saveFailed: MessageKey;
    /** The row intents, when a post naming neither a save nor one of them should name no row. */
    rowIntents?: readonly string[];
    save: (
      input: Extract<Input, { intent: SaveIntent }>,
    ) => Promise<{ ok: true; id: number } | Refusal>;
    /** The form field a refused save's reason belongs to, if any. */
    fieldOf: (error: MessageKey) => string | undefined;
    row: (
      input: Exclude<Input, { intent: SaveIntent }>,
    ) => Promise<{ ok: true; message: MessageKey } | Refusal>;
  },
) {
  // Kept to show the form again as typed when the save is refused after parsing (a slug taken).
  const copy = request.clone();
  const form = await parseForm(request, schema);
  if (!form.ok) {
    const intent = form.values.intent ?? "";
    const save = SAVE_INTENTS.includes(intent);
    const row = options.rowIntents ? options.rowIntents.includes(intent) : !save;
    return data(
      {
        ok: false,
        intent: save ? "save" : "row",
        id: row ? form.values.id : undefined,
        message: save
          ? options.saveFailed
          : (Object.values(form.fieldErrors)[0] ?? "admin-catalogue.errors.unknownAction"),
        fieldErrors: save ? form.fieldErrors : undefined,
        values: save ? form.values : undefined,
      } satisfies ListEditorResult as ListEditorResult,
      { status: 400 },
    );
  }
  const input = form.data as Input;
  if (SAVE_INTENTS.includes(input.intent)) {
    const result = await options.save(input as Extract<Input, { intent: SaveIntent }>);
    if (!result.ok) {
      const field = options.fieldOf(result.error);
      return data(
        {
          ok: false,
          intent: "save",
          message: options.saveFailed,
          reason: result.error,
          fieldErrors: field ? { [field]: result.error } : undefined,
          values: await typedValues(copy),
        } satisfies ListEditorResult as ListEditorResult,
        { status: statusOf(result) },
      );
    }
    throw redirect(
      `${options.listPath}?notice=${input.intent === "create" ? "created" : "updated"}#${options.anchor}-${result.id}`,
    );
  }
  const rowInput = input as Exclude<Input, { intent: SaveIntent }>;
  const id = String((rowInput as { id?: unknown }).id);
  const result = await options.row(rowInput);
  if (!result.ok)
    return data(
      {
        ok: false,
        intent: "row",
        id,
        message: result.error,
      } satisfies ListEditorResult as ListEditorResult,
      { status: statusOf(result) },
    );
  return {
    ok: true,
    intent: "row",
    id,
    message: result.message,
  } satisfies ListEditorResult as ListEditorResult;
}
