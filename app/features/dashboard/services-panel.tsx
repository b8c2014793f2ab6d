import { useTranslation } from "~/i18n/use-translation";
import { useEffect, useRef, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Link } from "~/components/ui/link";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import type { CoinPurchaseWay } from "~/components/layout/coin-dialog";
import {
  badgeTone,
  canRenew,
  displayStatus,
  expiryPassed,
  SERVICE_STATUS_LABELS,
  servicesTabPath,
  type HostingService,
  type RenewalQuote,
} from "~/domain/hosting-services/hosting-services";
import { planChangePath } from "~/domain/hosting-services/plan-change";
import { BILLING_CYCLE_NAMES } from "~/domain/orders/orders";
import type { WaitingOrder } from "~/domain/customer-dashboard/customer-dashboard";
import { formatCoins, formatEuros } from "~/lib/money";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { dateTimeFormat, mediumDate } from "~/lib/intl-format";
import type { LifecycleSettings } from "~/domain/lifecycle/lifecycle";
import { FormAlert } from "~/components/ui/form-card";
import { Notice } from "~/components/ui/notice";
import { ratePercent } from "~/domain/invoices/invoices";
import { useRefreshWhile } from "~/components/ui/use-refresh-while";
import { Deadlines, ServerAddress, serverSettingUp } from "./service-details";
import { WaitingOrders } from "./orders-list";
import type { CancellationBadge } from "~/domain/hosting-services/cancellation";
import { CancelLink } from "./cancel-link";
import { ShortOfCoins } from "./short-of-coins";

export type ServiceRow = Pick<
  HostingService,
  | "id"
  | "name"
  | "serverName"
  | "billingCycle"
  | "cyclePriceCents"
  | "monthlyPriceCents"
  | "status"
  | "expiresAt"
  | "autoRenew"
  | "suspensionReason"
  | "panel"
> & {
  /** When it was suspended (its termination is counted from then). */
  suspendedAt?: string | null;
  /** What renewing it costs: its cycle price, with the VAT added when prices exclude it. */
  renewalPriceCents: number;
};

/** The lifecycle's settings the card's dates come from. */
export type LifecycleDates = Pick<LifecycleSettings, "enabled" | "graceDays" | "terminationDays">;

/** What the loader found for ?renew=: the confirmation to show, or why there is none. */
type RenewalView = { ok: true; quote: RenewalQuote } | { ok: false; error: MessageKey } | undefined;

/** How often the tab loads again while a server is being made on the game panel. */
export const SETTING_UP_REFRESH_MS = 3_000;

/** The services tab's address; `renew` asks to confirm that service's renewal (the anchor scrolls to it). */
const servicesHref = servicesTabPath;

/**
 * The step between "Renew" and the charge, rendered by the server (it works without JavaScript): the
 * price, the expiry now and after, the balance now and after; "Confirm renewal" posts the renewal, and
 * only that charges. A short balance shows what is missing and the way to add coins instead.
 */
