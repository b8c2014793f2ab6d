import { AddCoinsButton, type CoinPurchaseWay } from "~/components/layout/coin-dialog";
import { formResultProps } from "~/components/ui/form-result";
import { useMessage } from "~/i18n/use-message";
import { formatEuros } from "~/lib/money";

/**
 * "Not enough coins: this costs … and you need … more." with "Add coins" beside it, as a renewal's and
 * a change of plan's confirmation say it: the top-up form with what is missing filled in while a
 * payment method is open, else the coins page.
 */
export function ShortOfCoins({
  totalCents,
  missingCents,
  coinWay,
  locale,
}: {
  totalCents: number;
  missingCents: number;
  coinWay: CoinPurchaseWay;
  locale: string;
}) {
  const message = useMessage();
  return (
    <div
      role="alert"
      {...formResultProps}
      className="flex flex-wrap items-center justify-between gap-3 rounded-md bg-red-50 p-3 text-sm text-red-700"
    >
      <p>
        {message("orders.errors.insufficientCoins", {
          total: formatEuros(totalCents, locale),
          missing: formatEuros(missingCents, locale),
        })}
      </p>
      <AddCoinsButton way={coinWay} missingCents={missingCents} />
    </div>
  );
}
