import { sql, type RawBuilder } from "kysely";
import { isPostgres } from "~/db/dialect";
import type { Db } from "~/db/transaction";
import type { RoleFilter, SortDirection, UserSort } from "./user-admin";

export interface DirectoryUser {
  id: string;
  name: string;
  email: string;
  role: string;
  coinBalanceCents: number;
  activeServices: number;
  orders: number;
  createdAt: string;
}

/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards in it escaped. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The shortest text the trigram index can look up; shorter ones match often enough to find by reading. */
const TRIGRAM = 3;
/** Up to this many accounts found in the index are looked up by rowid; more, and reading in order wins. */
const INDEXED_MATCHES = 1_000;

/**
 * A condition on `users`: its email (or its name or email) contains `text`, case-insensitive, with LIKE's
 * wildcards taken as plain characters.
 *
 * A rare text (one customer's email) would make the LIKE read every account. On PostgreSQL the pg_trgm
 * indexes of migration 0014 serve the LIKE by themselves. On SQLite the trigram index (the users_search
 * FTS5 table) is asked first for up to INDEXED_MATCHES accounts: when it finds no more than that, they are
 * the condition; when it finds more, the text is common, and reading accounts in the list's order meets a
 * page of them quickly, so the plain LIKE stays. `few` tells the caller which it got: a short list of
 * accounts, or a condition to check row by row.
 */
export async function accountContains(
  db: Db,
  text: string,
  where: "email" | "name or email",
): Promise<{ condition: RawBuilder<boolean>; few: boolean }> {
  const needle = text.replaceAll("\u0000", "").trim().toLowerCase();
  const pattern = containsPattern(needle);
  const like =
    where === "email"
      ? sql<boolean>`users.email like ${pattern} escape '\\'`
      : sql<boolean>`(lower(users.name) like ${pattern} escape '\\' or users.email like ${pattern} escape '\\')`;
  if (isPostgres(db) || [...needle].length < TRIGRAM) return { condition: like, few: false };
  // An FTS5 phrase: the text in double quotes, its own double quotes doubled; any character is literal.
  const phrase = `"${needle.replaceAll('"', '""')}"`;
  const found = await sql<{ rowid: number }>`
    select rowid from users_search where users_search match ${where === "email" ? `email : ${phrase}` : phrase}
    limit ${INDEXED_MATCHES + 1}
  `.execute(db);
  if (found.rows.length > INDEXED_MATCHES) return { condition: like, few: false };
  if (found.rows.length === 0) return { condition: sql<boolean>`1 = 0`, few: true };
  return {
    condition: sql<boolean>`users.rowid in (${sql.join(found.rows.map((row) => row.rowid))})`,
    few: true,
  };
}

const sortColumns = {
  created: "created_at",
  name: "lower_name",
  email: "email",
  role: "role",
  coins: "coin_balance_cents",
  services: "active_services",
  orders: "order_count",
} as const satisfies Record<UserSort, string>;

/** The list counts matches up to this many; past it the page says "more than 1,000 accounts". */
export const USER_COUNT_LIMIT = 1_000;

/**
 * Admin user list (spec section 6): search by name or email, the number of active services and of orders
 * per user, sorted and paged on the server; case-insensitive on both dialects. Deleted accounts are left
 * out (their rows stay for the ledger and the orders).
 *
 * Sized for 100,000 accounts: the count stops at USER_COUNT_LIMIT matches, and unless the list is sorted
 * by one of the two counts, the page's rows are chosen first and only they get their services and orders
 * counted (an offset would otherwise count them for every row it skips).
 */
export async function searchUsers(
  db: Db,
  query: {
    q?: string;
    role?: RoleFilter;
    sort?: UserSort;
    dir?: SortDirection;
    limit: number;
    offset: number;
  },
) {
  let base = db.selectFrom("users").where("users.status", "!=", "deleted");
  const q = query.q?.trim().toLowerCase();
  // Emails are stored lower-case; names are compared lower-cased.
  if (q) base = base.where((await accountContains(db, q, "name or email")).condition);
  if (query.role && query.role !== "all") base = base.where("users.role", "=", query.role);

  const sort = query.sort ?? "created";
  const column = sortColumns[sort];
  const direction = query.dir ?? "desc";
  const columns = [
    "users.id",
    "users.name",
    "users.email",
    "users.role",
    "users.coin_balance_cents",
    "users.created_at",
    sql<string>`lower(users.name)`.as("lower_name"),
  ] as const;
  const sortedByCount = sort === "services" || sort === "orders";
  const counts = (id: string) => [
    sql<number>`(select count(*) from hosting_services where hosting_services.user_id = ${sql.ref(id)} and hosting_services.status = 'active')`.as(
      "active_services",
    ),
    sql<number>`(select count(*) from orders where orders.user_id = ${sql.ref(id)})`.as(
      "order_count",
    ),
  ];

  const [rows, counted] = await Promise.all([
    sortedByCount
      ? base
          .select(columns)
          .select(counts("users.id"))
          .orderBy(sql.ref(column), direction)
          .orderBy("users.id")
          .limit(query.limit + 1)
          .offset(query.offset)
          .execute()
      : db
          .selectFrom(
            base
              .select(columns)
              .orderBy(sql.ref(column), direction)
              .orderBy("users.id")
              .limit(query.limit + 1)
              .offset(query.offset)
              .as("page"),
          )
          .selectAll("page")
          .select(counts("page.id"))
          .orderBy(sql.ref(column), direction)
          .orderBy("page.id")
          .execute(),
    db
      .selectFrom(
        base
          .select("users.id")
          .limit(USER_COUNT_LIMIT + 1)
          .as("matched"),
      )
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow(),
  ]);
  const total = Number(counted.n);
  return {
    users: rows.slice(0, query.limit).map((row): DirectoryUser => ({
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      coinBalanceCents: row.coin_balance_cents,
      activeServices: Number(row.active_services ?? 0),
      orders: Number(row.order_count ?? 0),
      createdAt: row.created_at,
    })),
    hasMore: rows.length > query.limit,
    total: Math.min(total, USER_COUNT_LIMIT),
    totalCapped: total > USER_COUNT_LIMIT,
  };
}
