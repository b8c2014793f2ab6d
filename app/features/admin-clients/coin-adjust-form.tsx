import { useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { FormFields } from "~/components/ui/form-card";
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
  return (
    <Form method="post" className="grid gap-3" aria-label={t("admin.adjustFor", { name })}>
      <input type="hidden" name="intent" value="coins" />
      <input type="hidden" name="userId" value={userId} />
      <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
      <p className="text-sm">
        {t("admin.currentTotal", { amount: formatCoins(balanceCents, locale) })}
      </p>
      <FormFields
        idPrefix={`coins-${userId}`}
        fields={[
          {
            kind: "row",
            className: "grid gap-3 sm:grid-cols-2",
            fields: [
              {
                kind: "input",
                name: "amount",
                label: t("admin.amount"),
                inputMode: "decimal",
                dir: "ltr",
                required: true,
                value: amount,
                onChange: (event) => setAmount(event.target.value),
              },
              {
                kind: "input",
                name: "reason",
                label: t("admin.reason"),
                required: true,
                maxLength: 500,
              },
            ],
          },
        ]}
      />
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
