import type { UnverifiedEmailRefusal } from "~/domain/accounts/email-verification.server";
import { getSettings } from "~/domain/settings/settings.server";
import type { Db } from "~/db/transaction";
import {
  startOnlinePayment,
  type ProviderWiring,
  type StartOnlineResult,
} from "./online-checkout.server";
import { textIn } from "./payment-methods";
import { listEnabledPaymentMethods, listPaymentMethodsForAdmin } from "./payment-methods.server";
import { listProofsForQueue, listProofsOf, type ProofUpload } from "./top-up-proofs.server";
import { approveTopUp, rejectTopUp } from "./top-up-decisions.server";
import { listTopUpQueue, loadCustomerTopUps } from "./top-up-lists.server";
import { onlinePaymentsOfRequests } from "./online-payment-views.server";
import { cancelTopUp, markTopUpPaid, requestTopUp } from "./top-up-requests.server";
import type { Refused, TopUpResult } from "./top-up-rows.server";
import type { StaffForbidden } from "~/domain/staff/staff-actor.server";
import type {
  TopUpAction,
  TopUpFormAction,
  TopUpDecision,
  TopUpPageQuery,
  TopUpQueueQuery,
} from "./top-ups.schemas";

// The top-up pages' loaders and posts (docs/payments.md#pages): the customer's page and its one action,
// the admin's queue and its decision. The use-cases they call live beside: top-up-requests.server.ts
// (the customer's), top-up-decisions.server.ts (the staff's, crediting through top-up-credit.server.ts)
// and top-up-lists.server.ts (the reads).

// What each of the customer's and the admin's posts says when it worked (payments keys, written out).
const ACTION_MESSAGES = {
  request: "payments.topUps.requested",
  paid: "payments.topUps.markedPaid",
  cancel: "payments.topUps.cancelled",
  approve: "payments.topUps.admin.approved",
  reject: "payments.topUps.admin.rejected",
} as const satisfies Record<TopUpAction["intent"] | ApprovalOrRejection["intent"], string>;

/** The queue's decisions on a request itself (a refund is the payment's: refundOnlinePayment). */
export type ApprovalOrRejection = Exclude<TopUpDecision, { intent: "refund" }>;

/** What a post to the top-up pages did: what to say (with the request's reference), or why not. */
export type TopUpOutcome =
  | {
      ok: true;
      message: (typeof ACTION_MESSAGES)[keyof typeof ACTION_MESSAGES];
      params: { reference: string };
    }
  | Refused
  | UnverifiedEmailRefusal
  | StaffForbidden;

function outcome(
  result: TopUpResult | StaffForbidden,
  intent: keyof typeof ACTION_MESSAGES,
): TopUpOutcome {
  return result.ok
    ? {
        ok: true,
        message: ACTION_MESSAGES[intent],
        params: { reference: result.request.reference },
      }
    : result;
}

/** The customer's page's one action: ask for a top-up, say it is paid, or cancel it. */
export async function runTopUpAction(
  db: Db,
  input: {
    userId: string;
    locale: string;
    action: TopUpAction;
    /** The files sent with "I have paid". */
    proofs?: readonly ProofUpload[];
    /** An unverified address may neither ask for coins nor say they are paid. */
    requireVerifiedEmail?: boolean;
  },
): Promise<TopUpOutcome> {
  const { action, userId } = input;
  const gate = { requireVerifiedEmail: input.requireVerifiedEmail };
  const result =
    action.intent === "request"
      ? await requestTopUp(
          db,
          { userId, methodId: action.methodId, coins: action.coins, locale: input.locale },
          gate,
        )
      : action.intent === "paid"
        ? await markTopUpPaid(
            db,
            {
              userId,
              requestId: action.requestId,
              payerAccount: action.payerAccount,
              paidOn: action.paidOn,
              proofs: input.proofs,
            },
            gate,
          )
        : await cancelTopUp(db, { userId, requestId: action.requestId });
  return outcome(result, action.intent);
}

/**
 * The customer's page's form, whichever way the method is paid: a method paid online starts its
 * checkout at the provider (the customer is then sent there), the others are runTopUpAction's.
 */
export async function runTopUpForm(
  db: Db,
  input: Omit<Parameters<typeof runTopUpAction>[1], "action"> & {
    action: TopUpFormAction;
    /** Where the provider sends the customer back, and who they are to it. */
    online: { origin: string; customerIp: string };
  },
  wiring: ProviderWiring,
): Promise<TopUpOutcome | StartOnlineResult> {
  const { action } = input;
  if (action.intent !== "payOnline") return runTopUpAction(db, { ...input, action });
  return startOnlinePayment(
    db,
    {
      userId: input.userId,
      methodId: action.methodId,
      coins: action.coins,
      origin: input.online.origin,
      customerIp: input.online.customerIp,
      locale: input.locale,
    },
    { ...wiring, requireVerifiedEmail: input.requireVerifiedEmail },
  );
}

/** /admin/top-ups' decision on a request: approve or reject it. */
export async function runTopUpDecision(
  db: Db,
  input: { adminId: string; decision: ApprovalOrRejection },
): Promise<TopUpOutcome> {
  const { decision, adminId } = input;
  const result =
    decision.intent === "approve"
      ? await approveTopUp(db, { adminId, requestId: decision.requestId, coins: decision.coins })
      : await rejectTopUp(db, { adminId, requestId: decision.requestId, reason: decision.reason });
  return outcome(result, decision.intent);
}

/**
 * The customer's page: their requests, the files of the open one, the methods on offer (none while
 * coin purchase is switched off: an open request can still be paid, marked paid or cancelled) and the
 * coins its query asked the form to start on.
 */
export async function loadTopUpPage(
  db: Db,
  userId: string,
  locale: string,
  options: { query?: TopUpPageQuery; now?: Date } = {},
) {
  const { query = {}, now = new Date() } = options;
  const [requestsOf, methods, settings] = await Promise.all([
    loadCustomerTopUps(db, userId, locale),
    listEnabledPaymentMethods(db, locale),
    getSettings(db),
  ]);
  const open = settings.features.coinPurchase;
  const proofs = requestsOf.current ? await listProofsOf(db, requestsOf.current.id) : [];
  return {
    ...requestsOf,
    proofs,
    methods: open ? methods : [],
    purchaseOpen: open,
    // What an "Add coins" link said was missing, in whole coins: the form starts on it (at least the
    // method's minimum, at most its maximum: startingTopUpCoins).
    wantedCoins: query.coins ?? null,
    // "I have paid"'s day is the server's (its default and latest), so the form hydrates as written.
    today: now.toISOString().slice(0, 10),
  };
}

/**
 * /admin/top-ups: the queue's page with each request's files or online payment (with its refunds), and
 * every method (the filter's choices).
 */
export async function loadTopUpQueuePage(db: Db, query: TopUpQueueQuery, locale: string) {
  const [queue, methods] = await Promise.all([
    listTopUpQueue(db, query, locale),
    listPaymentMethodsForAdmin(db),
  ]);
  const ids = queue.items.map((item) => item.id);
  const [proofs, onlinePayments] = await Promise.all([
    listProofsForQueue(db, ids),
    onlinePaymentsOfRequests(db, ids),
  ]);
  return {
    ...queue,
    proofs,
    onlinePayments,
    methods: methods.map((method) => ({ id: method.id, name: textIn(method.names, locale, "en") })),
  };
}
