import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { TitledCard } from "~/components/ui/card";
import { DetailList } from "~/components/ui/detail-list";
import { Link } from "~/components/ui/link";
import { Notice } from "~/components/ui/notice";
import { PageHeading } from "~/components/ui/page-heading";
import { useRefreshWhile } from "~/components/ui/use-refresh-while";
import { formatMethodAmount, type PaymentCurrency } from "~/domain/payments/payment-methods";
import {
  ONLINE_STATE_TONES,
  PAYMENT_RETURN_SAYS,
  PAYMENT_RETURN_STATE_LABELS,
  type OnlinePaymentState,
} from "~/domain/payments/online-payments";
import { TOP_UP_PAGE } from "~/domain/payments/top-ups";
import { useTranslation } from "~/i18n/use-translation";
import { formatCoins } from "~/lib/money";

/** What the page of a payment's return shows: the customer's own payment only. */
export interface OnlinePaymentPageView {
  reference: string;
  /** The method's name in the customer's language ("PayPal or card"). */
  methodName: string;
  state: OnlinePaymentState;
  /** Minor units of `currency`: what was asked. */
  amount: number;
  currency: PaymentCurrency;
  coins: number;
  /** Once credited: the coins added and the balance after, in cents. */
  creditedCoins: number | null;
  balanceCents: number | null;
  /** The payment receipt's number once credited. */
  receiptNumber: string | null;
  /** The customer came back through the provider's "cancel" while nothing was decided yet. */
  leftCheckout: boolean;
}

/** How often the page asks again while the provider has not confirmed. */
export const PAYMENT_REFRESH_MS = 2_000;

/**
 * /dashboard/top-up/payments/:id, where a provider sends the customer back: the payment's state,
 * followed while it is pending (the worker asks the provider; this page never does), then the coins.
 */
export function OnlinePaymentPage({
  payment,
  locale,
}: {
  payment: OnlinePaymentPageView;
  locale: string;
}) {
  const { t } = useTranslation("payments");
  useRefreshWhile(payment.state === "pending", PAYMENT_REFRESH_MS, payment.state);
  const state = payment.state;
  return (
    // The site layout leaves the page's own landmark and margins to it, as the top-up page has them.
    <main className="mx-auto grid w-full max-w-3xl min-w-0 gap-6 px-4 py-10">
      <PageHeading
        title={t("paymentReturn.title")}
        intro={t("paymentReturn.intro", { method: payment.methodName })}
        parent={{ to: TOP_UP_PAGE, label: t("paymentReturn.back") }}
      />
      <TitledCard title={t("paymentReturn.paymentTitle", { reference: payment.reference })}>
        <div className="grid gap-4" aria-live="polite" data-payment-state={state}>
          <p className="flex flex-wrap items-center gap-2">
            <Badge tone={ONLINE_STATE_TONES[state]}>{t(PAYMENT_RETURN_STATE_LABELS[state])}</Badge>
          </p>
          <p className="text-sm" data-testid="payment-says">
            {state === "pending" && payment.leftCheckout
              ? t("paymentReturn.says.left")
              : t(PAYMENT_RETURN_SAYS[state], { method: payment.methodName })}
          </p>
          <DetailList
            className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm"
            details={[
              {
                term: t("paymentReturn.amount"),
                value: formatMethodAmount(payment.amount, payment.currency, locale),
                dir: "ltr",
                className: "justify-self-start",
              },
              {
                term: t("paymentReturn.coins"),
                value: String(payment.creditedCoins ?? payment.coins),
              },
              payment.balanceCents !== null
                ? {
                    term: t("paymentReturn.balance"),
                    value: formatCoins(payment.balanceCents, locale),
                    id: "payment-balance",
                  }
                : null,
            ]}
          />
          {state === "paid" && payment.receiptNumber ? (
            <p className="text-sm">
              <Link
                className="text-primary underline-offset-4 hover:underline"
                to={`/invoices/${encodeURIComponent(payment.receiptNumber)}`}
              >
                {t("paymentReturn.receipt", { number: payment.receiptNumber })}
              </Link>
            </p>
          ) : null}
          {state === "pending" ? (
            <Notice tone="info">{t("paymentReturn.waitHelp")}</Notice>
          ) : (
            <div className="flex flex-wrap gap-2">
              {state === "paid" ? (
                <Button asChild>
                  <Link to="/order">{t("paymentReturn.order")}</Link>
                </Button>
              ) : null}
              {state === "failed" || state === "cancelled" ? (
                <Button asChild>
                  <Link to={TOP_UP_PAGE}>{t("paymentReturn.tryAgain")}</Link>
                </Button>
              ) : null}
              <Button asChild variant="outline">
                <Link to="/dashboard/billing">{t("paymentReturn.billing")}</Link>
              </Button>
            </div>
          )}
        </div>
      </TitledCard>
    </main>
  );
}