function RenewalConfirmation({
  quote,
  renewKey,
  coinWay,
  locale,
}: {
  quote: RenewalQuote;
  renewKey: string | null;
  coinWay: CoinPurchaseWay;
  locale: string;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const { t: tCommon } = useTranslation();
  const busy = useNavigation().state !== "idle";
  const date = dateTimeFormat(locale, { dateStyle: "long" });
  // A balance is in coins, as the header and the cards write it (1 coin = €1.00); the price is in euros.
  const coins = (cents: number) => (
    <bdi>{tCommon("nav.coinBalance", { amount: formatCoins(cents, locale) })}</bdi>
  );
  const heading = useRef<HTMLHeadingElement>(null);
  // Reached by a client-side navigation, the step takes the focus (and the view), as a new page would.
  useEffect(() => {
    heading.current?.focus();
    heading.current?.scrollIntoView?.({ block: "center" });
  }, [quote.serviceId]);
  const { amounts } = quote;
  // With prices excluding VAT, the price, the VAT added and the total charged, as an order's summary.
  const vatAdded = !amounts.pricesIncludeVat && amounts.vatCents > 0;
  const euros = (cents: number) => <span dir="ltr">{formatEuros(cents, locale)}</span>;
  const rows: { term: string; value: ReactNode }[] = [
    {
      term: t("renew.price"),
      value: (
        <>
          {euros(vatAdded ? amounts.subtotalCents : quote.priceCents)} ·{" "}
          {tOrders(BILLING_CYCLE_NAMES[quote.billingCycle])}
        </>
      ),
    },
    ...(vatAdded
      ? [
          {
            term: tOrders("form.vat", { rate: ratePercent(amounts.vatRateBp, locale) }),
            value: euros(amounts.vatCents),
          },
          { term: t("renew.total"), value: euros(quote.priceCents) },
        ]
      : []),
    {
      term: t(quote.expired ? "renew.expiredOn" : "renew.currentExpiry"),
      value: date.format(new Date(quote.currentExpiresAt)),
    },
    { term: t("renew.newExpiry"), value: date.format(new Date(quote.newExpiresAt)) },
    {
      term: t("renew.balance"),
      value: coins(quote.balanceCents),
    },
  ];
  if (quote.balanceAfterCents !== null)
    rows.push({
      term: t("renew.balanceAfter"),
      value: coins(quote.balanceAfterCents),
    });
  return (
    <section
      id="renewal"
      aria-labelledby="renewal-title"
      className="grid gap-4 rounded-xl border-2 border-primary bg-background p-6 shadow-sm"
    >
      <h2 id="renewal-title" ref={heading} tabIndex={-1} className="text-xl font-semibold">
        {t("renew.title")}{" "}
        <span className="text-muted-foreground">
          <bdi>{quote.name}</bdi>{" "}
          <span dir="auto" className="user-text">
            {quote.serverName}
          </span>
        </span>
      </h2>
      <dl className="grid gap-2 text-sm sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        {rows.map(({ term, value }) => (
          <div key={term} className="flex flex-wrap justify-between gap-x-4 sm:contents">
            <dt className="text-muted-foreground">{term}</dt>
            <dd className="font-medium">{value}</dd>
          </div>
        ))}
      </dl>
      {quote.endsAtTerm ? <Notice tone="info">{t("renew.keepsService")}</Notice> : null}
      {quote.missingCents > 0 ? (
        <ShortOfCoins
          totalCents={quote.priceCents}
          missingCents={quote.missingCents}
          coinWay={coinWay}
          locale={locale}
        />
      ) : null}
      <div className="flex flex-wrap gap-2">
        {quote.missingCents === 0 && renewKey ? (
          <Form method="post" action={`${servicesHref()}?renew=${quote.serviceId}`}>
            <input type="hidden" name="intent" value="renew" />
            <input type="hidden" name="serviceId" value={quote.serviceId} />
            <input type="hidden" name="idempotencyKey" value={renewKey} />
            <input type="hidden" name="shownPrice" value={quote.priceCents} />
            <Button type="submit" disabled={busy}>
              {t("renew.confirm")}
            </Button>
          </Form>
        ) : null}
        <Button asChild variant="outline">
          <Link to={servicesHref()}>{t("renew.cancel")}</Link>
        </Button>
      </div>
    </section>
  );
}

/**
 * The service's automatic renewal from coins: what it is, and a button that turns it the other
 * way (a plain post, so it works without JavaScript).
 */
function AutoRenewSwitch({ service }: { service: Pick<ServiceRow, "id" | "name" | "autoRenew"> }) {
  const { t } = useTranslation("services");
  const busy = useNavigation().state !== "idle";
  return (
    <Form method="post" className="mt-1 flex flex-wrap items-center gap-2 text-sm">
      <input type="hidden" name="intent" value="auto-renew" />
      <input type="hidden" name="serviceId" value={service.id} />
      <input type="hidden" name="autoRenew" value={service.autoRenew ? "off" : "on"} />
      <span data-testid={`auto-renew-${service.id}`}>
        {service.autoRenew ? t("customer.autoRenewOn") : t("customer.autoRenewOff")}
      </span>
      <Button
        type="submit"
        size="sm"
        variant="outline"
        disabled={busy}
        aria-label={
          service.autoRenew
            ? t("customer.turnOffLabel", { service: service.name })
            : t("customer.turnOnLabel", { service: service.name })
        }
      >
        {service.autoRenew ? t("customer.turnOff") : t("customer.turnOn")}
      </Button>
    </Form>
  );
}

