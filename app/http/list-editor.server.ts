import type { Permission } from "~/domain/staff/permissions";
import { data, redirect, type RouterContextProvider } from "react-router";
import type { z } from "zod";
import type { RequestContext } from "~/context.server";
import {
  productActionSchema,
  productListQuerySchema,
} from "~/domain/catalogue/catalogue-admin.schemas";
import { loadProductsPage, runProductAction } from "~/domain/catalogue/catalogue-admin.server";
import {
  voucherActionSchema,
  voucherListQuerySchema,
} from "~/domain/promotions/promotions.schemas";
import { loadPromotionsPage, runVoucherAction } from "~/domain/promotions/promotions.server";
import {
  paymentMethodActionSchema,
  paymentMethodListQuerySchema,
} from "~/domain/payments/payment-methods.schemas";
import {
  loadPaymentMethodsPage,
  runPaymentMethodAction,
} from "~/domain/payments/payment-methods.server";
import { requirePermission } from "./guards.server";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";
import { parseForm, typedValues } from "./form.server";
import { readProofPost, requireFreshProof } from "./fresh-proof.server";
import { statusOf } from "./result-status";

/**
 * The outcome of a post to a list with an editor (/admin/products, /admin/promotions, /admin/gateways):
 * "save" for the
 * create and edit form, "row" for a row's buttons (`id` says which row).
 */
export interface ListEditorResult {
  ok: boolean;
  intent: "save" | "row";
  id?: string;
  message: MessageKey;
  reason?: MessageKey;
  fieldErrors?: Record<string, MessageKey>;
  /** The values each field's message takes ({{max}}), where it takes some. */
  fieldErrorValues?: Record<string, Record<string, string | number>>;
  /** What was typed, to show the form again as it was. */
  values?: Record<string, string>;
  /** The save waits for a fresh proof of identity (app/http/fresh-proof.server.ts). */
  proof?: "required";
}

/**
 * The lists with an editor: the query and the page's data (`load`), the posts and the one domain
 * function that runs them (`run`), the admin menu's name of the list, the items' anchor prefix ("product"
 * for #product-12), the message of a refused save and the form field each refusal belongs to (unless
 * the refusal names its own).
 */
const LISTS = {
  products: {
    querySchema: productListQuerySchema,
    load: loadProductsPage,
    actionSchema: productActionSchema,
    run: runProductAction,
    title: "nav.products",
    permission: "products.manage",
    anchor: "product",
    saveFailed: "admin-catalogue.products.saveFailed",
    /** A post naming neither a save nor one of these names no row. */
    rowIntents: ["move", "hide", "show", "delete"],
    /** The posts that ask for a fresh proof of identity when the session's is stale: none. */
    freshProof: [],
    fields: {
      "admin-catalogue.products.errors.slugTaken": "slug",
      "admin-catalogue.products.errors.changeToType": "changeTo",
    },
  },
  promotions: {
    querySchema: voucherListQuerySchema,
    load: loadPromotionsPage,
    actionSchema: voucherActionSchema,
    run: runVoucherAction,
    title: "nav.promotions",
    permission: "products.manage",
    anchor: "voucher",
    saveFailed: "admin-catalogue.promotions.saveFailed",
    // Any post that is not a save names a row.
    rowIntents: undefined,
    freshProof: [],
    fields: {
      "admin-catalogue.promotions.errors.codeTaken": "code",
      "admin-catalogue.promotions.errors.productsUnknown": "products",
      "admin-catalogue.promotions.errors.maxUsesBelowUsed": "maxUses",
      "admin-catalogue.promotions.errors.untilPassed": "validUntil",
    },
  },
  // The payment methods (docs/payments.md).
  gateways: {
    querySchema: paymentMethodListQuerySchema,
    load: loadPaymentMethodsPage,
    actionSchema: paymentMethodActionSchema,
    run: runPaymentMethodAction,
    title: "nav.gateways",
    permission: "gateways.manage",
    anchor: "method",
    saveFailed: "payments.admin.saveFailed",
    rowIntents: ["enable", "disable", "delete"],
    // A method's instructions say where customers send their money: writing them asks for a fresh
    // proof of identity (switching a method on or off, or deleting one, redirects no payment).
    freshProof: ["create", "update"],
    // Its refusals name their field themselves (the site's default language decides which).
    fields: {},
  },
} as const;

export type ListArea = keyof typeof LISTS;

/** The form schema a list's posts are parsed with (the authorization matrix probes its intents). */
export function listActionSchema(area: ListArea): z.ZodType<{ intent: string }> {
  return LISTS[area].actionSchema;
}
type List<A extends ListArea> = (typeof LISTS)[A];

/** One list's entry, typed as what every entry is, for the code that serves them all. */
interface AnyList {
  querySchema: z.ZodType;
  load: (db: RequestContext["services"]["db"], query: never) => Promise<object>;
  actionSchema: z.ZodType<{ intent: string }>;
  run: (
    db: RequestContext["services"]["db"],
    actorId: string,
    action: never,
  ) => Promise<{ ok: true; id: number; message: MessageKey } | Refusal>;
  title: "nav.products" | "nav.promotions" | "nav.gateways";
  /** What the member's role must hold to see the list and change it. */
  permission: Permission;
  anchor: string;
  saveFailed: MessageKey;
  rowIntents: readonly string[] | undefined;
  /** The intents that ask for a fresh proof of identity (requireFreshProof). */
  freshProof: readonly string[];
  fields: Partial<Record<string, string>>;
}

