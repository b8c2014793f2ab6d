import { inTransaction, type Db, type Tx } from "~/db/transaction";
import { record } from "~/domain/events/events.server";
import {
  ANNOUNCEMENT_TEXT_LOCALES,
  announcementTextsWithFallback,
  announcementTranslations,
  AUDIENCES_SHOWN,
  emptyAnnouncementTexts,
  isAnnouncementTextLocale,
  SHOWN_ANNOUNCEMENTS,
  type Announcement,
  type AnnouncementPlace,
  type AnnouncementTextLocale,
  type AnnouncementTexts,
  type ShownAnnouncement,
} from "./announcements";

type Translations = Announcement["translations"];

function noTranslations(): Translations {
  return { fr: emptyAnnouncementTexts(), ar: emptyAnnouncementTexts() };
}

function toAnnouncement(
  row: {
    id: number;
    title: string;
    content: string;
    type: string;
    is_active: number;
    target_audience: string;
    created_at: string;
  },
  translations: Translations = noTranslations(),
): Announcement {
  return {
    id: Number(row.id),
    title: row.title,
    content: row.content,
    type: row.type as Announcement["type"],
    isActive: row.is_active === 1,
    targetAudience: row.target_audience as Announcement["targetAudience"],
    createdAt: row.created_at,
    translations,
  };
}

/** The French and Arabic texts of these announcements, a language with no row of its own left empty. */
async function translationsOf(db: Db | Tx, ids: number[]): Promise<Map<number, Translations>> {
  const found = new Map<number, Translations>(ids.map((id) => [id, noTranslations()]));
  if (ids.length === 0) return found;
  const rows = await db
    .selectFrom("announcement_texts")
    .select(["announcement_id", "locale", "title", "content"])
    .where("announcement_id", "in", ids)
    .execute();
  for (const row of rows) {
    const translations = found.get(Number(row.announcement_id));
    if (translations && isAnnouncementTextLocale(row.locale))
      translations[row.locale] = { title: row.title, content: row.content };
  }
  return found;
}

/**
 * A step: an announcement's rows of announcement_texts made to match `translations`: a language with a
 * title or a content has its row, written over; a language left empty has none.
 */
async function writeTranslations(
  trx: Tx,
  announcementId: number,
  translations: Translations,
  now: string,
): Promise<void> {
  for (const locale of ANNOUNCEMENT_TEXT_LOCALES) {
    const texts = translations[locale];
    if (!texts.title && !texts.content) {
      await trx
        .deleteFrom("announcement_texts")
        .where("announcement_id", "=", announcementId)
        .where("locale", "=", locale)
        .execute();
      continue;
    }
    await trx
      .insertInto("announcement_texts")
      .values({ announcement_id: announcementId, locale, ...texts, updated_at: now })
      .onConflict((oc) =>
        oc.columns(["announcement_id", "locale"]).doUpdateSet({ ...texts, updated_at: now }),
      )
      .execute();
  }
}

const columns = [
  "id",
  "title",
  "content",
  "type",
  "is_active",
  "target_audience",
  "created_at",
] as const;

/**
 * The spec's welcome announcement, in English and its French and Arabic texts. A database from before
 * migration 0024 got the translations there, for a welcome whose English was still the seeded one;
 * migration 0041 gave each language this content where it was still the earlier seeded text.
 */
const WELCOME: Record<"en" | AnnouncementTextLocale, AnnouncementTexts> = {
  en: {
    title: "Welcome to Hostfront",
    content:
      "Your game servers and VPS in Frankfurt, Germany. Need coins? Choose “Add coins” in your dashboard. Need help? Open a support ticket and our team will answer.",
  },
  fr: {
    title: "Bienvenue sur Hostfront",
    content:
      "Vos serveurs de jeux et VPS à Francfort, en Allemagne. Besoin de coins ? Choisissez « Ajouter des coins » dans votre espace client. Besoin d'aide ? Ouvrez un ticket de support et notre équipe vous répondra.",
  },
  ar: {
    title: "مرحبًا بك في Hostfront",
    content:
      "خوادم ألعابك وخوادم VPS في فرانكفورت بألمانيا. تحتاج إلى كوينز؟ اختر «إضافة كوينز» في لوحة التحكم. تحتاج إلى مساعدة؟ افتح تذكرة دعم وسيرد عليك فريقنا.",
  },
};

/**
 * The spec's one welcome announcement, seeded once with its French and Arabic texts (an admin may edit
 * or delete it for good: its texts are written only when the announcement itself is).
 */
