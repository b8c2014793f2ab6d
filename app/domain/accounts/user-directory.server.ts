import { sql } from "kysely";
import { isPostgres } from "~/db/dialect";
import { containsAny } from "~/db/like-pattern";
import { pageWindow, type PageRequest } from "~/db/paging";
import type { SortDirection } from "~/lib/sort-directions";
import type { Db, Tx } from "~/db/transaction";
import {
  USERS_PAGE_SIZE,
  type DeletionFilter,
  type DirectoryUser,
  type RoleFilter,
  type UserSort,
} from "./user-admin";

/**
 * Every active admin, by id (one order in every process: transactions that lock or write their rows in
 * it wait on each other, never deadlock).
 */
export function activeAdmins(db: Db | Tx) {
  return db
    .selectFrom("users")
    .select(["id", "email", "locale"])
    .where("role", "=", "admin")
    .where("status", "=", "active")
    .orderBy("id")
    .execute();
}

const adminsOfTransaction = new WeakMap<Tx, ReturnType<typeof activeAdmins>>();

/**
 * The active admins as `activeAdmins` reads them, read once per transaction: the staff's notification
 * and the staff's mail of one event (an order) both need them, and an order is a hot path. Only for
 * steps that tell staff; a use-case that changes an admin's role or status reads `activeAdmins` itself.
 */
export function activeAdminsOnce(trx: Tx) {
  // A database handle would keep its list for ever: only a transaction's is kept.
  if (!trx.isTransaction) return activeAdmins(trx);
  let admins = adminsOfTransaction.get(trx);
  if (!admins) {
    admins = activeAdmins(trx);
    adminsOfTransaction.set(trx, admins);
  }
  return admins;
}

/** Whether this transaction's active admins have been read already (`activeAdminsOnce`, `keepActiveAdmins`). */
export function activeAdminsRead(trx: Tx): boolean {
  return trx.isTransaction && adminsOfTransaction.has(trx);
}

/**
 * Keeps `admins` as the transaction's active admins: read by a step's own statement with the columns,
 * conditions and order of `activeAdmins` (the mail's recipients and the admins in one read), so that
 * `activeAdminsOnce` does not read them again.
 */
export function keepActiveAdmins(trx: Tx, admins: Awaited<ReturnType<typeof activeAdmins>>): void {
  if (trx.isTransaction && !adminsOfTransaction.has(trx))
    adminsOfTransaction.set(trx, Promise.resolve(admins));
}

/** The shortest text the trigram index can look up; shorter ones match often enough to find by reading. */
const TRIGRAM = 3;
/** Up to this many matching accounts are looked up by id; more, and reading in order wins. */
const FEW_ACCOUNTS = 1_000;

/** `users` rows whose email (or name or email) contains `text`, case-insensitive, wildcards literal. */
export function accountLike(text: string, where: "email" | "name or email") {
  const columns = where === "email" ? ["users.email"] : ["lower(users.name)", "users.email"];
  return containsAny(columns, normalise(text));
}

function normalise(text: string) {
  return text.replaceAll("\u0000", "").trim().toLowerCase();
}

/** Whether a text is long enough for the trigram index to look it up. */
function canLookUp(text: string): boolean {
  return [...normalise(text)].length >= TRIGRAM;
}

/**
 * The ids of the accounts whose email (or name or email) contains `text`, when there are no more than
 * FEW_ACCOUNTS of them; null when there are more, or the text is too short to look up (then a caller
 * checks accountLike row by row, which meets matches quickly exactly because they are many).
 *
 * A LIKE '%…%' cannot use a B-tree index, so a rare text (one customer's email) would read every account.
 * Migration 0014 gives a trigram index: on SQLite the users_search FTS5 table, asked here; on PostgreSQL
 * pg_trgm indexes, which serve the LIKE itself.
 */
export async function fewAccountsContaining(
  db: Db,
  text: string,
  where: "email" | "name or email",
  listed: { role?: string } | null = null,
): Promise<string[] | null> {
  const needle = normalise(text);
  if (!canLookUp(needle)) return null;
  let rows: { id: string }[];
  if (isPostgres(db)) {
    rows = await db
      .selectFrom("users")
      .select("users.id")
      .where(accountLike(needle, where))
      .limit(FEW_ACCOUNTS + 1)
      .execute();
  } else {
    // An FTS5 phrase: the text in double quotes, its own double quotes doubled; any character is literal.
    const phrase = `"${needle.replaceAll('"', '""')}"`;
    const query = where === "email" ? `email : ${phrase}` : phrase;
    // `listed`: only the accounts the admin list shows (not deleted, of the role asked for), so "more
    // than FEW_ACCOUNTS" is also true of the list's count.
    const shown = listed
      ? sql`and users.status != 'deleted' ${listed.role ? sql`and users.role = ${listed.role}` : sql``}`
      : sql``;
    rows = (
      await sql<{ id: string }>`
        select users.id from users_search join users on users.rowid = users_search.rowid
        where users_search match ${query} ${shown} limit ${FEW_ACCOUNTS + 1}
      `.execute(db)
    ).rows;
  }
  return rows.length > FEW_ACCOUNTS ? null : rows.map((row) => row.id);
}

