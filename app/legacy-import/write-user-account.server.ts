import { isPostgres } from "~/db/dialect";
import { postLedgerEntry } from "~/domain/coins/coins.server";
import { ledgerReason } from "~/domain/coins/ledger-reason";
import { authId, passwordPlan, StaleCredentials } from "./credentials.server";
import type { ImportUser } from "./dataset-types";
import { note, remember, type Writing } from "./write-context.server";

/** A new account for an old user: credential, balance through the ledger, notes on its password. */
export async function createUser(w: Writing, user: ImportUser): Promise<string> {
  const credential = w.credentials.get(user.email);
  if (!credential) throw new StaleCredentials();
  const plan = passwordPlan(user);
  const id = authId();
  await insertAccount(w, user, id, plan.kind === "oneTime" || plan.mustChange, credential.hash);
  if (user.coinsCents > 0) {
    // A new account and an amount within MAX_ADJUSTMENT_CENTS: the ledger cannot refuse it.
    const balance = await postLedgerEntry(w.trx, {
      userId: id,
      amountCents: user.coinsCents,
      kind: "legacy_import",
      reason: ledgerReason("legacyBalance"),
    });
    if (balance === null) throw new Error(`The ledger refused the balance of ${user.email}`);
  }
  await remember(w, "users", user.email, id, "created");
  noteUser(w, user, plan, credential.oneTimePassword);
  return id;
}

/** The user with a zero balance (the ledger adds the imported one), and its credential. */
async function insertAccount(
  w: Writing,
  user: ImportUser,
  id: string,
  mustChange: boolean,
  hash: string,
) {
  const { trx, now } = w;
  await trx
    .insertInto("users")
    .values({
      id,
      name: user.name,
      email: user.email,
      role: user.role,
      status: "active",
      // The address was the old site's login: verified, as migration 0032 did for every account that
      // existed then (docs/accounts.md), so turning SMTP on never locks an old customer out of ordering.
      email_verified: isPostgres(trx) ? true : 1,
      coin_balance_cents: 0,
      must_change_password: mustChange ? 1 : 0,
      created_at: user.createdAt ?? now,
      updated_at: now,
    })
    .execute();
  // The credential account exactly as better-auth's sign-up writes it.
  await trx
    .insertInto("accounts")
    .values({
      id: authId(),
      user_id: id,
      account_id: id,
      provider_id: "credential",
      password: hash,
      created_at: now,
      updated_at: now,
    })
    .execute();
}

function noteUser(
  w: Writing,
  user: ImportUser,
  plan: ReturnType<typeof passwordPlan>,
  oneTimePassword: string | null,
) {
  if (user.coinsClampedFromCents !== null)
    note(w, "users", user.ref, user.email, {
      code: "coinsClamped",
      fromCents: user.coinsClampedFromCents,
    });
  if (plan.kind === "oneTime") {
    note(w, "users", user.ref, user.email, { code: "oneTimePassword", why: plan.why });
    if (oneTimePassword)
      w.report.oneTimePasswords.push({ email: user.email, password: oneTimePassword });
  } else if (plan.mustChange) {
    note(w, "users", user.ref, user.email, { code: "mustChangePassword", why: plan.why });
  }
}
