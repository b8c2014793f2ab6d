import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { FormAlert } from "~/components/ui/form-card";
import { usePlanSpecs } from "~/components/ui/plan-specs";
import type { CoinPurchaseWay } from "~/components/layout/coin-dialog";
import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import {
  PLAN_CHANGE_DIRECTION_LABELS,
  planChangePath,
  type PlanChangePageData,
  type PlanOfChange,
} from "~/domain/hosting-services/plan-change";
import { BILLING_CYCLE_NAMES } from "~/domain/orders/orders";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { formatEuros } from "~/lib/money";
import { PlanChangeConfirmation } from "./plan-change-confirmation";
import { ShortOfCoins } from "./short-of-coins";

/** A refused post: its message and, for a short balance, what it costs and lacks. */
export interface PlanChangeError {
  message: MessageKey;
  missingCents?: number;
  totalCents?: number;
}

type LoadedPage = Extract<PlanChangePageData, { ok: true }>;

/** A plan's limits in the reader's words, one a line (RAM, disk, CPU, slots, as its card says them). */
function PlanLimits({ plan }: { plan: PlanOfChange }) {
  const specsOf = usePlanSpecs();
  const specs = specsOf(plan.limits);
  if (specs.length === 0) return null;
  return (
    <ul className="text-sm text-muted-foreground">
      {specs.map((spec) => (
        <li key={spec}>{spec}</li>
      ))}
    </ul>
  );
}

/**
 * /dashboard/services/:id/plan: the service's plan, the plans it may move to (each with what moving
 * now costs or gives back), and the confirmation of the one chosen, which alone posts the change. Works
 * without JavaScript: "Choose" is a link to the confirmation, the confirmation a plain form.
 */
export function PlanChangePage({
  page,
  changeKey,
  coinWay,
  locale,
  error,
}: {
  page: LoadedPage;
  changeKey: string | null;
  coinWay: CoinPurchaseWay;
  locale: string;
  error?: PlanChangeError;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const message = useMessage();
  const { service, current, choices, confirmation } = page;
  const cycle = tOrders(BILLING_CYCLE_NAMES[service.billingCycle]);
  // A post refused for a short balance comes back beside a confirmation that says it already.
  const shownInConfirmation =
    error?.message === "orders.errors.insufficientCoins" &&
    confirmation?.ok === true &&
    confirmation.quote.missingCents > 0;
  return (
    <div className="grid gap-6">
      <div className="grid gap-1">
        <h2 className="text-xl font-semibold">
          {t("planChange.title")}{" "}
          <span className="text-muted-foreground">
            <bdi>{service.name}</bdi>{" "}
            <span dir="auto" className="user-text">
              {service.serverName}
            </span>
          </span>
        </h2>
        <p className="text-sm text-muted-foreground">{t("planChange.intro")}</p>
      </div>
      {error && !shownInConfirmation ? (
        error.message === "orders.errors.insufficientCoins" ? (
          <ShortOfCoins
            totalCents={error.totalCents ?? 0}
            missingCents={error.missingCents ?? 0}
            coinWay={coinWay}
            locale={locale}
          />
        ) : (
          <FormAlert>{message(error.message)}</FormAlert>
        )
      ) : null}
      {confirmation && !confirmation.ok && !error ? (
        <FormAlert>{message(confirmation.error)}</FormAlert>
      ) : null}
      {confirmation?.ok ? (
        <PlanChangeConfirmation
          quote={confirmation.quote}
          changeKey={changeKey}
          coinWay={coinWay}
          locale={locale}
        />
      ) : null}
      <Card>
        <CardHeader>
          <CardTitle>{t("planChange.current")}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-2">
          <p className="font-medium">
            <bdi>{current?.name ?? service.name}</bdi>
          </p>
          <p className="text-sm text-muted-foreground">
            <span dir="ltr">{formatEuros(service.cyclePriceCents, locale)}</span> · {cycle}
          </p>
          {current ? <PlanLimits plan={current} /> : null}
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>{t("planChange.choices")}</CardTitle>
        </CardHeader>
        <CardContent>
          {!page.canChange ? (
            <p className="text-muted-foreground">{t("planChange.errors.cannotChange")}</p>
          ) : choices.length === 0 ? (
            <p className="text-muted-foreground">{t("planChange.none")}</p>
          ) : (
            <ul className="divide-y" data-testid="plan-choices">
              {choices.map((choice) => (
                <li
                  key={choice.productId}
                  className="flex flex-wrap items-center justify-between gap-3 py-3"
                >
                  <div className="grid gap-1">
                    <p className="flex flex-wrap items-center gap-2 font-medium">
                      <bdi>{choice.name}</bdi>
                      <Badge tone={choice.direction === "upgrade" ? "blue" : "grey"}>
                        {t(PLAN_CHANGE_DIRECTION_LABELS[choice.direction])}
                      </Badge>
                    </p>
                    <p className="text-sm text-muted-foreground">
                      <span dir="ltr">{formatEuros(choice.newCyclePriceCents, locale)}</span> ·{" "}
                      {cycle}
                    </p>
                    <PlanLimits plan={choice} />
                    <p className="text-sm">
                      {t(
                        choice.direction === "upgrade"
                          ? "planChange.chargeNow"
                          : "planChange.creditNow",
                        { amount: formatEuros(choice.amountCents, locale) },
                      )}
                    </p>
                  </div>
                  <Button asChild size="sm" variant="outline">
                    <Link
                      to={planChangePath(service.id, choice.productId)}
                      aria-label={t("planChange.chooseLabel", { plan: choice.name })}
                    >
                      {t("planChange.choose")}
                    </Link>
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
      <Button asChild variant="outline" className="w-fit">
        <Link to={servicesTabPath()}>{t("planChange.back")}</Link>
      </Button>
    </div>
  );
}
