// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { createRoutesStub } from "react-router";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import type { OfferedPaymentMethod } from "~/domain/payments/payment-methods";
import { createI18n } from "~/i18n/i18n";
import { loadResources } from "~/i18n/resources";
import type { Translator } from "~/i18n/translator";
import { I18nProvider } from "~/i18n/translator-context";
import { RequestForm } from "./top-up-request-form";

afterEach(cleanup);

let i18n: Translator;
beforeAll(async () => {
  i18n = await createI18n("en", await loadResources("en"));
});

function method(
  id: number,
  name: string,
  minCoins: number,
  maxCoins: number,
  kind: OfferedPaymentMethod["kind"] = "manual",
) {
  return {
    id,
    code: name.toLowerCase(),
    kind,
    name,
    instructions: "",
    currency: "EUR",
    rate: 100,
    minCoins,
    maxCoins,
    feeFixed: 0,
    feePercentBp: 0,
  } satisfies OfferedPaymentMethod;
}

/** The request form in the browser, as /dashboard/top-up?coins=… renders it. */
function renderForm(methods: OfferedPaymentMethod[], wantedCoins: number | null) {
  const Stub = createRoutesStub([
    {
      path: "/dashboard/top-up",
      Component: () => (
        <I18nProvider i18n={i18n}>
          <RequestForm methods={methods} purchaseOpen wantedCoins={wantedCoins} locale="en" />
        </I18nProvider>
      ),
    },
  ]);
  render(<Stub initialEntries={["/dashboard/top-up"]} />);
  return screen.getByLabelText<HTMLInputElement>("Or type a whole number of coins");
}

const bank = method(1, "Bank", 1, 1000);
const wallet = method(2, "Wallet", 5, 50);

describe("the request form reached from Add coins", () => {
  it("starts on the coins missing, rounded up to the first method's minimum, clamped to its maximum", () => {
    expect(renderForm([bank, wallet], 4).value).toBe("4");
    cleanup();
    expect(renderForm([wallet, bank], 4).value).toBe("5");
    cleanup();
    expect(renderForm([wallet, bank], 80).value).toBe("50");
    cleanup();
    // Without a shortfall: the usual amount, and no word about one.
    expect(renderForm([wallet, bank], null).value).toBe("10");
    expect(screen.queryByTestId("top-up-prefilled")).toBeNull();
  });

  it("starts again for the method picked, until the customer chooses an amount", () => {
    const coins = renderForm([bank, wallet], 4);
    expect(screen.getByTestId("top-up-prefilled").textContent).toContain(
      "Filled in with the coins you are missing",
    );
    fireEvent.click(screen.getByRole("radio", { name: /Wallet/ }));
    expect(coins.value).toBe("5");
    fireEvent.click(screen.getByRole("radio", { name: /Bank/ }));
    expect(coins.value).toBe("4");
    fireEvent.click(screen.getByRole("button", { name: "20" }));
    fireEvent.click(screen.getByRole("radio", { name: /Wallet/ }));
    expect(coins.value).toBe("20");
  });
});

describe("a method paid online", () => {
  it("sends the customer to its provider's page instead of asking for a request", () => {
    const card = method(3, "Card (YouCan Pay)", 1, 1000, "youcanpay");
    renderForm([bank, card], null);
    const intent = () => document.querySelector<HTMLInputElement>('input[name="intent"]')!.value;
    expect(intent()).toBe("request");
    expect(screen.getByRole("button", { name: "Request the top-up" })).toBeTruthy();
    expect(screen.queryByTestId("pay-online-help")).toBeNull();
    fireEvent.click(screen.getByRole("radio", { name: /YouCan Pay/ }));
    expect(intent()).toBe("payOnline");
    expect(screen.getByRole("button", { name: "Continue to payment" })).toBeTruthy();
    expect(screen.getByTestId("pay-online-help").textContent).toContain(
      "You pay on a secure payment page (Card (YouCan Pay))",
    );
  });
});
