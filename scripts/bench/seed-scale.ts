/**
 * npm run seed:scale -- [big|tiny] [DATABASE_URL]: a database of the size the scale benchmark measures.
 *
 * big:  100,000 customers, 1,000,000 coin-ledger rows, 200,000 orders (and a hosting service per approved
 *       order); tiny: 300 customers, 3,000 ledger rows, 600 orders. One customer is "heavy" (2% of every
 *       ledger row and order) and can sign in; so can the admin. Rows are generated in time order by a
 *       seeded random generator (the same database every time), with running balances, so the ledger check
 *       passes: every user's cached balance equals the sum of their ledger and their latest balance_after.
 *
 * Fast on purpose: multi-row inserts of a few thousand rows in large transactions, explicit ids (no
 * round trip per row), the same code on SQLite (WAL) and PostgreSQL. The database must be new: a SQLite
 * file is removed first; a PostgreSQL database must be empty.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { sql, type Kysely } from "kysely";
import { parseEnv } from "../../app/config/env.server";
import { createServices, prepareDatabase } from "../../app/context.server";
import type { Database } from "../../app/db/schema";
import { registerCustomer } from "../../app/domain/accounts/accounts.server";
import { BENCH_ADMIN, BENCH_SECRET } from "./lib";

export const SCALE_SIZES = {
  big: { customers: 100_000, ledgerRows: 1_000_000, orders: 200_000 },
  tiny: { customers: 300, ledgerRows: 3_000, orders: 600 },
} as const;
export type ScaleSize = keyof typeof SCALE_SIZES;

export const HEAVY_CUSTOMER = {
  email: "heavy.customer@bench.test",
  password: "Heavy-customer-pass-7731",
  name: "Heavy Customer",
};
/** Share of every ledger row and order that belongs to the heavy customer. */
const HEAVY_SHARE = 0.02;

/**
 * One surname in ten is this one, at both sizes, so a search for it fills pages of 25 at both sizes
 * (30 matches of 300 customers, about 10,000 of 100,000) and the customer filter of the ledger matches
 * about a tenth of the ledger.
 */
export const COMMON_SURNAME = "amrani";
const COMMON_SHARE = 0.1;

const FIRST_NAMES = [
  "Youssef",
  "Mehdi",
  "Amine",
  "Omar",
  "Hamza",
  "Ayoub",
  "Anas",
  "Karim",
  "Nabil",
  "Reda",
  "Salma",
  "Imane",
  "Sara",
  "Yasmine",
  "Khadija",
  "Fatima",
  "Zineb",
  "Hiba",
  "Nour",
  "Lina",
  "Lucas",
  "Hugo",
  "Louis",
  "Emma",
  "Chloe",
  "Lea",
  "Jules",
  "Adam",
  "Noah",
  "Ines",
  "Liam",
  "Mia",
  "Ethan",
  "Jade",
  "Rayan",
  "Ilyas",
  "Walid",
  "Soufiane",
  "Othmane",
  "Marwa",
];
const SURNAMES = [
  "Benali",
  "Alaoui",
  "Idrissi",
  "Tazi",
  "Bennani",
  "Berrada",
  "Chraibi",
  "Fassi",
  "Kettani",
  "Lahlou",
  "Mansouri",
  "Naciri",
  "Ouazzani",
  "Rami",
  "Sebti",
  "Slaoui",
  "Tahiri",
  "Zerouali",
  "El Khatib",
  "Haddad",
  "Martin",
  "Bernard",
  "Dubois",
  "Durand",
  "Leroy",
  "Moreau",
  "Simon",
  "Laurent",
  "Michel",
  "Garcia",
  "Roux",
  "Fournier",
  "Girard",
  "Bonnet",
  "Dupont",
  "Lambert",
  "Fontaine",
  "Rousseau",
  "Vincent",
  "Muller",
  "Smith",
  "Brown",
  "Wilson",
  "Taylor",
  "Clark",
  "Walker",
  "Young",
  "King",
];

/** mulberry32: small, fast and seeded, so every run builds the same database. */
export function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Row = Record<string, string | number | null>;

