import { useEffect, useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useFormAction } from "react-router";
import { Link } from "~/components/ui/link";
import { AddCoinsButton, coinPurchaseWay } from "~/components/layout/coin-dialog";
import type { ShellUser } from "~/components/layout/types";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "~/components/ui/card";
import { choicesOf, FormFields, type FieldSpec } from "~/components/ui/form-card";
import { formResultProps } from "~/components/ui/form-result";
import type { Product } from "~/domain/catalogue/catalogue";
import type { PublicSettings } from "~/domain/settings/settings";
import {
  BACKUP_IDS,
  BACKUP_LABELS,
  BACKUPS,
  BILLING_CYCLE_IDS,
  BILLING_CYCLE_LABELS,
  BILLING_CYCLES,
  MAX_SERVER_NAME_LENGTH,
  type Backup,
  type BillingCycle,
  formatShownPrices,
} from "~/domain/orders/orders";
import { slotChoicesFor } from "~/domain/orders/order-options";
import { orderSummary, type OrderVat, type SummaryLine } from "~/domain/orders/order-summary";
import { ratePercent } from "~/domain/invoices/invoices";
import { VOUCHER_CHECK_PATH, type VoucherCheckResult } from "~/domain/orders/voucher-check";
import { formatCoins, formatEuros } from "~/lib/money";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { ApprovalTime } from "~/components/ui/approval-time";
import { usePlanSpecs } from "~/components/ui/plan-specs";
import { useBusy } from "~/components/ui/use-busy";

export interface OrderFormState {
  fieldErrors?: Record<string, MessageKey>;
  formError?: MessageKey;
  missingCents?: number;
  totalCents?: number;
  minPurchaseCents?: number;
  loginUrl?: string;
  registerUrl?: string;
  /** The address must be verified first: the page that confirms it or sends the link again. */
  verifyEmailUrl?: string;
  values?: Record<string, string>;
}

/** The id of the message by the submit button; the form posts to it, so a page without script scrolls there. */
const STATUS_ID = "order-status";

