/**
 * npm run check:ledger — verifies that every user's balance equals the sum of their coin ledger (and the
 * balance recorded on their latest ledger row), that every invoice, receipt and credit note matches
 * the ledger row it accounts for (docs/invoices.md), and that every approved top-up has its one credit
 * and its one receipt, and no other request a credit (docs/payments.md). Exits 1 and lists the
 * differences when they do not.
 */
import { ConfigError, getEnv } from "../app/config/env.server";
import { createDatabase } from "../app/db/database.server";
import { migrateToLatest } from "../app/db/migrate.server";
import { findLedgerDiscrepancies } from "../app/domain/coins/coins.server";
import { findInvoiceDiscrepancies } from "../app/domain/invoices/reconciliation.server";

async function main(): Promise<number> {
  const database = createDatabase(getEnv().DATABASE_URL);
  try {
    await migrateToLatest(database.db);
    const discrepancies = await findLedgerDiscrepancies(database.db);
    const documents = await findInvoiceDiscrepancies(database.db);
    if (discrepancies.length === 0 && documents.length === 0) {
      console.log(
        "Ledger check passed: every balance equals the sum of its ledger, every document its ledger entry, every top-up its credit.",
      );
      return 0;
    }
    if (discrepancies.length > 0) {
      console.error(`Ledger check FAILED for ${discrepancies.length} user(s):`);
      for (const d of discrepancies) {
        console.error(
          `  ${d.email} (${d.userId}): balance ${d.balanceCents} cents, ledger sum ${d.ledgerSumCents}, last balance-after ${d.lastBalanceAfterCents ?? "none"}`,
        );
      }
    }
    if (documents.length > 0) {
      console.error(`Ledger check FAILED for ${documents.length} document(s) or top-up(s):`);
      for (const d of documents) console.error(`  ${d.number}: ${d.problem}`);
    }
    return 1;
  } finally {
    await database.destroy();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(
      error instanceof ConfigError ? error.message : `Ledger check could not run: ${String(error)}`,
    );
    process.exit(2);
  },
);
