import type { Db } from "~/db/transaction";
import { listThrottles } from "./login-blocks.server";
import { listRateLimitRefusals } from "./rate-limit-refusals.server";
import { listOwnSessions } from "./own-sessions.server";
import {
  FAILED_LOGINS_PAGE_SIZE,
  RATE_LIMIT_REFUSALS_SHOWN,
  type FailedLogin,
  type SecurityQuery,
} from "./security-admin";
import { containsAny } from "~/db/like-pattern";
import { countRows, fetchPage, pageWindow, type PageRequest } from "~/db/paging";

/**
 * Failed login attempts, newest first, filtered by part of the email or of the address and paged on the
 * server; with the number of failures in the last 24 hours (all of them, not only the filter's).
 */
export async function listFailedLogins(
  db: Db,
  filter: PageRequest & { email?: string; address?: string; now?: Date },
) {
  const now = filter.now ?? new Date();
  let query = db.selectFrom("login_attempts").where("succeeded", "=", 0);
  const email = filter.email?.trim().toLowerCase();
  if (email) query = query.where(containsAny(["email"], email));
  const address = filter.address?.trim().toLowerCase();
  if (address) query = query.where(containsAny(["lower(ip_address)"], address));
  const since = new Date(now.getTime() - 86_400_000).toISOString();
  const [{ rows, hasMore }, last24h] = await Promise.all([
    fetchPage(
      query
        .select(["id", "email", "ip_address", "created_at"])
        .orderBy("created_at", "desc")
        .orderBy("id", "desc"),
      pageWindow(filter, FAILED_LOGINS_PAGE_SIZE),
    ),
    countRows(
      db.selectFrom("login_attempts").where("succeeded", "=", 0).where("created_at", ">", since),
    ),
  ]);
  return {
    entries: rows.map((row): FailedLogin => ({
      id: Number(row.id),
      email: row.email,
      address: row.ip_address,
      at: row.created_at,
    })),
    hasMore,
    last24h,
  };
}

/** Everything /admin/security shows, for the acting admin. */
export async function loadSecurityPage(
  db: Db,
  input: {
    userId: string;
    currentSessionId?: string;
    query: SecurityQuery;
    addressLimit: number;
    now?: Date;
  },
) {
  const now = input.now ?? new Date();
  const [sessions, failed, throttles, refusals] = await Promise.all([
    listOwnSessions(db, { userId: input.userId, currentSessionId: input.currentSessionId, now }),
    listFailedLogins(db, {
      email: input.query.email,
      address: input.query.address,
      page: input.query.page,
      now,
    }),
    listThrottles(db, { addressLimit: input.addressLimit, now }),
    listRateLimitRefusals(db, { limit: RATE_LIMIT_REFUSALS_SHOWN, now }),
  ]);
  return { sessions, failed, throttles, refusals, now: now.toISOString() };
}
