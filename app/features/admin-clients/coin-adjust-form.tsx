import { useState } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { FormFields } from "~/components/ui/form-card";
import { FreshProofField, proofAnswerOf } from "~/components/ui/fresh-proof-field";
import { parseCoinAmount, previewAdjustment } from "~/domain/coins/coins";
import { coinChangeNeedsProof } from "~/domain/staff/fresh-proof";
import { formatCoins } from "~/lib/money";
import { useBusy } from "~/components/ui/use-busy";

/**
 * Spec section 5: amount (negative removes) and a reason, with the 'New total' previewed as you type.
 * An amount above the threshold (`proof.thresholdCoins`) asks for the password or a code first while
 * the session's proof of identity is stale; a refusal that asked for it shows the form as typed.
 */
export function CoinAdjustForm({
  userId,
  idempotencyKey,
  name,
  balanceCents,
  locale,
  proof,
  refusal,
}: {
  userId: string;
  /** The form's key: a replayed post changes the balance once (ADR 10). */
  idempotencyKey: string;
  name: string;
  balanceCents: number;
  locale: string;
  proof: { fresh: boolean; thresholdCoins: number };
  /** The last post's refusal of this form, if any. */
  refusal?: object;
}) {
  const { t } = useTranslation("coins");
  const busy = useBusy();
  const asked = proofAnswerOf(refusal);
  const [amount, setAmount] = useState(asked?.values?.amount ?? "");
  const cents = parseCoinAmount(amount);
  const proofNeeded = !proof.fresh && coinChangeNeedsProof(cents ?? 0, proof.thresholdCoins);
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
                defaultValue: asked?.values?.reason,
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
      <FreshProofField id={`coins-${userId}-proof`} needed={proofNeeded} result={asked} />
      <Button type="submit" size="sm" className="w-fit" disabled={busy}>
        {t("admin.save")}
      </Button>
    </Form>
  );
}
