import { useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { parseCoinAmount, previewAdjustment } from "~/domain/coins/coins";
import { formatCoins } from "~/lib/money";

/** Spec section 5: amount (negative removes) and a reason, with the 'New total' previewed as you type. */
export function CoinAdjustForm({
  userId,
  idempotencyKey,
  name,
  balanceCents,
  locale,
}: {
  userId: string;
  /** The form's key: a replayed post changes the balance once (ADR 10). */
  idempotencyKey: string;
  name: string;
  balanceCents: number;
  locale: string;
}) {
  const { t } = useTranslation("coins");
  const busy = useNavigation().state !== "idle";
  const [amount, setAmount] = useState("");
  const cents = parseCoinAmount(amount);
  const preview = cents === null ? null : previewAdjustment(balanceCents, cents);
  const id = `coins-${userId}`;
  return (
    <Form method="post" className="grid gap-3" aria-label={t("admin.adjustFor", { name })}>
      <input type="hidden" name="intent" value="coins" />
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <p className="text-sm">
        {t("admin.currentTotal", { amount: formatCoins(balanceCents, locale) })}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id={`${id}-amount`} label={t("admin.amount")}>
          <Input
            id={`${id}-amount`}
            name="amount"
            inputMode="decimal"
            dir="ltr"
            required
            value={amount}
            onChange={(event) => setAmount(event.target.value)}
          />
        </Field>
        <Field id={`${id}-reason`} label={t("admin.reason")}>
          <Input id={`${id}-reason`} name="reason" required maxLength={500} />
        </Field>
      </div>
      <p className="text-sm font-medium" aria-live="polite" data-testid="new-total">
        {t("admin.newTotal", {
          amount: formatCoins(preview?.newTotalCents ?? balanceCents, locale),
        })}
      </p>
      {preview?.clamped ? (
        <p className="text-sm text-muted-foreground">
          {t("admin.clampNote", { amount: formatCoins(-preview.appliedCents, locale) })}
        </p>
      ) : null}
      {preview?.overMaximum ? (
        <p className="text-sm text-destructive">{t("errors.balanceTooHigh")}</p>
      ) : null}
      <Button type="submit" size="sm" className="w-fit" disabled={busy}>
        {t("admin.save")}
      </Button>
    </Form>
  );
}
