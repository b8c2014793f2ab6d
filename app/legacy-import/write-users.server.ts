import { postLedgerEntry } from "~/domain/coins/coins.server";
import { authId, passwordPlan, StaleCredentials } from "./credentials.server";
import type { ImportUser } from "./dataset-types";
import { existingEmails } from "./import-state.server";
import { mapped, note, remember, skip, type Writing } from "./write-context.server";

/** The accounts the import knows by email: made now or before, or turned away (by record ref). */
export interface Accounts {
  userIds: Map<string, string>;
  skippedUsers: Map<string, string>;
}

/** Users: an account each, with its credential and its balance through the ledger. */
export async function writeUsers(w: Writing): Promise<Accounts> {
  const accounts: Accounts = { userIds: new Map(), skippedUsers: new Map(w.data.skippedUserRefs) };
  const emails = w.data.users.map((u) => u.email);
  const taken = await existingEmails(w.trx, emails);
  for (const user of w.data.users) {
    const done = mapped(w, "users", user.email);
    if (done) {
      accounts.userIds.set(user.email, done.newId);
      continue;
    }
    if (taken.has(user.email)) {
      skip(w, "users", user.ref, user.email, { code: "emailTaken" });
      accounts.skippedUsers.set(user.email, user.ref);
      continue;
    }
    accounts.userIds.set(user.email, await createUser(w, user));
  }
  return accounts;
}

async function createUser(w: Writing, user: ImportUser): Promise<string> {
  const credential = w.credentials.get(user.email);
  if (!credential) throw new StaleCredentials();
  const plan = passwordPlan(user);
  const id = authId();
  const { trx, now } = w;
  await trx
    .insertInto("users")
    .values({
      id,
      name: user.name,
      email: user.email,
      role: user.role,
      status: "active",
      coin_balance_cents: 0,
      must_change_password: plan.kind === "oneTime" || plan.mustChange ? 1 : 0,
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
      password: credential.hash,
      created_at: now,
      updated_at: now,
    })
    .execute();
  if (user.coinsCents > 0) {
    // A new account and an amount within MAX_ADJUSTMENT_CENTS: the ledger cannot refuse it.
    const balance = await postLedgerEntry(trx, {
      userId: id,
      amountCents: user.coinsCents,
      kind: "legacy_import",
      reason: "Balance imported from the old storefront",
    });
    if (balance === null) throw new Error(`The ledger refused the balance of ${user.email}`);
  }
  await remember(w, "users", user.email, id, "created");
  noteUser(w, user, plan, credential.oneTimePassword);
  return id;
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
