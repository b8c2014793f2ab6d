import { sql, type Kysely } from "kysely";
import { columnTypes } from "./column-types";

/*
 * Issue 21, ADR 21.
 *
 * 1. announcement_texts: an announcement's title and content in French and Arabic, as product_texts holds a
 *    product's (migration 0022, ADR 20). English stays in `announcements`, required; a row holds one
 *    language, each field empty when it falls back to English; deleting the announcement deletes them.
 *    The seeded welcome announcement gets its translations here when its English is still the seed's
 *    (a new database gets them when the welcome is seeded).
 * 2. The seeded plans listed "NVMe SSD storage" beside their storage line ("5 GB NVMe storage"): a feature
 *    list that is still exactly a seeded one loses that line, in English, French and Arabic. A list an
 *    admin changed is left as it is.
 */

const WELCOME = {
  en: {
    title: "Welcome to Hostfront",
    content:
      "Your game servers and VPS in Frankfurt, Germany. Need coins or help? Open a support ticket and our team will answer.",
  },
  fr: {
    title: "Bienvenue sur Hostfront",
    content:
      "Vos serveurs de jeux et VPS à Francfort, en Allemagne. Besoin de coins ou d'aide ? Ouvrez un ticket de support et notre équipe vous répondra.",
  },
  ar: {
    title: "مرحبًا بك في Hostfront",
    content:
      "خوادم ألعابك وخوادم VPS في فرانكفورت بألمانيا. تحتاج إلى كوينز أو مساعدة؟ افتح تذكرة دعم وسيرد عليك فريقنا.",
  },
} as const;

/** The seeded feature lists before this migration, and the line each one drops. */
const SEEDED_FEATURES: { list: string[]; storage: string }[] = [
  {
    list: ["DDoS protection", "NVMe SSD storage", "Instant setup", "24/7 support"],
    storage: "NVMe SSD storage",
  },
  {
    list: ["10 Gbps uplink", "Full root access", "DDoS protection", "NVMe SSD storage"],
    storage: "NVMe SSD storage",
  },
  {
    list: [
      "Protection anti-DDoS",
      "Stockage SSD NVMe",
      "Installation instantanée",
      "Support 24h/24, 7j/7",
    ],
    storage: "Stockage SSD NVMe",
  },
  {
    list: [
      "Connexion 10 Gbit/s",
      "Accès root complet",
      "Protection anti-DDoS",
      "Stockage SSD NVMe",
    ],
    storage: "Stockage SSD NVMe",
  },
  {
    list: ["حماية من هجمات DDoS", "تخزين SSD من نوع NVMe", "تفعيل فوري", "دعم فني 24/7"],
    storage: "تخزين SSD من نوع NVMe",
  },
  {
    list: [
      "اتصال بسرعة 10 Gbps",
      "صلاحيات root كاملة",
      "حماية من هجمات DDoS",
      "تخزين SSD من نوع NVMe",
    ],
    storage: "تخزين SSD من نوع NVMe",
  },
];

function withoutRepeatedStorage(features: string): string | undefined {
  let list: unknown;
  try {
    list = JSON.parse(features);
  } catch {
    return undefined;
  }
  const seeded = SEEDED_FEATURES.find((seed) => JSON.stringify(seed.list) === JSON.stringify(list));
  return seeded ? JSON.stringify(seeded.list.filter((line) => line !== seeded.storage)) : undefined;
}

async function dropRepeatedStorage(db: Kysely<unknown>, table: "products" | "product_texts") {
  const rows = await sql<{ id: number; features: string }>`
    select id, features from ${sql.table(table)}
  `.execute(db);
  for (const row of rows.rows) {
    const features = withoutRepeatedStorage(row.features);
    if (features !== undefined)
      await sql`update ${sql.table(table)} set features = ${features} where id = ${row.id}`.execute(
        db,
      );
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable("announcement_texts")
    .addColumn("id", t.autoId, (c) =>
      t.postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn("announcement_id", "integer", (c) =>
      c.notNull().references("announcements.id").onDelete("cascade"),
    )
    .addColumn("locale", "text", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("updated_at", t.timestamp, (c) => c.notNull())
    .addCheckConstraint("announcement_texts_locale_check", sql`locale in ('fr', 'ar')`)
    .execute();
  await db.schema
    .createIndex("announcement_texts_announcement_locale_idx")
    .unique()
    .on("announcement_texts")
    .columns(["announcement_id", "locale"])
    .execute();

  const welcome = await sql<{ id: number }>`
    select id from announcements
    where seed_key = 'welcome' and title = ${WELCOME.en.title} and content = ${WELCOME.en.content}
  `.execute(db);
  const now = new Date().toISOString();
  for (const row of welcome.rows)
    for (const locale of ["fr", "ar"] as const)
      await sql`
        insert into announcement_texts (announcement_id, locale, title, content, updated_at)
        values (${row.id}, ${locale}, ${WELCOME[locale].title}, ${WELCOME[locale].content}, ${now})
      `.execute(db);

  await dropRepeatedStorage(db, "products");
  await dropRepeatedStorage(db, "product_texts");
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The plans' features are not given their repeated line back: it was a mistake, not data.
  await db.schema.dropTable("announcement_texts").execute();
}