export function OrderForm({
  products,
  selectedProductId,
  idempotencyKey,
  prefill,
  locations,
  registrationOpen,
  user,
  settings,
  locale,
  state,
  vat = { rateBp: 0, pricesIncludeVat: true },
}: {
  products: Product[];
  selectedProductId: number | null;
  idempotencyKey: string;
  /** The choices an order URL carried (orderUrlWith), for a form coming back from login or registration. */
  prefill: Record<string, string>;
  /**
   * The settings' server locations, the first the default: each its name in the list (what the order
   * stores) and its name in the reader's language (the loader's, locationName).
   */
  locations: readonly { value: string; label: string }[];
  registrationOpen: boolean;
  user: ShellUser | null;
  settings: PublicSettings | undefined;
  locale: string;
  state?: OrderFormState;
  /**
   * The VAT of the customer's next invoice (ADR 36): whether the prices shown include it, and the rate
   * of their billing country (0 for a visitor, or a country without one), which the total adds when
   * prices exclude it.
   */
  vat?: OrderVat;
}) {
  const { pricesIncludeVat } = vat;
  const { t } = useTranslation("orders");
  const message = useMessage();
  const planSpecsOf = usePlanSpecs();
  const submitting = useBusy();
  const values = state?.values ?? prefill;
  const errors = state?.fieldErrors ?? {};
  const [productId, setProductId] = useState<string>(
    values.productId ?? (selectedProductId ? String(selectedProductId) : ""),
  );
  const [cycle, setCycle] = useState<BillingCycle>(
    values.billingCycle && Object.hasOwn(BILLING_CYCLES, values.billingCycle)
      ? (values.billingCycle as BillingCycle)
      : "monthly",
  );
  const [backup, setBackup] = useState<Backup>(
    values.backup && Object.hasOwn(BACKUPS, values.backup) ? (values.backup as Backup) : "choliba",
  );
  const product = products.find((p) => String(p.id) === productId);
  const specs = product ? planSpecsOf(product.specs) : [];
  const slots = product ? slotChoicesFor(product) : null;
  const [playerSlots, setPlayerSlots] = useState<string>(() =>
    startingSlots(slots, values.playerSlots),
  );
  const [voucherCode, setVoucherCode] = useState<string>(values.voucherCode ?? "");
  const voucher = useVoucherCheck({
    enabled: Boolean(user),
    code: voucherCode,
    productId,
    cycle,
    backup,
  });
  // The same arithmetic the server charges with (quote), written out as lines that add up.
  const summary = product
    ? orderSummary({
        productPriceCents: product.priceCents,
        cycle,
        backup,
        voucher: voucher.applied,
        balanceCents: user?.coinBalanceCents ?? null,
        vat,
      })
    : null;
  const euros = (cents: number) => formatEuros(cents, locale);
  const coins = (cents: number) => formatCoins(cents, locale);
  // Controlled, like every select here: the row of selects is drawn anew when a plan with slots
  // replaces one without, and must not fall back to its defaults then.
  const [location, setLocation] = useState<string>(
    values.location && locations.some((each) => each.value === values.location)
      ? values.location
      : (locations[0]?.value ?? ""),
  );
  const [ddos, setDdos] = useState<string>(values.ddosProtection === "no" ? "no" : "yes");

  // The form's message stands by the submit button: after a submit it is brought into view and takes
  // the focus (the kit's formResultProps), so a tap on a phone never seems to do nothing.
  const firstFieldError = Object.values(errors)[0];
  const shownError = state?.formError ?? firstFieldError;
  const shortOfCoins = state?.formError === "orders.errors.insufficientCoins";
  // "Add coins" where the customer learns that coins are short, after a refused order or before any:
  // the top-up form with what is missing filled in while a payment method is open, else the coins page.
  const coinWay = user && settings ? coinPurchaseWay(settings, user) : "closed";
  const action = useFormAction();

  return (
    <main className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("form.heading")}</h1>
      <p className="mt-2 text-muted-foreground">{t("form.subheading")}</p>

      {/* One grid for fields, summary and button: on a phone the summary comes right above the button,
          on a wide screen it stands beside both. */}
      <Form
        method="post"
        action={`${action}#${STATUS_ID}`}
        className="mt-6 grid gap-5 lg:grid-cols-[1fr_22rem] lg:gap-x-8"
        noValidate
      >
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <input type="hidden" name="shownPrices" value={formatShownPrices(products)} />
        {/* The VAT the total below adds: placeOrder refuses a different one rather than charge it. */}
        <input type="hidden" name="shownVatRate" value={pricesIncludeVat ? 0 : vat.rateBp} />
        <div className="grid min-w-0 content-start gap-5 lg:col-start-1">
          <FormFields
            errors={errors}
            // Automatic renewal is on for a new order; a refused submit keeps what was chosen.
            checked={{ autoRenew: state ? values.autoRenew === "on" : values.autoRenew !== "off" }}
            fields={[
              {
                kind: "select",
                name: "productId",
                label: t("form.service"),
                variant: "validated",
                value: productId,
                onChange: (event) => {
                  setProductId(event.target.value);
                  const next = products.find((p) => String(p.id) === event.target.value);
                  setPlayerSlots(startingSlots(next ? slotChoicesFor(next) : null, undefined));
                },
                required: true,
                options: [
                  { value: "", label: t("form.chooseService") },
                  ...products.map((p) => ({
                    value: String(p.id),
                    label: (
                      <>
                        {p.name} — {t("form.perMonth", { amount: euros(p.priceCents) })}
                      </>
                    ),
                  })),
                ],
              },
              {
                kind: "row",
                className: "grid gap-5 sm:grid-cols-2",
                fields: [
                  {
                    kind: "select",
                    name: "billingCycle",
                    label: t("form.billingCycle"),
                    variant: "validated",
                    value: cycle,
                    onChange: (event) => setCycle(event.target.value as BillingCycle),
                    options: choicesOf(BILLING_CYCLE_IDS, (id) => t(BILLING_CYCLE_LABELS[id])),
                  },
                  {
                    kind: "select",
                    name: "location",
                    label: t("form.location"),
                    variant: "validated",
                    value: location,
                    onChange: (event) => setLocation(event.target.value),
                    // The admin's names in the reader's language (settings, "Server locations").
                    options: locations,
                  },
                  {
                    kind: "select",
                    name: "ddosProtection",
                    label: t("form.ddosProtection"),
                    variant: "validated",
                    value: ddos,
                    onChange: (event) => setDdos(event.target.value),
                    options: [
                      { value: "yes", label: t("form.yes") },
                      { value: "no", label: t("form.no") },
                    ],
                  },
                  ...(slots
                    ? [
                        {
                          kind: "select",
                          name: "playerSlots",
                          label: t("form.playerSlots"),
                          variant: "validated",
                          value: playerSlots,
                          onChange: (event) => setPlayerSlots(event.target.value),
                          options: choicesOf(slots.choices.map(String), (count) => count),
                        } satisfies FieldSpec,
                      ]
                    : []),
                  {
                    kind: "select",
                    name: "backup",
                    label: t("form.backup"),
                    variant: "validated",
                    value: backup,
                    onChange: (event) => setBackup(event.target.value as Backup),
                    options: choicesOf(BACKUP_IDS, (id) =>
                      BACKUPS[id] > 0
                        ? t("form.paidOption", {
                            name: t(BACKUP_LABELS[id]),
                            amount: euros(BACKUPS[id]),
                          })
                        : t(BACKUP_LABELS[id]),
                    ),
                  },
                ],
              },
              {
                kind: "input",
                name: "serverName",
                label: t("form.serverName"),
                required: true,
                maxLength: MAX_SERVER_NAME_LENGTH,
                defaultValue: values.serverName,
                dir: "auto",
              },
              {
                kind: "input",
                name: "voucherCode",
                label: t("form.voucherCode"),
                maxLength: 40,
                value: voucherCode,
                onChange: (event) => setVoucherCode(event.target.value),
                dir: "ltr",
                autoCapitalize: "characters",
              },
              {
                kind: "custom",
                key: "voucher-status",
                content: (
                  <p
                    role="status"
                    data-testid="voucher-status"
                    className={
                      voucher.refusal
                        ? "-mt-3 text-sm text-red-700"
                        : "-mt-3 text-sm text-muted-foreground empty:hidden"
                    }
                  >
                    {voucher.checking
                      ? t("form.voucherChecking")
                      : voucher.applied && summary
                        ? t("form.voucherApplied", {
                            code: voucher.applied.code,
                            amount: euros(summary.price.voucherDiscountCents),
                          })
                        : voucher.refusal
                          ? message(voucher.refusal.error, {
                              amount: euros(
                                "minPurchaseCents" in voucher.refusal
                                  ? (voucher.refusal.minPurchaseCents ?? 0)
                                  : 0,
                              ),
                            })
                          : null}
                  </p>
                ),
              },
              {
                kind: "switch",
                name: "autoRenew",
                label: t("form.autoRenew"),
                hint: t("form.autoRenewHint"),
              },
            ]}
          />
        </div>

        <aside className="lg:col-start-2 lg:row-span-2 lg:row-start-1">
          <Card className="lg:sticky lg:top-24">
            <CardHeader>
              <CardTitle>{t("form.summary")}</CardTitle>
            </CardHeader>
            <CardContent className="grid gap-3 text-sm" aria-live="polite">
              {product && summary ? (
                <>
                  <p className="font-medium wrap-anywhere">
                    <bdi>{product.name}</bdi>
                  </p>
                  {specs.length > 0 ? (
                    <p className="text-muted-foreground" data-testid="plan-specs">
                      {specs.join(" · ")}
                    </p>
                  ) : null}
                  {summary.lines.map((line) => (
                    <SummaryRow key={line.kind} line={line} locale={locale} />
                  ))}
                  {voucherCode.trim() && !voucher.applied && !voucher.refusal ? (
                    <p className="text-muted-foreground">{t("form.voucherNote")}</p>
                  ) : null}
                </>
              ) : (
                <p className="text-muted-foreground">{t("form.chooseService")}</p>
              )}
              <p className="text-muted-foreground">
                {t("form.paidWithCoins", { rate: formatEuros(100, locale) })}
              </p>
              {/* Every order waits for the team's approval: how long that usually takes. */}
              {settings ? <ApprovalTime hours={settings.general.approvalHours} /> : null}
              <p className="text-muted-foreground" data-testid="vat-note">
                {pricesIncludeVat ? t("form.vatIncluded") : t("form.vatExcluded")}
              </p>
              {summary && summary.amounts.pricesIncludeVat && summary.amounts.vatCents > 0 ? (
                <p className="text-muted-foreground" data-testid="vat-included">
                  {t("form.vatIncludedAmount", {
                    amount: euros(summary.amounts.vatCents),
                    rate: ratePercent(summary.amounts.vatRateBp, locale),
                  })}
                </p>
              ) : null}
              {user ? <p>{t("form.balance", { amount: coins(user.coinBalanceCents) })}</p> : null}
              {typeof summary?.balanceAfterCents === "number" ? (
                <p data-testid="balance-after">
                  {t("form.balanceAfter", { amount: coins(summary.balanceAfterCents) })}
                </p>
              ) : null}
            </CardContent>
          </Card>
        </aside>

        <div className="grid min-w-0 content-start gap-3 self-start lg:col-start-1">
          {shownError ? (
            <div
              id={STATUS_ID}
              {...formResultProps}
              role="alert"
              data-testid="order-error"
              className="grid scroll-mt-24 gap-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-700 focus:outline-2 focus:outline-offset-2 focus:outline-red-700"
            >
              <p>
                {message(shownError, {
                  missing: euros(state?.missingCents ?? 0),
                  total: euros(state?.totalCents ?? 0),
                  amount: euros(state?.minPurchaseCents ?? 0),
                })}
              </p>
              {state?.loginUrl ? (
                <>
                  <p>{registrationOpen && state.registerUrl ? t("form.accountChoice") : null}</p>
                  <div className="flex flex-wrap gap-2">
                    <Button asChild size="sm" className="w-fit">
                      <Link to={state.loginUrl}>{t("form.login")}</Link>
                    </Button>
                    {state.registerUrl ? (
                      <Button asChild size="sm" variant="outline" className="w-fit">
                        <Link to={state.registerUrl}>{t("form.register")}</Link>
                      </Button>
                    ) : null}
                  </div>
                </>
              ) : null}
              {state?.verifyEmailUrl ? (
                <Button asChild size="sm" className="w-fit">
                  <Link to={state.verifyEmailUrl}>{message("auth.verify.goConfirm")}</Link>
                </Button>
              ) : null}
              {shortOfCoins ? (
                <AddCoinsButton way={coinWay} missingCents={state?.missingCents} />
              ) : null}
            </div>
          ) : null}
          {/* Before any submit: the balance is known, so a shortfall is said where the tap would be. */}
          {user && summary && summary.shortfallCents && !shortOfCoins ? (
            <div
              data-testid="order-shortfall"
              className="grid gap-3 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
            >
              <p>
                {t("form.shortfall", {
                  balance: coins(user.coinBalanceCents),
                  missing: coins(summary.shortfallCents),
                })}
              </p>
              <AddCoinsButton way={coinWay} missingCents={summary.shortfallCents} />
            </div>
          ) : null}
          <Button
            type="submit"
            size="lg"
            disabled={submitting || !productId}
            aria-busy={submitting}
          >
            {submitting ? t("form.submitting") : t("form.submit")}
          </Button>
        </div>
      </Form>
    </main>
  );
}

