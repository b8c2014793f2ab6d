import { paymentGuidePath } from "~/domain/knowledgebase/knowledgebase";
import type { ExpressionBuilder } from "kysely";
import { getSettings } from "~/domain/settings/settings.server";
import type { Database } from "~/db/schema";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow } from "~/db/paging";
import type { Db } from "~/db/transaction";
import { textIn } from "./payment-methods";
import { findPaymentMethod } from "./payment-methods.server";
import { requests, toRequest } from "./top-up-rows.server";
import type { TopUpQueueQuery } from "./top-ups.schemas";
import {
  isOpenTopUp,
  OPEN_TOP_UP_STATES,
  PAST_TOP_UPS_SHOWN,
  TOP_UPS_PAGE_SIZE,
  type TopUpRequest,
  type TopUpState,
} from "./top-ups";

// The reads of top-up requests (docs/payments.md#pages): the customer's own, the admin's queue and its
// search, and a customer's latest for the admin's client page.

/**
 * The customer's page: their open request (if any) with its method's instructions in their language,
 * their past requests (newest first) and the enabled methods to ask with.
 */
export async function loadCustomerTopUps(db: Db, userId: string, locale: string) {
  const rows = await requests(db)
    .where("top_up_requests.user_id", "=", userId)
    .orderBy("top_up_requests.id", "desc")
    .limit(PAST_TOP_UPS_SHOWN + 1)
    .execute();
  const all = rows.map((row) => toRequest(row, locale));
  const current = all.find((request) => isOpenTopUp(request.state)) ?? null;
  const past = all.filter((request) => request !== current).slice(0, PAST_TOP_UPS_SHOWN);
  // An open request paid online waits on its provider, not on the customer: the page links its
  // payment's page instead of the manual instructions and "I have paid" (a new start replaces it).
  const checkout = current
    ? await db
        .selectFrom("online_payments")
        .select("id")
        .where("top_up_request_id", "=", current.id)
        .executeTakeFirst()
    : undefined;
  if (checkout)
    return {
      current: null,
      instructions: "",
      guide: null,
      past,
      pendingPaymentId: checkout.id,
      pending: current,
    };
  let instructions = "";
  // The knowledge base's guide of a built-in method (docs/knowledgebase.md), linked under its
  // instructions.
  let guide: string | null = null;
  if (current) {
    const method = await findPaymentMethod(db, current.methodId);
    const defaultLocale = (await getSettings(db)).general.defaultLocale;
    if (method) instructions = textIn(method.instructions, locale, defaultLocale);
    guide = paymentGuidePath(method?.code) ?? null;
  }
  return { current, instructions, guide, past, pendingPaymentId: null, pending: null };
}

/** A request of the admin's queue, with who asked. */
export interface QueuedTopUp extends TopUpRequest {
  customerName: string;
  customerEmail: string;
}

function queueFilter(query: TopUpQueueQuery) {
  const search = query.q?.trim().toLowerCase();
  return (eb: ExpressionBuilder<Database, "top_up_requests" | "users">) =>
    eb.and([
      ...(query.state ? [eb("top_up_requests.state", "=", query.state)] : []),
      ...(query.method ? [eb("top_up_requests.payment_method_id", "=", Number(query.method))] : []),
      ...(search
        ? [
            containsAny(
              ["lower(top_up_requests.reference)", "lower(users.email)", "lower(users.name)"],
              search,
            ),
          ]
        : []),
    ]);
}

/**
 * /admin/top-ups: a page of requests, filtered by state and method and searched by reference or by the
 * customer's email or name. Those waiting for a decision come first, the oldest proof first (the one
 * waiting longest); then the rest, newest first. Each shows the customer's other top-ups (history: how
 * many approved, rejected, and their latest).
 */
export async function listTopUpQueue(db: Db, query: TopUpQueueQuery, locale: string) {
  const page = await fetchPage(
    requests(db)
      .innerJoin("users", "users.id", "top_up_requests.user_id")
      .select(["users.name as customer_name", "users.email as customer_email"])
      .where(queueFilter(query))
      .orderBy(
        (eb) =>
          eb
            .case()
            .when("top_up_requests.state", "=", "proof_sent")
            .then(0)
            .when("top_up_requests.state", "=", "waiting_payment")
            .then(1)
            .else(2)
            .end(),
        "asc",
      )
      // Open ones by how long they have waited (the last change: marked paid); decided ones newest first.
      .orderBy((eb) =>
        eb
          .case()
          .when("top_up_requests.state", "in", OPEN_TOP_UP_STATES)
          .then(eb.ref("top_up_requests.updated_at"))
          .else(null)
          .end(),
      )
      .orderBy("top_up_requests.id", "desc"),
    pageWindow(query, TOP_UPS_PAGE_SIZE),
  );
  const items: QueuedTopUp[] = page.rows.map((row) => ({
    ...toRequest(row, locale),
    customerName: row.customer_name,
    customerEmail: row.customer_email,
  }));
  const userIds = [...new Set(items.map((item) => item.userId))];
  const history =
    userIds.length === 0
      ? []
      : await db
          .selectFrom("top_up_requests")
          .select(["user_id", "state", (eb) => eb.fn.countAll<number>().as("n")])
          .where("user_id", "in", userIds)
          .groupBy(["user_id", "state"])
          .execute();
  const histories: Record<string, Partial<Record<TopUpState, number>>> = {};
  for (const row of history)
    (histories[row.user_id] ??= {})[row.state as TopUpState] = Number(row.n);
  return { items, hasMore: page.hasMore, histories };
}

/**
 * A customer's newest `size` top-ups for the admin's client page, and whether older ones exist: one
 * query by the requests' (user_id, created_at) index, the method's names joined.
 */
export async function latestTopUpsOf(db: Db, userId: string, size: number, locale: string) {
  const { rows, hasMore } = await fetchPage(
    requests(db)
      .where("top_up_requests.user_id", "=", userId)
      .orderBy("top_up_requests.created_at", "desc")
      .orderBy("top_up_requests.id", "desc"),
    { limit: size, offset: 0 },
  );
  return { rows: rows.map((row) => toRequest(row, locale)), hasMore };
}
