/**
 * What `npm run bench:payments` counts as errors once the worker is done, from the rows the run left
 * (payments, requests, the ledger, receipts, the notifications' inbox) and the webhook's answers: pure,
 * so its rules are unit tested (payments-checks.test.ts).
 */

/** One checkout of the run, as the benchmark started it. */
export interface CheckedCheckout {
  paymentId: number;
  requestId: number;
  userId: string;
  coins: number;
  /** Coins the customer had before the checkout, in cents. */
  startingCents: number;
}

export interface PaymentsSnapshot {
  checkouts: readonly CheckedCheckout[];
  /** `online_payments.state` by payment id. */
  paymentStates: ReadonlyMap<number, string>;
  /** `top_up_requests.state` by request id. */
  requestStates: ReadonlyMap<number, string>;
  /** The ledger's credits of the run's customers (`coin_purchase` rows), with their key. */
  credits: readonly { userId: string; key: string | null; amountCents: number }[];
  /** `users.coin_balance_cents` by user id. */
  balances: ReadonlyMap<string, number>;
  /** Receipts by the key of the ledger row they account for. */
  receipts: readonly { key: string | null }[];
  /** The inbox's rows about the run's payments. */
  notifications: readonly { paymentId: number | null; outcome: string }[];
  /** The webhook's answers, each with the payment its notification named. */
  answers: readonly { paymentId: number; status: number | null; outcome: string | null }[];
}

export interface PaymentsOutcome {
  /** Payments not `paid`, or whose request is not `approved`. */
  notCredited: number[];
  /** Requests credited more than once: more than one entry under their key, or the customer credited twice. */
  doubleCredits: number[];
  /** Requests whose one credit is not their coins. */
  wrongAmount: number[];
  /** Customers whose balance is not what they had plus their one credit. */
  wrongBalance: string[];
  /** Requests without exactly one receipt. */
  receiptsWrong: number[];
  /** Payments without exactly one notification kept, or whose notification is not `applied`. */
  notificationsWrong: number[];
  /** Answers that are not a 2xx (or none came). */
  webhookErrors: number;
  /** Payments whose answers are not one `queued` and the rest `duplicate`. */
  answersWrong: number[];
}

export const topUpKey = (requestId: number) => `top-up:${requestId}`;

function countBy<T>(
  items: readonly T[],
  key: (item: T) => string | number | null,
): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) {
    const k = String(key(item));
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return counts;
}

/** Every check of the run, each naming what failed it (empty lists: all passed). */
export function checkPaymentsOutcome(snapshot: PaymentsSnapshot): PaymentsOutcome {
  const outcome: PaymentsOutcome = {
    notCredited: [],
    doubleCredits: [],
    wrongAmount: [],
    wrongBalance: [],
    receiptsWrong: [],
    notificationsWrong: [],
    webhookErrors: 0,
    answersWrong: [],
  };
  const creditsByKey = countBy(snapshot.credits, (credit) => credit.key);
  const creditsByUser = countBy(snapshot.credits, (credit) => credit.userId);
  const receiptsByKey = countBy(snapshot.receipts, (receipt) => receipt.key);
  const notificationsOf = new Map<number, string[]>();
  for (const row of snapshot.notifications) {
    if (row.paymentId === null) continue;
    notificationsOf.set(row.paymentId, [
      ...(notificationsOf.get(row.paymentId) ?? []),
      row.outcome,
    ]);
  }
  const answersOf = new Map<number, (string | null)[]>();
  for (const answer of snapshot.answers) {
    if (answer.status === null || answer.status < 200 || answer.status >= 300)
      outcome.webhookErrors++;
    answersOf.set(answer.paymentId, [...(answersOf.get(answer.paymentId) ?? []), answer.outcome]);
  }
  for (const checkout of snapshot.checkouts) {
    const { paymentId, requestId, userId } = checkout;
    const key = topUpKey(requestId);
    if (
      snapshot.paymentStates.get(paymentId) !== "paid" ||
      snapshot.requestStates.get(requestId) !== "approved"
    )
      outcome.notCredited.push(paymentId);
    const underKey = creditsByKey.get(key) ?? 0;
    if (underKey > 1 || (creditsByUser.get(userId) ?? 0) > 1) outcome.doubleCredits.push(requestId);
    const credit = snapshot.credits.find((each) => each.key === key);
    if (credit && credit.amountCents !== checkout.coins * 100) outcome.wrongAmount.push(requestId);
    const credited = snapshot.credits
      .filter((each) => each.userId === userId)
      .reduce((sum, each) => sum + each.amountCents, 0);
    if (snapshot.balances.get(userId) !== checkout.startingCents + credited)
      outcome.wrongBalance.push(userId);
    if ((receiptsByKey.get(key) ?? 0) !== 1) outcome.receiptsWrong.push(requestId);
    const kept = notificationsOf.get(paymentId) ?? [];
    if (kept.length !== 1 || kept[0] !== "applied") outcome.notificationsWrong.push(paymentId);
    const answers = answersOf.get(paymentId) ?? [];
    const queued = answers.filter((each) => each === "queued").length;
    const duplicates = answers.filter((each) => each === "duplicate").length;
    if (answers.length === 0 || queued !== 1 || queued + duplicates !== answers.length)
      outcome.answersWrong.push(paymentId);
  }
  return outcome;
}

/** The outcome's failures as short lines (at most five ids each). */
export function describeOutcome(outcome: PaymentsOutcome): string[] {
  const lines: string[] = [];
  const list = (what: string, items: readonly (number | string)[]) => {
    if (items.length)
      lines.push(
        `${items.length} ${what} (${items.slice(0, 5).join(", ")}${items.length > 5 ? "…" : ""})`,
      );
  };
  list("payments not credited", outcome.notCredited);
  list("requests credited twice", outcome.doubleCredits);
  list("credits of the wrong amount", outcome.wrongAmount);
  list("balances not equal to their credit", outcome.wrongBalance);
  list("requests without exactly one receipt", outcome.receiptsWrong);
  list("payments whose notification is not kept once and applied", outcome.notificationsWrong);
  list("payments whose answers are not one queued and the rest duplicate", outcome.answersWrong);
  if (outcome.webhookErrors) lines.push(`${outcome.webhookErrors} webhook answers not 2xx`);
  return lines;
}
