import { type Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { createDatabase } from "~/db/database.server";
import type { Database } from "~/db/schema";
import { listActiveAnnouncements } from "~/domain/announcements/announcements.server";
import { migrateTo, migrationBefore } from "../support/migrations";
import { createTestDatabaseUrl, describeEachDatabase, dialects } from "../support/test-database";

// Migration 0043: the seeded welcome announcement stops sending coin buyers to a support ticket, in
// each language where its text is still the seeded one, and leaves what an admin wrote alone.

const MIGRATION = "0043-welcome-coins-text";

const BEFORE = migrationBefore(MIGRATION);

const SEEDED = {
  en: "Your game servers and VPS in Frankfurt, Germany. Need coins or help? Open a support ticket and our team will answer.",
  fr: "Vos serveurs de jeux et VPS à Francfort, en Allemagne. Besoin de coins ou d'aide ? Ouvrez un ticket de support et notre équipe vous répondra.",
  ar: "خوادم ألعابك وخوادم VPS في فرانكفورت بألمانيا. تحتاج إلى كوينز أو مساعدة؟ افتح تذكرة دعم وسيرد عليك فريقنا.",
};
const NOW_SEEDED = {
  en: "Your game servers and VPS in Frankfurt, Germany. Need coins? Choose “Add coins” in your dashboard. Need help? Open a support ticket and our team will answer.",
  fr: "Vos serveurs de jeux et VPS à Francfort, en Allemagne. Besoin de coins ? Choisissez « Ajouter des coins » dans votre espace client. Besoin d'aide ? Ouvrez un ticket de support et notre équipe vous répondra.",
  ar: "خوادم ألعابك وخوادم VPS في فرانكفورت بألمانيا. تحتاج إلى كوينز؟ اختر «إضافة كوينز» في لوحة التحكم. تحتاج إلى مساعدة؟ افتح تذكرة دعم وسيرد عليك فريقنا.",
};

type Texts = { en: string; fr: string; ar: string };

/** A database at the migration before, holding announcements as `texts` say (their seed key and contents). */
async function withAnnouncements(
  dialect: (typeof dialects)[number],
  announcements: { seedKey: string | null; texts: Texts }[],
  check: (db: Kysely<Database>, ids: number[]) => Promise<void>,
) {
  const target = await createTestDatabaseUrl(dialect);
  const handle = createDatabase(target.url);
  const { db } = handle;
  try {
    await migrateTo(db, BEFORE);
    const before = "2026-01-01T00:00:00.000Z";
    const ids: number[] = [];
    for (const { seedKey, texts } of announcements) {
      const row = await db
        .insertInto("announcements")
        .values({
          title: "Welcome to Hostfront",
          content: texts.en,
          is_active: 1,
          seed_key: seedKey,
          created_at: before,
          updated_at: before,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const id = Number(row.id);
      ids.push(id);
      for (const locale of ["fr", "ar"] as const)
        await db
          .insertInto("announcement_texts")
          .values({
            announcement_id: id,
            locale,
            title: "Welcome",
            content: texts[locale],
            updated_at: before,
          })
          .execute();
    }
    await check(db, ids);
  } finally {
    await handle.destroy();
    await target.drop();
  }
}

async function contentsOf(db: Kysely<Database>, id: number): Promise<Texts> {
  const english = await db
    .selectFrom("announcements")
    .select("content")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const texts = await db
    .selectFrom("announcement_texts")
    .select(["locale", "content"])
    .where("announcement_id", "=", id)
    .execute();
  const text = (locale: string) => texts.find((row) => row.locale === locale)!.content;
  return { en: english.content, fr: text("fr"), ar: text("ar") };
}

describe.each(dialects)("migration 0043 [%s]", (dialect) => {
  it("rewrites the seeded welcome in each language still seeded, and nothing an admin wrote", async () => {
    const arabicOfTheAdmin = "مرحبًا! الكوينز متاحة عبر فريق الدعم.";
    await withAnnouncements(
      dialect,
      [
        // The seeded welcome, whose Arabic an admin rewrote.
        { seedKey: "welcome", texts: { ...SEEDED, ar: arabicOfTheAdmin } },
        // An announcement of the admin's that copied the seeded text word for word.
        { seedKey: null, texts: SEEDED },
      ],
      async (db, [welcome, own]) => {
        await migrateTo(db, MIGRATION);
        expect(await contentsOf(db, welcome!)).toEqual({
          en: NOW_SEEDED.en,
          fr: NOW_SEEDED.fr,
          ar: arabicOfTheAdmin,
        });
        expect(await contentsOf(db, own!)).toEqual(SEEDED);
        // What a visitor reads, in each language.
        for (const locale of ["en", "fr", "ar"] as const) {
          const shown = await listActiveAnnouncements(db, "public", locale);
          expect(shown.find((each) => each.id === welcome)?.content).toBe(
            locale === "ar" ? arabicOfTheAdmin : NOW_SEEDED[locale],
          );
        }

        // Down and up again: the seeded texts come back, then go again; the admin's stay.
        await migrateTo(db, BEFORE);
        expect(await contentsOf(db, welcome!)).toEqual({ ...SEEDED, ar: arabicOfTheAdmin });
        expect(await contentsOf(db, own!)).toEqual(SEEDED);
        await migrateTo(db, MIGRATION);
        expect((await contentsOf(db, welcome!)).fr).toBe(NOW_SEEDED.fr);
      },
    );
  });

  it("leaves a welcome whose English the admin edited in English, and rewrites its seeded French", async () => {
    const english = "Welcome! Coins: ask us on Discord.";
    await withAnnouncements(
      dialect,
      [{ seedKey: "welcome", texts: { ...SEEDED, en: english } }],
      async (db, [welcome]) => {
        await migrateTo(db, MIGRATION);
        expect(await contentsOf(db, welcome!)).toEqual({
          en: english,
          fr: NOW_SEEDED.fr,
          ar: NOW_SEEDED.ar,
        });
        const row = await db
          .selectFrom("announcements")
          .select("updated_at")
          .where("id", "=", welcome!)
          .executeTakeFirstOrThrow();
        expect(new Date(row.updated_at).toISOString()).toBe("2026-01-01T00:00:00.000Z");
      },
    );
  });
});

describeEachDatabase("a new database's welcome", (app) => {
  it("is seeded with the new text in every language", async () => {
    for (const locale of ["en", "fr", "ar"] as const) {
      const shown = await listActiveAnnouncements(app().db, "public", locale);
      expect(shown.map((each) => each.content)).toContain(NOW_SEEDED[locale]);
      expect(shown.map((each) => each.content)).not.toContain(SEEDED[locale]);
    }
  });
});
