import type { Params, RouterContextProvider } from "react-router";
import type { z } from "zod";
import type { RequestContext } from "~/context.server";
import type { SessionUser } from "~/domain/accounts/accounts.server";
import { toColonKey, type MessageKey } from "~/i18n/use-message";
import type { ParsedForm } from "./form.server";
import type { Permission } from "~/domain/staff/permissions";
import { requirePermission } from "./guards.server";
import { adminForm, invalidForm, queryOf, type PostAccess } from "./route-request.server";

/**
 * Reads a request's context from React Router's (the route hands over `requestContext`: this layer sees
 * only the context's type, docs/architecture.md).
 */
type ContextReader = (context: Readonly<RouterContextProvider>) => RequestContext;

/** What a loader or action of ours is given (`url` is the page's own address, ADR 18). */
interface RouteArgs {
  request: Request;
  url: URL;
  params: Params;
  context: Readonly<RouterContextProvider>;
}

/** What an admin page's `load` (or an admin action's `run`) may use: the database, the admin, the rest. */
interface AdminRequest {
  db: RequestContext["services"]["db"];
  admin: SessionUser;
  context: RequestContext;
}

/** An admin page: its title (the admin menu's name of it) and its one domain call. */
interface AdminPage<Data> {
  title: MessageKey;
  /** What the member's role must hold to see the page (null: any member of the staff). */
  permission: Permission | null;
  load: (request: AdminRequest) => Promise<Data>;
}

/** An admin list: a page whose query (filters, page number) is read from its address with `query`. */
interface AdminListPage<S extends z.ZodType, Data> {
  title: MessageKey;
  permission: Permission | null;
  query: S;
  load: (request: AdminRequest & { query: z.output<S> }) => Promise<Data>;
}

type PageData<Data> = { meta: { title: string } } & Data & { locale: string };

/**
 * An admin page's loader: `export const loader = adminLoader(requestContext, { title, query, load })`.
 * For the members of the staff whose role holds its permission (requirePermission), it reads the query with its schema when the page has one, makes its
 * one domain call (`load`) and returns the page's title, what `load` returned, the query and the
 * reader's locale.
 */
export function adminLoader<S extends z.ZodType, Data extends object>(
  read: ContextReader,
  page: AdminListPage<S, Data>,
): (args: Pick<RouteArgs, "url" | "context">) => Promise<PageData<Data> & { query: z.output<S> }>;
export function adminLoader<Data extends object>(
  read: ContextReader,
  page: AdminPage<Data>,
): (args: Pick<RouteArgs, "url" | "context">) => Promise<PageData<Data>>;
export function adminLoader(
  read: ContextReader,
  page: AdminPage<object> | AdminListPage<z.ZodType, object>,
) {
  return async ({ url, context: routerContext }: Pick<RouteArgs, "url" | "context">) => {
    const context = read(routerContext);
    const admin = requirePermission(url, context, page.permission);
    const request = { db: context.services.db, admin, context };
    const title = context.i18n.t(toColonKey(page.title));
    if (!("query" in page))
      return { meta: { title }, ...(await page.load(request)), locale: context.locale };
    const query = queryOf(url, page.query);
    const data = await page.load({ ...request, query });
    return { meta: { title }, ...data, query, locale: context.locale };
  };
}

/** A post that its schema refused: what was typed and each field's message. */
export type RefusedForm = Extract<ParsedForm<unknown>, { ok: false }>;

/** What an admin action's `run` is given: the admin request and the valid post. */
type AdminPost<S extends z.ZodType> = AdminRequest & {
  input: z.output<S>;
  url: URL;
  params: Params;
};

/**
 * An admin page's action: `export const action = adminAction(requestContext, access, schema, refused,
 * run)`. For the members of the staff whose role holds the permission `access` names for the post's
 * intent (adminForm), it reads the post with `schema`; a refused post is answered with `refused` (a message
 * key: the first field's message, else that key, with 400; or the page's own answer), a valid one by
 * `run`, which makes the domain call and says what it did.
 */
export function adminAction<S extends z.ZodType, Answer>(
  read: ContextReader,
  access: PostAccess,
  schema: S,
  refused: MessageKey,
  run: (post: AdminPost<S>) => Promise<Answer>,
): (args: RouteArgs) => Promise<Answer | ReturnType<typeof invalidForm>>;
export function adminAction<S extends z.ZodType, Refused, Answer>(
  read: ContextReader,
  access: PostAccess,
  schema: S,
  refused: (form: RefusedForm) => Refused,
  run: (post: AdminPost<S>) => Promise<Answer>,
): (args: RouteArgs) => Promise<Answer | Refused>;
export function adminAction(
  read: ContextReader,
  access: PostAccess,
  schema: z.ZodType,
  refused: MessageKey | ((form: RefusedForm) => unknown),
  run: (post: AdminPost<z.ZodType>) => Promise<unknown>,
) {
  return async ({ request, url, params, context: routerContext }: RouteArgs) => {
    const context = read(routerContext);
    const { admin, form } = await adminForm(request, url, context, schema, access);
    if (!form.ok)
      return typeof refused === "string" ? invalidForm(form.fieldErrors, refused) : refused(form);
    return run({ db: context.services.db, admin, context, input: form.data, url, params });
  };
}