/**
 * Reads a request's context from React Router's (the route hands over `requestContext`: this layer sees
 * only the context's type, docs/architecture.md).
 */
type ContextReader = (context: Readonly<RouterContextProvider>) => RequestContext;

/** What a loader or action of ours is given (`url` is the page's own address, ADR 18). */
interface RouteArgs {
  request: Request;
  url: URL;
  context: Readonly<RouterContextProvider>;
}

/**
 * The loader of a list-with-editor page: `export const loader = listEditorLoader(requestContext,
 * "products")`. The route module then says only which list it is and which page draws it.
 */
export function listEditorLoader<A extends ListArea>(read: ContextReader, area: A) {
  return ({ url, context }: Pick<RouteArgs, "url" | "context">) =>
    loadListEditor(url, read(context), area);
}

/** The action of a list-with-editor page, as `listEditorLoader` is its loader. */
export function listEditorAction(read: ContextReader, area: ListArea) {
  return ({ request, url, context }: RouteArgs) =>
    runListEditorAction(request, url, read(context), area);
}

/**
 * A list-with-editor page's loader: for admins only, the list's query from the address, then the page's
 * data with its title (the admin menu's name of the list), which list it is and the reader's locale.
 */
async function loadListEditor<A extends ListArea>(
  url: URL,
  context: RequestContext,
  area: A,
): Promise<
  { meta: { title: string }; area: A } & Awaited<ReturnType<List<A>["load"]>> & {
      query: z.output<List<A>["querySchema"]>;
      locale: string;
    }
> {
  const list: AnyList = LISTS[area];
  requirePermission(url, context, list.permission);
  const t = context.i18n.getFixedT(null, "admin");
  const query: unknown = list.querySchema.parse(Object.fromEntries(url.searchParams));
  return {
    meta: { title: t(list.title) },
    area,
    ...(await list.load(context.services.db, query as never)),
    query,
    locale: context.locale,
  } as never;
}

/**
 * A refusal may name the form field it belongs to, or several with their own messages (a product's
 * provisioning block against the panel's egg); else the list's `fields` say which, if any.
 */
type Refusal = {
  ok: false;
  kind: FailureKind;
  error: MessageKey;
  field?: string;
  fieldErrors?: Record<string, MessageKey>;
  fieldErrorValues?: Record<string, Record<string, string | number>>;
};

const SAVE_INTENTS: readonly string[] = ["create", "update"];

/**
 * A list-with-editor page's action, for admins only: parse the post, run it with the list's one domain
 * function, then after a save (create or update) go back to the list with a notice and the item's
 * anchor, or say what a row's intent did. A refused save comes back with what was typed and the field
 * its reason belongs to.
 */
async function runListEditorAction(
  request: Request,
  url: URL,
  context: RequestContext,
  area: ListArea,
) {
  const list: AnyList = LISTS[area];
  const actorId = requirePermission(url, context, list.permission).id;
  // Kept to show the form again as typed when the save is refused after parsing (a slug taken).
  const copy = request.clone();
  const form = await parseForm(request, list.actionSchema);
  if (!form.ok) {
    const intent = form.values.intent ?? "";
    const save = SAVE_INTENTS.includes(intent);
    const row = list.rowIntents ? list.rowIntents.includes(intent) : !save;
    return data(
      {
        ok: false,
        intent: save ? "save" : "row",
        id: row ? form.values.id : undefined,
        message: save
          ? list.saveFailed
          : (Object.values(form.fieldErrors)[0] ?? "admin-catalogue.errors.unknownAction"),
        fieldErrors: save ? form.fieldErrors : undefined,
        values: save ? form.values : undefined,
      } satisfies ListEditorResult as ListEditorResult,
      { status: 400 },
    );
  }
  const input = form.data;
  if (list.freshProof.includes(input.intent)) {
    // Read from a copy of the copy: `copy` may yet show a refused save again as typed.
    const refused = await requireFreshProof({
      context,
      post: await readProofPost(copy),
      refused: (proof, typed) =>
        ({
          ok: false,
          intent: "save",
          message: list.saveFailed,
          proof: proof.proof,
          fieldErrors: proof.fieldErrors,
          fieldErrorValues: proof.fieldErrorValues,
          values: typed.values,
        }) satisfies ListEditorResult as ListEditorResult,
    });
    if (refused) return refused;
  }
  const result = await list.run(context.services.db, actorId, input as never);
  if (SAVE_INTENTS.includes(input.intent)) {
    if (!result.ok) {
      const field = result.field ?? list.fields[result.error];
      return data(
        {
          ok: false,
          intent: "save",
          message: list.saveFailed,
          reason: result.error,
          fieldErrors: result.fieldErrors ?? (field ? { [field]: result.error } : undefined),
          fieldErrorValues: result.fieldErrorValues,
          values: await typedValues(copy),
        } satisfies ListEditorResult as ListEditorResult,
        { status: statusOf(result) },
      );
    }
    throw redirect(
      `/admin/${area}?notice=${input.intent === "create" ? "created" : "updated"}#${list.anchor}-${result.id}`,
    );
  }
  const id = String((input as { id?: unknown }).id);
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