/**
 * Inserts rows in multi-row statements of up to `maxParameters` values, under both dialects' limits
 * (SQLite 32,766 variables, PostgreSQL 65,535).
 */
export class BatchWriter {
  private pending = new Map<keyof Database, Row[]>();
  constructor(
    /** Set to the open transaction while one runs. */
    public db: Kysely<Database>,
    private maxParameters: number,
  ) {}

  async add(table: keyof Database, row: Row) {
    let rows = this.pending.get(table);
    if (!rows) this.pending.set(table, (rows = []));
    rows.push(row);
    // Everything goes out together, parents first, so a foreign key never points at a row not yet sent.
    if ((rows.length + 1) * Object.keys(row).length > this.maxParameters) await this.flush();
  }

  async flushTable(table: keyof Database) {
    const rows = this.pending.get(table);
    if (!rows || rows.length === 0) return;
    this.pending.set(table, []);
    // The typed builder cannot know a row's table from a variable; these rows match the schema.
    await this.db
      .insertInto(table)
      .values(rows as never)
      .execute();
  }

  /** Parents first, so foreign keys hold at every statement. */
  async flush() {
    for (const table of ["users", "hosting_services", "orders", "coin_ledger"] as const)
      await this.flushTable(table);
  }
}

export interface ScaleSeedResult {
  size: ScaleSize;
  customers: number;
  ledgerRows: number;
  orders: number;
  services: number;
  heavy: { email: string; password: string; ledgerRows: number; orders: number };
  seconds: number;
}