export async function seedAnnouncements(db: Db): Promise<void> {
  await inTransaction(db, async (trx) => {
    const now = new Date().toISOString();
    const created = await trx
      .insertInto("announcements")
      .values({
        ...WELCOME.en,
        type: "info",
        is_active: 1,
        target_audience: "all",
        seed_key: "welcome",
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.column("seed_key").doNothing())
      .returning("id")
      .executeTakeFirst();
    if (created) await writeTranslations(trx, Number(created.id), WELCOME, now);
  });
}

/**
 * The active announcements a place shows (AUDIENCES_SHOWN), the newest first (the id breaks a tie of two
 * made in the same millisecond, or imported with the same date), in the reader's `language`: its own
 * title and content where the admin wrote them, English where not (and for English, or a language
 * announcements have no texts in). One query: the reader's texts come by a join.
 */
export async function listActiveAnnouncements(
  db: Db,
  place: AnnouncementPlace,
  language = "en",
): Promise<ShownAnnouncement[]> {
  // No announcement has texts in English or an unknown language (a CHECK): the join then finds nothing.
  const locale = isAnnouncementTextLocale(language) ? language : "en";
  const rows = await db
    .selectFrom("announcements")
    .leftJoin("announcement_texts as texts", (join) =>
      join.onRef("texts.announcement_id", "=", "announcements.id").on("texts.locale", "=", locale),
    )
    .select([
      "announcements.id",
      "announcements.title",
      "announcements.content",
      "announcements.type",
      "texts.title as translated_title",
      "texts.content as translated_content",
    ])
    .where("announcements.is_active", "=", 1)
    .where("announcements.target_audience", "in", [...AUDIENCES_SHOWN[place]])
    .orderBy("announcements.created_at", "desc")
    .orderBy("announcements.id", "desc")
    .limit(SHOWN_ANNOUNCEMENTS)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    ...announcementTextsWithFallback(
      { title: row.title, content: row.content },
      { title: row.translated_title ?? "", content: row.translated_content ?? "" },
    ),
    type: row.type as Announcement["type"],
  }));
}

/** Every announcement for the admin's page, the newest first, with its French and Arabic texts. */
export async function listAllAnnouncements(db: Db) {
  const rows = await db
    .selectFrom("announcements")
    .select(columns)
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  const translations = await translationsOf(
    db,
    rows.map((row) => Number(row.id)),
  );
  return rows.map((row) => toAnnouncement(row, translations.get(Number(row.id))));
}

type Fields = {
  title: string;
  content: string;
  type: Announcement["type"];
  targetAudience: Announcement["targetAudience"];
  isActive: boolean;
  /** The other languages' texts, as the form names them; missing or empty falls back to English. */
  titleFr?: string;
  contentFr?: string;
  titleAr?: string;
  contentAr?: string;
};

export async function saveAnnouncement(
  db: Db,
  input: { actorId: string } & (
    | ({ intent: "create" } & Fields)
    | ({ intent: "update"; id: number } & Fields)
    | { intent: "activate" | "deactivate" | "delete"; id: number }
  ),
): Promise<
  | {
      ok: true;
      message:
        | "announcements.admin.created"
        | "announcements.admin.updated"
        | "announcements.admin.deleted";
    }
  | { ok: false; kind: "notFound"; error: "announcements.errors.notFound" }
> {
  return inTransaction(db, async (trx) => {
    const now = new Date().toISOString();
    if (input.intent === "create") {
      const row = await trx
        .insertInto("announcements")
        .values({
          title: input.title,
          content: input.content,
          type: input.type,
          target_audience: input.targetAudience,
          is_active: input.isActive ? 1 : 0,
          created_at: now,
          updated_at: now,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      const translations = announcementTranslations(input);
      await writeTranslations(trx, Number(row.id), translations, now);
      await record(trx, {
        type: "announcement.created",
        actorId: input.actorId,
        announcementId: Number(row.id),
        texts: { title: input.title, translations },
      });
      return { ok: true as const, message: "announcements.admin.created" };
    }
    const existing = await trx
      .selectFrom("announcements")
      .select(columns)
      .where("id", "=", input.id)
      .executeTakeFirst();
    if (!existing)
      return {
        ok: false as const,
        kind: "notFound" as const,
        error: "announcements.errors.notFound" as const,
      };
    const before = toAnnouncement(existing, (await translationsOf(trx, [input.id])).get(input.id));
    if (input.intent === "delete") {
      // Its texts go with it (a cascading foreign key); deleted here too for a database without them on.
      await trx.deleteFrom("announcement_texts").where("announcement_id", "=", input.id).execute();
      await trx.deleteFrom("announcements").where("id", "=", input.id).execute();
      await record(trx, { type: "announcement.deleted", actorId: input.actorId, before });
    } else if (input.intent === "update") {
      await trx
        .updateTable("announcements")
        .set({
          title: input.title,
          content: input.content,
          type: input.type,
          target_audience: input.targetAudience,
          is_active: input.isActive ? 1 : 0,
          updated_at: now,
        })
        .where("id", "=", input.id)
        .execute();
      const texts = { title: input.title, translations: announcementTranslations(input) };
      await writeTranslations(trx, input.id, texts.translations, now);
      await record(trx, { type: "announcement.updated", actorId: input.actorId, before, texts });
    } else {
      await trx
        .updateTable("announcements")
        .set({ is_active: input.intent === "activate" ? 1 : 0, updated_at: now })
        .where("id", "=", input.id)
        .execute();
      await record(trx, {
        type: input.intent === "activate" ? "announcement.activated" : "announcement.deactivated",
        actorId: input.actorId,
        before,
      });
    }
    return {
      ok: true as const,
      message:
        input.intent === "delete" ? "announcements.admin.deleted" : "announcements.admin.updated",
    };
  });
}