export function ServicesPanel({
  services,
  waitingOrders,
  renewal,
  renewKey,
  coinWay,
  locale,
  now,
  lifecycle,
  timeZone,
  approvalHours,
  error,
  cancellations = {},
}: {
  services: ServiceRow[];
  waitingOrders: WaitingOrder[];
  renewal: RenewalView;
  renewKey: string | null;
  /** How coins are bought now (the shell's): where a short balance's "Add coins" leads. */
  coinWay: CoinPurchaseWay;
  locale: string;
  /** The lifecycle's settings: when an expired service is suspended and a suspended one ended. */
  lifecycle: LifecycleDates;
  /** The site's time zone, the dates' (the settings' general.timeZone). */
  timeZone: string;
  /** How long approving an order usually takes (the settings' general.approvalHours). */
  approvalHours: number;
  /**
   * The loader's moment (ISO): each service's expiry is read against it, not this render's clock, so the
   * browser's hydration says what the server's page did even when an expiry passed in between.
   */
  now: string;
  error?: { message: MessageKey; missingCents?: number; totalCents?: number };
  /** The services with an open cancellation, by id: what their line says of it. */
  cancellations?: Readonly<Record<number, CancellationBadge>>;
}) {
  const { t } = useTranslation("services");
  const { t: tOrders } = useTranslation("orders");
  const message = useMessage();
  const date = mediumDate(locale);
  const clock = new Date(now);
  const pending = waitingOrders.some((order) => order.status === "pending");
  // A server being made (an order approved a moment ago): the tab follows it until its address is there.
  const settingUp = services.filter((service) => service.panel && serverSettingUp(service.panel));
  useRefreshWhile(
    settingUp.length > 0,
    SETTING_UP_REFRESH_MS,
    settingUp.map((service) => `${service.id}:${service.panel!.state}`).join(),
  );
  // A confirmation refused for a short balance comes back with the confirmation, which says it already.
  const shownInConfirmation =
    error?.message === "orders.errors.insufficientCoins" &&
    renewal?.ok === true &&
    renewal.quote.missingCents > 0;
  return (
    <div className="grid gap-6">
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
      {renewal && !renewal.ok && !error ? <FormAlert>{message(renewal.error)}</FormAlert> : null}
      {renewal?.ok ? (
        <RenewalConfirmation
          quote={renewal.quote}
          renewKey={renewKey}
          coinWay={coinWay}
          locale={locale}
        />
      ) : null}
      {waitingOrders.length > 0 ? (
        <WaitingOrders orders={waitingOrders} locale={locale} approvalHours={approvalHours} />
      ) : null}
      <Card>
        <CardHeader className="flex-row flex-wrap items-center justify-between gap-2">
          <CardTitle>{t("customer.title")}</CardTitle>
          <Button asChild size="sm">
            <Link to="/order">{t("customer.orderNew")}</Link>
          </Button>
        </CardHeader>
        <CardContent>
          {services.length === 0 ? (
            <p className="text-muted-foreground">
              {pending ? t("customer.emptyPending") : t("customer.empty")}
            </p>
          ) : (
            <ul className="divide-y">
              {services.map((service) => {
                const shown = displayStatus(service.status, service.expiresAt, clock);
                const expired = expiryPassed(service.expiresAt, clock);
                return (
                  <li
                    key={service.id}
                    className="flex flex-wrap items-center justify-between gap-3 py-3"
                  >
                    <div>
                      <p className="font-medium">
                        {service.name}{" "}
                        <span className="text-muted-foreground" dir="auto">
                          {service.serverName}
                        </span>
                      </p>
                      <p className="text-sm text-muted-foreground">
                        {t(expired ? "customer.expired" : "customer.expires", {
                          date: date.format(new Date(service.expiresAt)),
                        })}{" "}
                        · {tOrders(BILLING_CYCLE_NAMES[service.billingCycle])} ·{" "}
                        <span dir="ltr">{formatEuros(service.renewalPriceCents, locale)}</span>
                      </p>
                      <Deadlines
                        service={service}
                        shown={shown}
                        lifecycle={lifecycle}
                        locale={locale}
                        timeZone={timeZone}
                      />
                      {service.panel ? (
                        <ServerAddress
                          serviceId={service.id}
                          serverName={service.serverName}
                          panel={service.panel}
                        />
                      ) : null}
                      {service.status === "active" ? <AutoRenewSwitch service={service} /> : null}
                    </div>
                    <div className="flex flex-wrap items-center gap-3">
                      <Badge tone={badgeTone(shown)}>{t(SERVICE_STATUS_LABELS[shown])}</Badge>
                      {service.status === "active" ? (
                        <Link
                          to={planChangePath(service.id)}
                          aria-label={t("customer.changePlanFor", { service: service.name })}
                          className="text-sm underline"
                        >
                          {t("customer.changePlan")}
                        </Link>
                      ) : null}
                      <CancelLink service={service} badge={cancellations[service.id]} />
                      {canRenew(service.status, service.suspensionReason) ? (
                        // A link to the confirmation step: nothing is charged before "Confirm renewal".
                        <Button asChild size="sm" variant="outline">
                          <Link to={servicesHref(service.id)}>
                            {t("customer.renewFor", {
                              amount: formatEuros(service.renewalPriceCents, locale),
                            })}
                          </Link>
                        </Button>
                      ) : null}
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}
