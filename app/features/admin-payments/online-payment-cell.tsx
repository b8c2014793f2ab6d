import { useState } from "react";
import { Form } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { DialogFormButtons, DialogShell } from "~/components/ui/dialog";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import {
  isRefundFailure,
  minorToInput,
  ONLINE_STATE_LABELS,
  PAYMENT_PROBLEM_LABELS,
  REFUND_FAILURE_LABELS,
  REFUND_STATE_LABELS,
  refundableAmount,
  refundEffect,
  type QueuedOnlinePayment,
  type QueuedRefund,
} from "~/domain/payments/online-payment-views";
import { ONLINE_STATE_TONES } from "~/domain/payments/online-payments";
import type { PaymentCurrency } from "~/domain/payments/payment-methods";
import { formatMethodAmount } from "~/domain/payments/payment-methods";
import { PROVIDER_NAME_LABELS } from "~/domain/payments/providers/provider-settings";
import { parseEuroInput } from "~/lib/euro-input";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { formatCoins } from "~/lib/money";
import type { TopUpDecisionResult } from "./top-ups-queue";

// A top-up paid online on /admin/top-ups (docs/online-payments.md): the provider, its references, what
// was paid and given back, why it did not end in a credit, where the admin's refunds stand, and the
// Refund dialog.

const REFUND_TONES = {
  asked: "blue",
  pending: "blue",
  refunded: "green",
  refused: "red",
  manual: "yellow",
  failed: "red",
} as const;

function useAmount(locale: string) {
  return (minor: number, currency: string) =>
    formatMethodAmount(minor, currency as PaymentCurrency, locale);
}

/** One of the admin's refunds: where it stands, and what the admin must do when it was not made. */
function RefundLine({
  refund,
  payment,
  locale,
}: {
  refund: QueuedRefund;
  payment: QueuedOnlinePayment;
  locale: string;
}) {
  const { t } = useTranslation("payments");
  const amount = useAmount(locale)(refund.amount, payment.paidCurrency ?? payment.currency);
  const provider = t(PROVIDER_NAME_LABELS[payment.provider]);
  const reason =
    refund.state === "refused"
      ? (refund.detail ?? t("topUps.admin.online.noReason"))
      : refund.state === "failed" && isRefundFailure(refund.detail)
        ? t(REFUND_FAILURE_LABELS[refund.detail])
        : (refund.detail ?? "");
  return (
    <li className="grid justify-items-start gap-1" data-refund={refund.state}>
      <Badge tone={REFUND_TONES[refund.state]}>
        {t(REFUND_STATE_LABELS[refund.state], { amount, provider })}
      </Badge>
      {refund.state === "refused" || refund.state === "failed" ? (
        <span className="text-xs text-destructive" role="note">
          <bdi dir={refund.state === "refused" ? "ltr" : undefined}>{reason}</bdi>
        </span>
      ) : null}
      {refund.state === "manual" ? (
        <span className="text-xs font-medium" role="note">
          {t("topUps.admin.online.manualHint", { amount, provider })}
        </span>
      ) : null}
    </li>
  );
}

