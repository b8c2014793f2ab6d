import { describe, expect, it } from "vitest";
import {
  checkPaymentsOutcome,
  describeOutcome,
  topUpKey,
  type CheckedCheckout,
  type PaymentsSnapshot,
} from "./payments-checks";

const checkouts: CheckedCheckout[] = [
  { paymentId: 1, requestId: 11, userId: "a", coins: 5, startingCents: 0 },
  { paymentId: 2, requestId: 12, userId: "b", coins: 7, startingCents: 0 },
];

/** Both checkouts credited once, each notification applied, the second sent twice. */
function clean(): PaymentsSnapshot {
  return {
    checkouts,
    paymentStates: new Map([
      [1, "paid"],
      [2, "paid"],
    ]),
    requestStates: new Map([
      [11, "approved"],
      [12, "approved"],
    ]),
    credits: [
      { userId: "a", key: topUpKey(11), amountCents: 500 },
      { userId: "b", key: topUpKey(12), amountCents: 700 },
    ],
    balances: new Map([
      ["a", 500],
      ["b", 700],
    ]),
    receipts: [{ key: topUpKey(11) }, { key: topUpKey(12) }],
    notifications: [
      { paymentId: 1, outcome: "applied" },
      { paymentId: 2, outcome: "applied" },
    ],
    answers: [
      { paymentId: 1, status: 200, outcome: "queued" },
      { paymentId: 2, status: 200, outcome: "duplicate" },
      { paymentId: 2, status: 200, outcome: "queued" },
    ],
  };
}

const nothingWrong = {
  notCredited: [],
  doubleCredits: [],
  wrongAmount: [],
  wrongBalance: [],
  receiptsWrong: [],
  notificationsWrong: [],
  webhookErrors: 0,
  answersWrong: [],
};

describe("the payments benchmark's checks", () => {
  it("pass a run where each checkout was credited once and each notification applied", () => {
    const outcome = checkPaymentsOutcome(clean());
    expect(outcome).toEqual(nothingWrong);
    expect(describeOutcome(outcome)).toEqual([]);
  });

  it("count a second credit, under the same key or another, as a double credit", () => {
    const sameKey = clean();
    sameKey.credits = [...sameKey.credits, { userId: "a", key: topUpKey(11), amountCents: 500 }];
    sameKey.balances = new Map([...sameKey.balances, ["a", 1000]]);
    expect(checkPaymentsOutcome(sameKey)).toMatchObject({ doubleCredits: [11], wrongBalance: [] });
    const otherKey = clean();
    otherKey.credits = [...otherKey.credits, { userId: "b", key: "top-up:99", amountCents: 700 }];
    otherKey.balances = new Map([...otherKey.balances, ["b", 1400]]);
    expect(checkPaymentsOutcome(otherKey)).toMatchObject({ doubleCredits: [12] });
  });

  it("find a payment not paid, a request not approved, a missing credit and receipt", () => {
    const snapshot = clean();
    snapshot.paymentStates = new Map([
      [1, "pending"],
      [2, "paid"],
    ]);
    snapshot.requestStates = new Map([
      [11, "waiting_payment"],
      [12, "cancelled"],
    ]);
    snapshot.credits = snapshot.credits.slice(1);
    snapshot.receipts = snapshot.receipts.slice(1);
    snapshot.balances = new Map([
      ["a", 0],
      ["b", 700],
    ]);
    expect(checkPaymentsOutcome(snapshot)).toMatchObject({
      notCredited: [1, 2],
      receiptsWrong: [11],
      wrongBalance: [],
    });
  });

  it("find a credit of the wrong amount, a balance that is not its credit, a second receipt", () => {
    const snapshot = clean();
    snapshot.credits = [{ userId: "a", key: topUpKey(11), amountCents: 600 }, snapshot.credits[1]!];
    snapshot.balances = new Map([
      ["a", 600],
      ["b", 900],
    ]);
    snapshot.receipts = [...snapshot.receipts, { key: topUpKey(12) }];
    expect(checkPaymentsOutcome(snapshot)).toMatchObject({
      wrongAmount: [11],
      wrongBalance: ["b"],
      receiptsWrong: [12],
    });
  });

  it("find a notification left queued, kept twice or not kept", () => {
    const snapshot = clean();
    snapshot.notifications = [
      { paymentId: 1, outcome: "queued" },
      { paymentId: 2, outcome: "applied" },
      { paymentId: 2, outcome: "applied" },
      { paymentId: null, outcome: "unknownPayment" },
    ];
    expect(checkPaymentsOutcome(snapshot).notificationsWrong).toEqual([1, 2]);
    snapshot.notifications = [{ paymentId: 2, outcome: "applied" }];
    expect(checkPaymentsOutcome(snapshot).notificationsWrong).toEqual([1]);
  });

  it("count answers that are not 2xx, and answers other than one queued and the rest duplicate", () => {
    const snapshot = clean();
    snapshot.answers = [
      { paymentId: 1, status: 500, outcome: null },
      { paymentId: 2, status: 200, outcome: "queued" },
      { paymentId: 2, status: 200, outcome: "queued" },
    ];
    expect(checkPaymentsOutcome(snapshot)).toMatchObject({
      webhookErrors: 1,
      answersWrong: [1, 2],
    });
    snapshot.answers = [
      { paymentId: 1, status: null, outcome: null },
      { paymentId: 1, status: 200, outcome: "queued" },
    ];
    const outcome = checkPaymentsOutcome(snapshot);
    expect(outcome).toMatchObject({ webhookErrors: 1, answersWrong: [1, 2] });
    expect(describeOutcome(outcome)).toEqual([
      "2 payments whose answers are not one queued and the rest duplicate (1, 2)",
      "1 webhook answers not 2xx",
    ]);
  });
});