/** The slot count a form starts on: the one asked for when the plan offers it, else the plan's own. */
function startingSlots(
  slots: ReturnType<typeof slotChoicesFor>,
  asked: string | undefined,
): string {
  if (!slots) return "";
  const wanted = Number(asked);
  return String(slots.choices.includes(wanted) ? wanted : slots.defaultSlots);
}

type VoucherRefusal = Extract<VoucherCheckResult, { ok: false }>;

/**
 * Checks the voucher code as it is typed (a pause of 400 ms after the last key), for the plan, cycle and
 * backup chosen: the discount the server would give now, or why not. Visitors are not asked (the check is
 * for signed-in customers); an answer that does not come leaves the check to the order itself.
 */
function useVoucherCheck(input: {
  enabled: boolean;
  code: string;
  productId: string;
  cycle: BillingCycle;
  backup: Backup;
}): {
  checking: boolean;
  applied: { code: string; discountCents: number } | null;
  refusal: VoucherRefusal | null;
} {
  const code = input.code.trim();
  const url =
    input.enabled && code && input.productId
      ? `${VOUCHER_CHECK_PATH}?${new URLSearchParams({
          code,
          product: input.productId,
          billingCycle: input.cycle,
          backup: input.backup,
        }).toString()}`
      : null;
  const [answer, setAnswer] = useState<{ url: string; result: VoucherCheckResult | null } | null>(
    null,
  );
  useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetch(url, { signal: controller.signal, headers: { Accept: "application/json" } })
        .then((response) => response.json() as Promise<VoucherCheckResult>)
        .then((result) => setAnswer({ url, result }))
        .catch(() => {
          if (!controller.signal.aborted) setAnswer({ url, result: null });
        });
    }, 400);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [url]);
  const result = url && answer?.url === url ? answer.result : undefined;
  return {
    checking: Boolean(url) && result === undefined,
    applied: result?.ok ? { code: result.code, discountCents: result.discountCents } : null,
    // Too many checks is no verdict on the code: the order checks it.
    refusal: result && !result.ok && result.kind !== "limited" ? result : null,
  };
}

