import { MAX_NAME_LENGTH } from "~/domain/accounts/accounts";
import { keepFirst, type Building } from "./build-context";
import { readLegacyDate } from "./field-loose";
import { recordsOf, type SourcedRecord } from "./file-sources";
import { legacyRole, lower } from "./map-values";
import type { RawUser } from "./schema-records";

const COMPARED = ["password", "coins", "role", "isAdmin", "name"] as const;
const differing = (a: RawUser, b: RawUser) =>
  COMPARED.filter((f) => (a[f] ?? null) !== (b[f] ?? null));

/** Users, one per email; only active accounts come in, with a balance that is never below 0. */
export function buildUsers(b: Building) {
  const { data } = b;
  const users = new Map<string, SourcedRecord<RawUser>>();
  for (const entry of recordsOf<RawUser>(b.sources, "users")) {
    const user = entry.record;
    if (user.id !== null && !data.userEmailById.has(user.id))
      data.userEmailById.set(user.id, user.email);
    if (!keepFirst(b, "users", users, entry, user.email, user.email, differing)) continue;
    const status = lower(user.status);
    if (status && status !== "active") {
      data.skipped.push({
        collection: "users",
        ref: entry.ref,
        label: user.email,
        reason: { code: "inactiveUser", status: user.status! },
      });
      data.skippedUserRefs.set(user.email, entry.ref);
      continue;
    }
    const coins = user.coins ?? 0;
    data.users.push({
      ref: entry.ref,
      email: user.email,
      name: (user.name || user.username || user.email.split("@")[0]!).slice(0, MAX_NAME_LENGTH),
      password: user.password,
      role: legacyRole(user),
      coinsCents: Math.max(0, coins),
      coinsClampedFromCents: coins < 0 ? coins : null,
      createdAt: readLegacyDate(user.createdAt),
    });
  }
}
