import { LEDGER_KIND_LABELS, type LedgerKind } from "~/domain/coins/coins";
import type { CustomerLedgerEntry } from "~/domain/customer-dashboard/customer-dashboard";
import { useTranslation } from "~/i18n/use-translation";
import { formatCoins } from "~/lib/money";

// How the client page and the ticket page's sidebar write a coin movement.

/**
 * A coin movement's reason. Today the ledger stores it as text; this is the one place that writes it, so
 * reasons stored as message keys with their parameters (issue 21, item 9) are rendered by changing this
 * function alone.
 */
export function LedgerReason({ entry }: { entry: Pick<CustomerLedgerEntry, "reason"> }) {
  return <span dir="auto">{entry.reason}</span>;
}

/** A signed amount of coins: "+5.00" for a credit, "−5.00" for a debit. */
export function signedCoins(cents: number, locale: string): string {
  const text = formatCoins(Math.abs(cents), locale);
  return cents > 0 ? `+${text}` : cents < 0 ? `−${text}` : text;
}

/** The ledger's kinds in words (coins namespace); a kind without a label is shown as stored. */
export function useLedgerKind() {
  const { t } = useTranslation("coins");
  return (kind: string) =>
    kind in LEDGER_KIND_LABELS ? t(LEDGER_KIND_LABELS[kind as LedgerKind]) : kind;
}
