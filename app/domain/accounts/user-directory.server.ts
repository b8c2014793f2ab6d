import { sql } from "kysely";
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

const sortColumns = {
  created: "created_at",
  name: "lower_name",
  email: "email",
  role: "role",
  coins: "coin_balance_cents",
  services: "active_services",
  orders: "order_count",
} as const satisfies Record<UserSort, string>;

/**
 * Admin user list (spec section 6): search by name or email, the number of active services and of orders
 * per user, sorted and paged on the server; case-insensitive on both dialects. Deleted accounts are left
 * out (their rows stay for the ledger and the orders).
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
  if (q) {
    const pattern = containsPattern(q);
    // Emails are stored lower-case; names are compared lower-cased.
    base = base.where(
      sql<boolean>`(lower(users.name) like ${pattern} escape '\\' or users.email like ${pattern} escape '\\')`,
    );
  }
  if (query.role && query.role !== "all") base = base.where("users.role", "=", query.role);

  const column = sortColumns[query.sort ?? "created"];
  const direction = query.dir ?? "desc";
  const [rows, total] = await Promise.all([
    base
      .select((eb) => [
        "users.id",
        "users.name",
        "users.email",
        "users.role",
        "users.coin_balance_cents",
        "users.created_at",
        sql<string>`lower(users.name)`.as("lower_name"),
        eb
          .selectFrom("hosting_services")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("hosting_services.user_id", "=", "users.id")
          .where("hosting_services.status", "=", "active")
          .as("active_services"),
        eb
          .selectFrom("orders")
          .select((inner) => inner.fn.countAll<number>().as("n"))
          .whereRef("orders.user_id", "=", "users.id")
          .as("order_count"),
      ])
      .orderBy(sql.ref(column), direction)
      .orderBy("users.id")
      .limit(query.limit + 1)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
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
    total: Number(total.n),
  };
}
