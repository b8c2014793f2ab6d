import { existingEmails } from "./import-state.server";
import { mapped, skip, type Writing } from "./write-context.server";
import { createUser } from "./write-user-account.server";

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
