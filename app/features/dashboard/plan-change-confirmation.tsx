import { useEffect, useRef, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { usePlanSpecs } from "~/components/ui/plan-specs";
import type { CoinPurchaseWay } from "~/components/layout/coin-dialog";
import { planChangePath, type PlanChangeQuote } from "~/domain/hosting-services/plan-change";
import { ratePercent } from "~/domain/invoices/invoices";
import { BILLING_CYCLE_NAMES } from "~/domain/orders/orders";
import { dateTimeFormat } from "~/lib/intl-format";
import { formatCoins, formatEuros } from "~/lib/money";
import { ShortOfCoins } from "./short-of-coins";

/**
 * The step between choosing a plan and the change, rendered by the server (it works without
 * JavaScript), as the renewal's confirmation is: the plans, the amount charged or credited (with the VAT
 * when prices exclude it), the period it covers, the new limits and price, the balance now and after.
 * Only "Confirm" posts the change; a short balance shows what is missing and the way to add coins.
 */
export function PlanChangeConfirmation({
  quote,
  changeKey,
  coinWay,
  locale,
}: {
  quote: PlanChangeQuote;
  changeKey: string | null;
  coinWay: CoinPurchaseWay;
  locale: string;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const { t: tCommon } = useTranslation();
  const specsOf = usePlanSpecs();
  const busy = useNavigation().state !== "idle";
  const date = dateTimeFormat(locale, { dateStyle: "long" });
  const heading = useRef<HTMLHeadingElement>(null);
  // Reached by a client-side navigation, the step takes the focus (and the view), as a new page would.
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: "center" });
  }, [quote.to.productId]);
  const { amounts } = quote;
  const upgrade = quote.direction === "upgrade";
  const vatAdded = !amounts.pricesIncludeVat && amounts.vatCents > 0;
  const euros = (cents: number) => <span dir="ltr">{formatEuros(cents, locale)}</span>;
  const coins = (cents: number) => (
    <bdi>{tCommon("nav.coinBalance", { amount: formatCoins(cents, locale) })}</bdi>
  );
  const specs = specsOf(quote.to.limits);
  const cycle = tOrders(BILLING_CYCLE_NAMES[quote.billingCycle]);
  const rows: { term: string; value: ReactNode; testId?: string }[] = [
    { term: t("planChange.from"), value: <bdi>{quote.from.name}</bdi> },
    { term: t("planChange.to"), value: <bdi>{quote.to.name}</bdi> },
    {
      term: t("planChange.period"),
      value: t("planChange.periodValue", {
        from: date.format(new Date(quote.fromAt)),
        until: date.format(new Date(quote.expiresAt)),
      }),
    },
    ...(vatAdded
      ? [
          { term: t("planChange.difference"), value: euros(amounts.subtotalCents) },
          {
            term: tOrders("form.vat", { rate: ratePercent(amounts.vatRateBp, locale) }),
            value: euros(amounts.vatCents),
          },
        ]
      : []),
    {
      term: t(upgrade ? "planChange.charged" : "planChange.credited"),
      value: euros(quote.amountCents),
      testId: "plan-change-amount",
    },
    {
      term: t("planChange.newLimits"),
      value:
        specs.length > 0 ? (
          <ul data-testid="plan-change-limits">
            {specs.map((spec) => (
              <li key={spec}>{spec}</li>
            ))}
          </ul>
        ) : (
          "-"
        ),
    },
    {
      term: t("planChange.newPrice"),
      value: (
        <>
          {euros(quote.newCyclePriceCents)} · {cycle}
        </>
      ),
    },
    { term: t("planChange.expiry"), value: date.format(new Date(quote.expiresAt)) },
    { term: t("renew.balance"), value: coins(quote.balanceCents) },
  ];
  if (quote.balanceAfterCents !== null)
    rows.push({
      term: t("planChange.balanceAfter"),
      value: coins(quote.balanceAfterCents),
      testId: "plan-change-balance-after",
    });
  return (
    <section
      id="confirm"
      aria-labelledby="plan-change-title"
      className="grid gap-4 rounded-xl border-2 border-primary bg-background p-6 shadow-sm"
    >
      <h2 id="plan-change-title" ref={heading} tabIndex={-1} className="text-xl font-semibold">
        {t("planChange.confirmTitle", { plan: quote.to.name })}
      </h2>
      <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        {rows.map(({ term, value, testId }) => (
          <div key={term} className="flex flex-wrap justify-between gap-x-4 sm:contents">
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="font-medium" data-testid={testId}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      {quote.missingCents > 0 ? (
        <ShortOfCoins
          totalCents={quote.amountCents}
          missingCents={quote.missingCents}
          coinWay={coinWay}
          locale={locale}
        />
      ) : null}
      <div className="flex flex-wrap gap-2">
        {quote.missingCents === 0 && changeKey ? (
          <Form
            method="post"
            action={`${planChangePath(quote.serviceId)}?to=${quote.to.productId}`}
          >
            <input type="hidden" name="intent" value="change-plan" />
            <input type="hidden" name="toProductId" value={quote.to.productId} />
            <input type="hidden" name="idempotencyKey" value={changeKey} />
            <input type="hidden" name="shownAmount" value={quote.amountCents} />
            <input type="hidden" name="shownDirection" value={quote.direction} />
            <Button type="submit" disabled={busy}>
              {t(upgrade ? "planChange.confirmUpgrade" : "planChange.confirmDowngrade")}
            </Button>
          </Form>
        ) : null}
        <Button asChild variant="outline">
          <Link to={planChangePath(quote.serviceId)}>{t("planChange.cancel")}</Link>
        </Button>
      </div>
    </section>
  );
}
