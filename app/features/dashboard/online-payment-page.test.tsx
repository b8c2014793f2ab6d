import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { OnlinePaymentPage, type OnlinePaymentPageView } from "./online-payment-page";

const paid: OnlinePaymentPageView = {
  reference: "TU-QTYY4",
  methodName: "Card (YouCan Pay)",
  state: "paid",
  amount: 11000,
  currency: "MAD",
  coins: 10,
  creditedCoins: 10,
  balanceCents: 1000,
  receiptNumber: "HFR-2026-000001",
  leftCheckout: false,
};

/** The page as the server sends it. */
function render(payment: OnlinePaymentPageView) {
  const Stub = createRoutesStub([
    {
      path: "/dashboard/top-up/payments/:id",
      Component: () => <OnlinePaymentPage payment={payment} locale="en" />,
    },
  ]);
  return renderHtml(<Stub initialEntries={["/dashboard/top-up/payments/1"]} />);
}

describe("the page a provider sends the customer back to", () => {
  it("is the page's main landmark, with the margins the top-up page has", async () => {
    const html = await render(paid);
    // The site layout has no <main>: each page brings its own (a phone showed this one edge to edge).
    const main = /^<main class="([^"]*)">/.exec(html);
    expect(main?.[1]?.split(" ")).toEqual(expect.arrayContaining(["mx-auto", "px-4", "py-10"]));
    expect(html.match(/<main/g)).toHaveLength(1);
    expect(html).toContain(">Paid<");
  });
});
