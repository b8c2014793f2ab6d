import { sql } from "kysely";
import { addDays } from "~/domain/orders/orders";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { accountLike, fewAccountsContaining, oneOf } from "~/domain/accounts/user-directory.server";
import { isPostgres } from "~/db/dialect";
import { containsAny } from "~/db/like-pattern";
import { fetchPage, pageWindow, type PageRequest } from "~/db/paging";
import type { SortDirection } from "~/lib/sort-directions";
import { withOwner } from "~/db/customer-rows";
import type { Db } from "~/db/transaction";
import type {
  AdminServiceView,
  ExpiringWithin,
  ServiceListQuery,
  ServiceSort,
  ServiceStatus,
} from "./hosting-services";
import { toService } from "./service-rows.server";

// Every customer's services as /admin/services lists them, and the one its edit form opens.

/** How many services a page of /admin/services shows. */
export const ADMIN_SERVICES_PAGE_SIZE = 25;
/** Up to this many services (or accounts) a search text names are looked up by id; past it, row by row. */
const FEW_MATCHES = 1_000;
const TRIGRAM = 3;

/**
 * The ids of the services whose name contains `text`, when there are no more than FEW_MATCHES of them;
 * null when there are more or the text is too short for the trigram index (migration 0020: an FTS5 table
 * on SQLite, a pg_trgm index on PostgreSQL, which serves the LIKE itself).
 */
async function fewServicesNamed(db: Db, text: string): Promise<number[] | null> {
  if ([...text].length < TRIGRAM) return null;
  let rows: { id: number }[];
  if (isPostgres(db)) {
    rows = await db
      .selectFrom("hosting_services")
      .select("id")
      .where(containsAny(["lower(hosting_services.name)"], text))
      .limit(FEW_MATCHES + 1)
      .execute();
  } else {
    const phrase = `"${text.replaceAll('"', '""')}"`;
    rows = (
      await sql<{ id: number }>`
        select rowid as id from hosting_services_search where hosting_services_search match ${phrase}
        limit ${FEW_MATCHES + 1}
      `.execute(db)
    ).rows;
  }
  return rows.length > FEW_MATCHES ? null : rows.map((row) => Number(row.id));
}

const sortColumns = {
  created: "hosting_services.created_at",
  expires: "hosting_services.expires_at",
  price: "hosting_services.cycle_price_cents",
  customer: "users.name",
} as const satisfies Record<ServiceSort, string>;

/** What the admin list and the admin edit read of a service and its customer. */
const ADMIN_SERVICE_COLUMNS = [
  "hosting_services.id",
  "hosting_services.user_id",
  "hosting_services.product_id",
  "hosting_services.name",
  "hosting_services.server_name",
  "hosting_services.type",
  "hosting_services.billing_cycle",
  "hosting_services.monthly_price_cents",
  "hosting_services.cycle_price_cents",
  "hosting_services.status",
  "hosting_services.expires_at",
  "hosting_services.created_at",
  "hosting_services.admin_note",
  "hosting_services.auto_renew",
  "hosting_services.suspension_reason",
  "hosting_services.panel_state",
  "hosting_services.panel_address",
  "hosting_services.panel_ports",
  "hosting_services.panel_identifier",
  "users.email",
  "users.name as user_name",
] as const;

/**
 * Every customer's services for admins: searched by customer name or email and service name, filtered by
 * status, type and "expiring within N days" (an expiry between now and then), sorted, and paged on the
 * server, ADMIN_SERVICES_PAGE_SIZE a page. Sized for 100,000 services (migration 0020): each sort reads
 * the page in the order of an index, ties broken by id; a rare search text is looked up by id in the
 * trigram indexes, and a common one is checked row by row, which meets its matches quickly.
 */
export async function listServicesForAdmin(
  db: Db,
  query: PageRequest &
    Partial<{
      q: string;
      status: ServiceStatus;
      type: string;
      within: ExpiringWithin;
      sort: ServiceSort;
      dir: SortDirection;
    }>,
  now = new Date(),
) {
  let base = withOwner(db, "hosting_services");
  const q = query.q?.replaceAll("\u0000", "").trim().toLowerCase();
  if (q) {
    const [accounts, named] = await Promise.all([
      fewAccountsContaining(db, q, "name or email"),
      fewServicesNamed(db, q),
    ]);
    if (accounts && named) {
      // Only the lists that name something: an "or 1 = 0" beside an IN list made SQLite read every
      // service in the sort's order instead of looking the few up (93 ms instead of 0.1 at 170,000).
      const found = [
        ...(accounts.length ? [oneOf("hosting_services.user_id", accounts)] : []),
        ...(named.length ? [sql<boolean>`hosting_services.id in (${sql.join(named)})`] : []),
      ];
      base = base.where(
        found.length ? sql<boolean>`(${sql.join(found, sql` or `)})` : sql<boolean>`1 = 0`,
      );
    } else {
      base = base.where(
        sql<boolean>`(${accountLike(q, "name or email")} or ${containsAny(
          ["lower(hosting_services.name)"],
          q,
        )})`,
      );
    }
  }
  if (query.status) base = base.where("hosting_services.status", "=", query.status);
  if (query.type) base = base.where("hosting_services.type", "=", query.type);
  if (query.within) {
    base = base
      .where("hosting_services.expires_at", ">", now.toISOString())
      .where("hosting_services.expires_at", "<=", addDays(now, Number(query.within)));
  }
  const sort = query.sort ?? "created";
  const direction = query.dir ?? "desc";
  const { rows, hasMore } = await fetchPage(
    base
      .select([...ADMIN_SERVICE_COLUMNS])
      .orderBy(sql.ref(sortColumns[sort]), direction)
      .orderBy("hosting_services.id", direction),
    pageWindow(query, ADMIN_SERVICES_PAGE_SIZE),
  );
  return {
    services: rows.map((row): AdminServiceView => ({
      ...toService(row),
      userEmail: row.email,
      userName: row.user_name,
      adminNote: row.admin_note,
    })),
    hasMore,
  };
}

/**
 * What /admin/services shows: a page of the list, the products the add form offers, and the service whose
 * edit form is open (`editing`: null when `edit` names none that exists).
 */
export async function adminServicesPage(db: Db, query: ServiceListQuery, now = new Date()) {
  const [list, products, editing] = await Promise.all([
    listServicesForAdmin(db, query, now),
    listActiveProducts(db),
    typeof query.edit === "number" ? findServiceForAdmin(db, query.edit) : undefined,
  ]);
  return {
    ...list,
    products: products.map((product) => ({ id: product.id, name: product.name })),
    editing: editing ?? null,
    // The moment the list was read at (its "expiring within" filter too): the badges say "expired"
    // against it, so the browser's hydration shows what the server's page did.
    now: now.toISOString(),
  };
}

async function findServiceForAdmin(db: Db, id: number): Promise<AdminServiceView | undefined> {
  const row = await withOwner(db, "hosting_services")
    .select([...ADMIN_SERVICE_COLUMNS])
    .where("hosting_services.id", "=", id)
    .executeTakeFirst();
  return row
    ? {
        ...toService(row),
        userEmail: row.email,
        userName: row.user_name,
        adminNote: row.admin_note,
      }
    : undefined;
}
