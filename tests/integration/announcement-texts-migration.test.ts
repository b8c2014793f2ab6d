import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, dialects } from "../support/test-database";

const MIGRATION = "0024-announcement-texts";

const BEFORE = migrationBefore(MIGRATION);

const WELCOME = {
  title: "Welcome to Hostfront",
  content:
    "Your game servers and VPS in Frankfurt, Germany. Need coins or help? Open a support ticket and our team will answer.",
};
const OLD_GAME = ["DDoS protection", "NVMe SSD storage", "Instant setup", "24/7 support"];
const OLD_VPS = ["10 Gbps uplink", "Full root access", "DDoS protection", "NVMe SSD storage"];
const OLD_GAME_FR = [
  "Protection anti-DDoS",
  "Stockage SSD NVMe",
  "Installation instantanée",
  "Support 24h/24, 7j/7",
];
const OLD_VPS_AR = [
  "اتصال بسرعة 10 Gbps",
  "صلاحيات root كاملة",
  "حماية من هجمات DDoS",
  "تخزين SSD من نوع NVMe",
];

describe.each(dialects)("migration 0024 [%s]", (dialect) => {
  it("translates the seeded welcome, and drops the storage line the seeded plans repeated", async () => {
    const target = await createTestDatabaseUrl(dialect);
    const handle = createDatabase(target.url);
    const { db } = handle;
    try {
      await migrateTo(db, BEFORE);
      const now = new Date().toISOString();
      const announcement = (values: { title: string; content: string; seed_key: string | null }) =>
        db
          .insertInto("announcements")
          .values({ ...values, is_active: 1, created_at: now, updated_at: now })
          .returning("id")
          .executeTakeFirstOrThrow();
      const welcome = await announcement({ ...WELCOME, seed_key: "welcome" });
      const own = await announcement({ ...WELCOME, seed_key: null });
      const product = (slug: string, features: string[]) =>
        db
          .insertInto("products")
          .values({
            slug,
            type: "samp",
            category: "Game Hosting",
            name: slug,
            price_cents: 100,
            features: JSON.stringify(features),
            ram_gb: 1,
            storage_gb: 5,
            cpu_cores: 1,
            slots: 50,
            recommended: 0,
            created_at: now,
            updated_at: now,
          })
          .returning("id")
          .executeTakeFirstOrThrow();
      const game = await product("old-game", OLD_GAME);
      const vps = await product("old-vps", OLD_VPS);
      const edited = await product("edited", [...OLD_GAME, "Daily backups"]);
      for (const [productId, locale, features] of [
        [game.id, "fr", OLD_GAME_FR],
        [vps.id, "ar", OLD_VPS_AR],
        [edited.id, "fr", ["Stockage SSD NVMe"]],
      ] as const)
        await db
          .insertInto("product_texts")
          .values({
            product_id: productId,
            locale,
            features: JSON.stringify(features),
            updated_at: now,
          })
          .execute();

      await migrateTo(db, MIGRATION);

      const texts = await db
        .selectFrom("announcement_texts")
        .select(["announcement_id", "locale", "title"])
        .orderBy("locale")
        .execute();
      // Only the seeded welcome, still worded as seeded, gets the translations.
      expect(texts).toEqual([
        { announcement_id: welcome.id, locale: "ar", title: "مرحبًا بك في Hostfront" },
        { announcement_id: welcome.id, locale: "fr", title: "Bienvenue sur Hostfront" },
      ]);
      expect(texts.some((row) => row.announcement_id === own.id)).toBe(false);

      const features = async (table: "products" | "product_texts", id: number) => {
        const rows =
          table === "products"
            ? await db.selectFrom("products").select("features").where("id", "=", id).execute()
            : await db
                .selectFrom("product_texts")
                .select("features")
                .where("product_id", "=", id)
                .execute();
        return JSON.parse(rows[0]!.features) as string[];
      };
      expect(await features("products", game.id)).toEqual([
        "DDoS protection",
        "Instant setup",
        "24/7 support",
      ]);
      expect(await features("products", vps.id)).toEqual([
        "10 Gbps uplink",
        "Full root access",
        "DDoS protection",
      ]);
      expect(await features("product_texts", game.id)).toEqual([
        "Protection anti-DDoS",
        "Installation instantanée",
        "Support 24h/24, 7j/7",
      ]);
      expect(await features("product_texts", vps.id)).toEqual([
        "اتصال بسرعة 10 Gbps",
        "صلاحيات root كاملة",
        "حماية من هجمات DDoS",
      ]);
      // A list an admin changed is theirs.
      expect(await features("products", edited.id)).toEqual([...OLD_GAME, "Daily backups"]);
      expect(await features("product_texts", edited.id)).toEqual(["Stockage SSD NVMe"]);

      // Deleting an announcement deletes its texts; the table accepts French and Arabic only.
      await db.deleteFrom("announcements").where("id", "=", welcome.id).execute();
      expect(await db.selectFrom("announcement_texts").selectAll().execute()).toEqual([]);
      await expect(
        db
          .insertInto("announcement_texts")
          .values({ announcement_id: own.id, locale: "de", title: "Hallo", updated_at: now })
          .execute(),
      ).rejects.toThrow(/check/i);

      await migrateTo(db, BEFORE);
      await migrateTo(db, MIGRATION);
    } finally {
      await handle.destroy();
      await target.drop();
    }
  });
});