function SummaryRow({ line, locale }: { line: SummaryLine; locale: string }) {
  const { t } = useTranslation("orders");
  const euros = (cents: number) => formatEuros(cents, locale);
  const amount = line.amountCents < 0 ? `−${euros(-line.amountCents)}` : euros(line.amountCents);
  let label: string;
  switch (line.kind) {
    case "monthly":
      label = t("form.pricePerMonth");
      break;
    case "period":
      label = t("form.period", { amount: euros(line.monthlyCents), count: line.months });
      break;
    case "cycleDiscount":
      label = t("form.cycleDiscount");
      break;
    case "voucher":
      label = t("form.voucherLine", { code: line.code });
      break;
    case "setupFee":
      label = t("form.setupFee");
      break;
    case "vat":
      label = t("form.vat", { rate: ratePercent(line.rateBp, locale) });
      break;
    case "total":
      label = t("form.total");
      break;
  }
  const total = line.kind === "total";
  return (
    <div
      data-testid={`summary-${line.kind}`}
      className={
        total
          ? "flex justify-between gap-4 border-t pt-3 text-base font-bold"
          : "flex justify-between gap-4"
      }
    >
      <span>{label}</span>
      <span dir="ltr" className="shrink-0" data-testid={total ? "order-total" : undefined}>
        {amount}
      </span>
    </div>
  );
}