export async function seedScale(databaseUrl: string, size: ScaleSize): Promise<ScaleSeedResult> {
  const started = Date.now();
  const target = SCALE_SIZES[size];
  if (databaseUrl.startsWith("file:")) {
    const file = path.resolve(databaseUrl.slice(5));
    for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
  }
  const services = createServices({
    ...parseEnv({
      DATABASE_URL: databaseUrl,
      ADMIN_EMAIL: BENCH_ADMIN.email,
      ADMIN_PASSWORD: BENCH_ADMIN.password,
      // The bench signs its admin in with a password alone (a new install would ask an owner for two-factor).
      FIRST_START_TWO_FACTOR_ROLES: "none",
    }),
    AUTH_SECRET: BENCH_SECRET,
  });
  const { db } = services;
  try {
    await prepareDatabase(services);
    const existing = await db
      .selectFrom("users")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("role", "=", "user")
      .executeTakeFirstOrThrow();
    if (Number(existing.n) > 0) throw new Error(`${databaseUrl} already has customers`);

    const registered = await registerCustomer(
      services,
      { ...HEAVY_CUSTOMER, confirmPassword: HEAVY_CUSTOMER.password },
      { registrationOpen: true },
    );
    if (!registered.ok)
      throw new Error(`could not register the heavy customer: ${registered.error}`);
    const heavyId = registered.userId;
    const admin = await db
      .selectFrom("users")
      .select("id")
      .where("email", "=", BENCH_ADMIN.email)
      .executeTakeFirstOrThrow();
    const products = await db
      .selectFrom("products")
      .select(["id", "name", "type", "price_cents"])
      .orderBy("id")
      .execute();
    const maxId = async (table: "coin_ledger" | "orders" | "hosting_services") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.max("id").as("m"))
            .executeTakeFirst()
        )?.m ?? 0,
      );
    let ledgerId = await maxId("coin_ledger");
    let orderId = await maxId("orders");
    let serviceId = await maxId("hosting_services");
    const existingLedgerRows = Number(
      (
        await db
          .selectFrom("coin_ledger")
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

    const rand = random(20261122);
    const pick = <T>(list: readonly T[]) => list[Math.floor(rand() * list.length)]!;
    const now = Date.now();
    const span = 3 * 365 * 86_400_000;
    const ledgerStart = now - span;
    const writer = new BatchWriter(db, 30_000);

    // Customers: index 0 is the heavy customer (already registered), the rest are written here.
    const bulkCustomers = target.customers - 1;
    const ids: string[] = [heavyId];
    const inTransaction = async (work: () => Promise<void>) =>
      db.transaction().execute(async (trx) => {
        writer.db = trx;
        try {
          await work();
          await writer.flush();
        } finally {
          writer.db = db;
        }
      });

    // Balances are filled in at the end, when the ledger is written; 0 satisfies the CHECK meanwhile.
    const userCreated: string[] = [new Date(ledgerStart - 86_400_000).toISOString()];
    await inTransaction(async () => {
      for (let i = 1; i <= bulkCustomers; i++) {
        const first = pick(FIRST_NAMES);
        const last = rand() < COMMON_SHARE ? "Amrani" : pick(SURNAMES);
        const id = `scale-${String(i).padStart(6, "0")}`;
        const created = new Date(ledgerStart - Math.floor(rand() * 365 * 86_400_000)).toISOString();
        ids.push(id);
        userCreated.push(created);
        await writer.add("users", {
          id,
          name: `${first} ${last}`,
          email: `${first}.${last.replace(/ /g, "")}.${i}@example.test`.toLowerCase(),
          role: "user",
          status: "active",
          coin_balance_cents: 0,
          must_change_password: 0,
          created_at: created,
          updated_at: created,
        });
      }
    });

    // The ledger, in time order: every row is a top-up, an order payment (with its order, and a
    // service when approved, or a refund right after when rejected) or a renewal of one of the
    // customer's services. A debit is only drawn when the balance covers it.
    const balance = new Float64Array(ids.length);
    const lastService = new Int32Array(ids.length);
    const lastServicePrice = new Int32Array(ids.length);
    const heavy = { ledgerRows: 0, orders: 0 };
    const rowsToWrite = target.ledgerRows - existingLedgerRows;
    const step = span / rowsToWrite;
    let rows = 0;
    let orders = 0;
    let serviceRows = 0;
    const ledger = async (
      user: number,
      amount: number,
      kind: string,
      reason: string,
      extra: Row = {},
    ) => {
      balance[user]! += amount;
      rows++;
      if (user === 0) heavy.ledgerRows++;
      await writer.add("coin_ledger", {
        id: ++ledgerId,
        user_id: ids[user]!,
        amount_cents: amount,
        balance_after_cents: balance[user]!,
        kind,
        reason,
        actor_id: null,
        order_id: null,
        hosting_service_id: null,
        created_at: new Date(ledgerStart + rows * step).toISOString(),
        ...extra,
      });
    };

    while (rows < rowsToWrite) {
      await inTransaction(async () => {
        const until = Math.min(rowsToWrite, rows + 100_000);
        while (rows < until) {
          const user = rand() < HEAVY_SHARE ? 0 : 1 + Math.floor(rand() * bulkCustomers);
          const product = pick(products);
          const price = product.price_cents;
          const rowsLeft = rowsToWrite - rows;
          const ordersLeft = target.orders - orders;
          // Orders are spread evenly over the ledger, and never miss their count at the end.
          const wantOrder =
            ordersLeft > 0 &&
            (rowsLeft <= ordersLeft * 3 || rand() < (ordersLeft / rowsLeft) * 1.1);
          const wantRenewal = !wantOrder && lastService[user]! > 0 && rand() < 0.55;
          const cost = wantOrder ? price : wantRenewal ? lastServicePrice[user]! : 0;
          if (cost === 0 || balance[user]! < cost) {
            await ledger(user, 1000 + 500 * Math.floor(rand() * 20), "admin_adjustment", "Top-up", {
              actor_id: admin.id,
            });
            continue;
          }
          const at = new Date(ledgerStart + (rows + 1) * step).toISOString();
          if (wantRenewal) {
            await ledger(user, -cost, "renewal", `Renewal of service #${lastService[user]}`, {
              actor_id: ids[user]!,
              hosting_service_id: lastService[user]!,
            });
            continue;
          }
          const id = ++orderId;
          orders++;
          if (user === 0) heavy.orders++;
          const draw = rand();
          const status = draw < 0.85 ? "approved" : draw < 0.95 ? "pending" : "rejected";
          let hostingServiceId: number | null = null;
          if (status === "approved") {
            hostingServiceId = ++serviceId;
            serviceRows++;
            lastService[user] = hostingServiceId;
            lastServicePrice[user] = price;
            const expires = new Date(Date.parse(at) + 30 * 86_400_000);
            await writer.add("hosting_services", {
              id: hostingServiceId,
              user_id: ids[user]!,
              product_id: product.id,
              name: product.name,
              server_name: `srv-${id}`,
              type: product.type,
              billing_cycle: "monthly",
              monthly_price_cents: price,
              cycle_price_cents: price,
              // Services bought in the last month are still running; older ones were not renewed.
              status: expires.getTime() > now ? "active" : "terminated",
              expires_at: expires.toISOString(),
              created_at: at,
              updated_at: at,
            });
          }
          await writer.add("orders", {
            id,
            user_id: ids[user]!,
            product_id: product.id,
            product_name: product.name,
            product_type: product.type,
            product_price_cents: price,
            billing_cycle: "monthly",
            location: "germany",
            ddos_protection: 1,
            player_slots: null,
            backup: "none",
            server_name: `srv-${id}`,
            voucher_id: null,
            voucher_code: null,
            monthly_price_cents: price,
            subtotal_cents: price,
            discount_cents: 0,
            total_cents: price,
            paid_with_coins: 1,
            status,
            idempotency_key: `scale-${id}`,
            reject_reason: status === "rejected" ? "Out of stock" : null,
            decided_by: status === "pending" ? null : admin.id,
            decided_at: status === "pending" ? null : at,
            hosting_service_id: hostingServiceId,
            created_at: at,
            updated_at: at,
          });
          await ledger(user, -price, "order_payment", `Order #${id}: ${product.name}`, {
            actor_id: ids[user]!,
            order_id: id,
          });
          if (status === "rejected" && rows < rowsToWrite)
            await ledger(user, price, "order_refund", `Order #${id} rejected: Out of stock`, {
              actor_id: admin.id,
              order_id: id,
            });
        }
      });
    }

    // Cached balances: one UPDATE per customer with a balance, in one transaction.
    await db.transaction().execute(async (trx) => {
      for (let user = 0; user < ids.length; user++) {
        if (balance[user] === 0) continue;
        await trx
          .updateTable("users")
          .set({ coin_balance_cents: balance[user]! })
          .where("id", "=", ids[user]!)
          .execute();
      }
    });

    if (services.database.dialect === "postgres") {
      for (const table of ["coin_ledger", "orders", "hosting_services"])
        await sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.table(table)}), 0) + 1, false)`.execute(
          db,
        );
      // As on a database that has been running: without it, autovacuum takes on the million freshly
      // inserted rows (and the first reads set their hint bits) while the first pages are measured.
      await sql`vacuum analyze`.execute(db);
    } else {
      await sql`analyze`.execute(db);
      await sql`pragma wal_checkpoint(truncate)`.execute(db);
    }

    return {
      size,
      customers: ids.length,
      ledgerRows: existingLedgerRows + rows,
      orders,
      services: serviceRows,
      heavy: { email: HEAVY_CUSTOMER.email, password: HEAVY_CUSTOMER.password, ...heavy },
      seconds: Math.round((Date.now() - started) / 100) / 10,
    };
  } finally {
    await services.database.destroy();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const size = (process.argv[2] ?? "big") as ScaleSize;
  if (!(size in SCALE_SIZES)) {
    console.error("usage: npm run seed:scale -- [big|tiny] [DATABASE_URL]");
    process.exit(2);
  }
  const url = process.argv[3] ?? `file:./.tmp/scale-${size}/hostfront.db`;
  const result = await seedScale(url, size);
  console.log(
    `Seeded ${url} (${size}) in ${result.seconds} s: ${result.customers} customers, ${result.ledgerRows} ledger rows, ${result.orders} orders, ${result.services} services.\n` +
      `Admin: ${BENCH_ADMIN.email} / ${BENCH_ADMIN.password}; heavy customer: ${result.heavy.email} / ${result.heavy.password} (${result.heavy.ledgerRows} ledger rows, ${result.heavy.orders} orders).`,
  );
}
