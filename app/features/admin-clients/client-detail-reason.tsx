import { LEDGER_KIND_LABELS, type LedgerKind } from "~/domain/coins/coins";
import { ledgerReasonText, type StoredLedgerReason } from "~/domain/coins/ledger-reason";
import { useTranslation } from "~/i18n/use-translation";

// How the client page and the ticket page's sidebar write a coin movement.

/**
 * A coin movement's reason in the reader's language when the ledger row stores it as a message (ADR 21),
 * else as written (older rows, an admin's typed reason).
 */
export function LedgerReason({ entry }: { entry: StoredLedgerReason }) {
  const { t } = useTranslation("coins");
  return <span dir="auto">{ledgerReasonText(entry, (key, params) => t(key, params))}</span>;
}

/** The ledger's kinds in words (coins namespace); a kind without a label is shown as stored. */
export function useLedgerKind() {
  const { t } = useTranslation("coins");
  return (kind: string) =>
    kind in LEDGER_KIND_LABELS ? t(LEDGER_KIND_LABELS[kind as LedgerKind]) : kind;
}