/** Whether another account than `userId` has `email` (a step: it reads inside the change's transaction). */
export async function emailTakenByAnother(trx: Tx, email: string, userId: string) {
  const taken = await trx
    .selectFrom("users")
    .select("id")
    .where("email", "=", email)
    .where("id", "!=", userId)
    .executeTakeFirst();
  return taken !== undefined;
}

/** `column in (ids)`, false for no ids. */
export function oneOf(column: string, ids: string[]) {
  return ids.length === 0
    ? sql<boolean>`1 = 0`
    : sql<boolean>`${sql.ref(column)} in (${sql.join(ids)})`;
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
  query: PageRequest & {
    q?: string;
    role?: RoleFilter;
    deletion?: DeletionFilter;
    sort?: UserSort;
    dir?: SortDirection;
  },
) {
  let base = db.selectFrom("users").where("users.status", "!=", "deleted");
  const q = query.q?.trim().toLowerCase();
  // Emails are stored lower-case; names are compared lower-cased. PostgreSQL's trigram indexes serve the
  // LIKE itself; SQLite's FTS5 index is asked first for the few accounts a rare text matches.
  const role = query.role && query.role !== "all" ? query.role : undefined;
  // On SQLite the index also tells when more accounts match than the list counts: then the count is
  // known without reading thousands of accounts with LIKE to count them.
  let manyMatch = false;
  if (q) {
    const few = isPostgres(db)
      ? null
      : await fewAccountsContaining(db, q, "name or email", { role });
    manyMatch = !isPostgres(db) && few === null && canLookUp(q) && FEW_ACCOUNTS >= USER_COUNT_LIMIT;
    base = base.where(few ? oneOf("users.id", few) : accountLike(q, "name or email"));
  }
  if (role) base = base.where("users.role", "=", role);
  // A pending request is one seek in its partial unique index (migration 0021).
  const pendingRequest = (id: string) =>
    sql`(select account_deletion_requests.requested_at from account_deletion_requests
      where account_deletion_requests.user_id = ${sql.ref(id)}
      and account_deletion_requests.status = 'pending')`;
  if (query.deletion === "requested") {
    base = base.where(sql<boolean>`exists ${pendingRequest("users.id")}`);
    // The few accounts with a request are counted exactly, whatever the text matched.
    manyMatch = false;
  }

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
  const page = pageWindow(query, USERS_PAGE_SIZE);
  const counts = (id: string) => [
    sql<number>`(select count(*) from hosting_services where hosting_services.user_id = ${sql.ref(id)} and hosting_services.status = 'active')`.as(
      "active_services",
    ),
    sql<number>`(select count(*) from orders where orders.user_id = ${sql.ref(id)})`.as(
      "order_count",
    ),
    sql<string | null>`${pendingRequest(id)}`.as("deletion_requested_at"),
  ];

  const [rows, counted] = await Promise.all([
    sortedByCount
      ? base
          .select(columns)
          .select(counts("users.id"))
          .orderBy(sql.ref(column), direction)
          .orderBy("users.id")
          .limit(page.limit + 1)
          .offset(page.offset)
          .execute()
      : db
          .selectFrom(
            base
              .select(columns)
              .orderBy(sql.ref(column), direction)
              .orderBy("users.id")
              .limit(page.limit + 1)
              .offset(page.offset)
              .as("page"),
          )
          .selectAll("page")
          .select(counts("page.id"))
          .orderBy(sql.ref(column), direction)
          .orderBy("page.id")
          .execute(),
    manyMatch
      ? { n: USER_COUNT_LIMIT + 1 }
      : db
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
    users: rows.slice(0, page.limit).map((row): DirectoryUser => ({
      id: row.id,
      name: row.name,
      email: row.email,
      role: row.role,
      coinBalanceCents: row.coin_balance_cents,
      activeServices: Number(row.active_services ?? 0),
      orders: Number(row.order_count ?? 0),
      createdAt: row.created_at,
      deletionRequestedAt: row.deletion_requested_at ?? null,
    })),
    hasMore: rows.length > page.limit,
    total: Math.min(total, USER_COUNT_LIMIT),
    totalCapped: total > USER_COUNT_LIMIT,
  };
}