/** The "Payment" cell of a top-up paid online. */
export function OnlinePaymentCell({
  payment,
  locale,
}: {
  payment: QueuedOnlinePayment;
  locale: string;
}) {
  const { t } = useTranslation("payments");
  const amount = useAmount(locale);
  const currency = payment.paidCurrency ?? payment.currency;
  return (
    <div className="grid justify-items-start gap-1 text-sm" data-online-payment={payment.state}>
      <div className="flex flex-wrap items-center gap-1">
        <span className="font-medium">{t(PROVIDER_NAME_LABELS[payment.provider])}</span>
        <Badge tone={ONLINE_STATE_TONES[payment.state]}>
          {t(ONLINE_STATE_LABELS[payment.state])}
        </Badge>
      </div>
      {payment.problem ? (
        <span className="text-xs text-destructive">
          {t(PAYMENT_PROBLEM_LABELS[payment.problem])}
        </span>
      ) : null}
      {(payment.captureRef ?? payment.providerRef) ? (
        <span className="text-xs text-muted-foreground">
          {t("topUps.admin.online.reference")}{" "}
          <code className="break-all" dir="ltr">
            {payment.captureRef ?? payment.providerRef}
          </code>
        </span>
      ) : null}
      <span className="text-xs">
        {payment.paidAmount !== null
          ? t("topUps.admin.online.paid", { amount: amount(payment.paidAmount, currency) })
          : t("topUps.admin.online.nothingTaken", {
              amount: amount(payment.amount, payment.currency),
            })}
      </span>
      {payment.refundedAmount > 0 ? (
        <span className="text-xs">
          {t("topUps.admin.online.refunded", {
            amount: amount(payment.refundedAmount, currency),
          })}
        </span>
      ) : null}
      {payment.refunds.length > 0 ? (
        <ul className="grid gap-1" aria-label={t("topUps.admin.online.refunds")}>
          {payment.refunds.map((refund) => (
            <RefundLine key={refund.id} refund={refund} payment={payment} locale={locale} />
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The Refund dialog: the amount in the payment's currency, starting on what is left, and what it does
 * to the coins as it is typed (taken back in proportion, down to 0 and no further).
 */
export function RefundDialog({
  payment,
  reference,
  locale,
  result,
}: {
  payment: QueuedOnlinePayment;
  reference: string;
  locale: string;
  result?: TopUpDecisionResult;
}) {
  const { t } = useTranslation("payments");
  const message = useMessage();
  const busy = useBusy();
  const amount = useAmount(locale);
  const currency = payment.paidCurrency ?? payment.currency;
  const left = refundableAmount(payment);
  const refusal =
    result && !result.ok && result.intent === "refund" && result.paymentId === payment.id
      ? result
      : undefined;
  // A refusal of this payment's refund opens its dialog again, with the message on the field.
  const [open, setOpen] = useState(Boolean(refusal));
  const [typed, setTyped] = useState(minorToInput(left));
  const parsed = parseEuroInput(typed, left);
  const effect = refundEffect(payment, parsed.ok ? parsed.cents : 0);
  const id = `refund-${payment.id}-amount`;
  const error = refusal?.fieldErrors?.amount;
  const provider = t(PROVIDER_NAME_LABELS[payment.provider]);
  return (
    <DialogShell
      open={open}
      onOpenChange={setOpen}
      trigger={
        <Button
          variant="outline"
          size="sm"
          aria-label={t("topUps.admin.online.refundFor", { reference })}
        >
          {t("topUps.admin.online.refund")}
        </Button>
      }
      closeLabel={t("topUps.admin.online.close")}
      title={t("topUps.admin.online.refundFor", { reference })}
      description={t("topUps.admin.online.refundIntro", {
        provider,
        left: amount(left, currency),
      })}
    >
      {refusal && !error ? <ResultMessage result={refusal} /> : null}
      <Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value="refund" />
        <input type="hidden" name="paymentId" value={payment.id} />
        <Field
          id={id}
          label={t("topUps.admin.online.amount", { currency })}
          error={error ? message(error) : undefined}
          hint={
            <span data-refund-effect>
              {t("topUps.admin.online.effect", {
                wanted: formatCoins(effect.wanted, locale),
                balance: formatCoins(payment.balanceCents, locale),
                taken: formatCoins(effect.taken, locale),
              })}
              {effect.short > 0
                ? ` ${t("topUps.admin.online.effectShort", {
                    short: formatCoins(effect.short, locale),
                  })}`
                : ""}
            </span>
          }
        >
          <Input
            id={id}
            name="amount"
            inputMode="decimal"
            dir="ltr"
            autoComplete="off"
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            {...fieldAria(id, error, { hint: true })}
          />
        </Field>
        <div className="flex flex-wrap justify-end gap-2">
          <DialogFormButtons
            cancel={t("topUps.admin.online.cancel")}
            submit={t("topUps.admin.online.submit")}
            variant="destructive"
            busy={busy}
          />
        </div>
      </Form>
    </DialogShell>
  );
}
