import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import type { TopUpRequest } from "~/domain/payments/top-ups";
import { renderHtml } from "../../../tests/support/render-html";
import { TopUpPage } from "./top-up-page";

const waiting: TopUpRequest = {
  id: 3,
  reference: "HF-7K2Q9",
  userId: "u1",
  methodId: 1,
  methodName: "Orange Money",
  coins: 1000,
  currency: "EUR",
  amount: 1000,
  fee: 0,
  total: 1000,
  creditCents: 1000,
  payerAccount: null,
  paidOn: null,
  state: "waiting_payment",
  creditedCoins: null,
  rejectReason: null,
  decidedAt: null,
  createdAt: "2031-03-04T08:00:00.000Z",
  updatedAt: "2031-03-04T08:00:00.000Z",
};

/** /dashboard/top-up with a request waiting for its payment, as the server sends it on `today`. */
function renderWaiting(
  today: string,
  request: TopUpRequest = waiting,
  {
    approvalHours = 24,
    locale = "en",
  }: { approvalHours?: number; locale?: "en" | "fr" | "ar" } = {},
) {
  const Stub = createRoutesStub([
    {
      path: "/dashboard/top-up",
      Component: () => (
        <TopUpPage
          current={request}
          pending={null}
          pendingPaymentId={null}
          proofs={[]}
          instructions=""
          past={[]}
          methods={[]}
          purchaseOpen
          wantedCoins={null}
          today={today}
          locale={locale}
          approvalHours={approvalHours}
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/dashboard/top-up"]} />, locale);
}

describe('the "I have paid" form', () => {
  it("offers the server's day, not the clock of whoever renders it", async () => {
    // A day the real clock is not on: a form that read the clock would hydrate to another day.
    const html = await renderWaiting("2031-03-04");
    const paidOn = /<input[^>]*name="paidOn"[^>]*>/.exec(html)?.[0] ?? "";
    expect(paidOn).toContain('value="2031-03-04"');
    expect(paidOn).toContain('max="2031-03-04"');
  });

  it("offers to pick files of the four types a proof may be", async () => {
    const html = await renderWaiting("2031-03-04");
    const files = /<input[^>]*name="proofs"[^>]*>/.exec(html)?.[0] ?? "";
    expect(files).toContain('accept="image/jpeg,image/png,image/webp,application/pdf"');
  });
});

describe("a top-up whose payment was sent", () => {
  const sent: TopUpRequest = { ...waiting, state: "proof_sent" };

  it("says how long approving it usually takes, in the reader's language", async () => {
    expect(await renderWaiting("2031-03-04", sent, { approvalHours: 6, locale: "fr" })).toContain(
      "La validation intervient en général sous 6 heures.",
    );
    const arabic = await renderWaiting("2031-03-04", sent, { approvalHours: 48, locale: "ar" });
    expect(arabic.replace(/[\u2066-\u2069]/g, "")).toContain("تتم الموافقة عادةً في غضون يومين.");
  });

  it("says nothing of it while the payment is still awaited", async () => {
    expect(await renderWaiting("2031-03-04")).not.toContain("data-approval-time");
  });
});
