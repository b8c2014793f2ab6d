import { sql, type Kysely } from "kysely";

/*
 * The seeded welcome announcement told every page "Need coins or help? Open a support ticket", beside
 * the header's coin dialog that leads to "Add coins" (docs/payments.md): coins are bought with "Add
 * coins" in the dashboard, which leads to the top-up form while a payment method is open and to the
 * team's way while none is. Its content becomes the new text where it is still exactly the seeded one,
 * each language on its own (the English in `announcements`, French and Arabic in `announcement_texts`);
 * a text an admin wrote is left as it is. A new database gets the new text when the welcome is seeded.
 */

const SEEDED = {
  en: "Your game servers and VPS in Frankfurt, Germany. Need coins or help? Open a support ticket and our team will answer.",
  fr: "Vos serveurs de jeux et VPS à Francfort, en Allemagne. Besoin de coins ou d'aide ? Ouvrez un ticket de support et notre équipe vous répondra.",
  ar: "خوادم ألعابك وخوادم VPS في فرانكفورت بألمانيا. تحتاج إلى كوينز أو مساعدة؟ افتح تذكرة دعم وسيرد عليك فريقنا.",
} as const;

const NOW_SEEDED = {
  en: "Your game servers and VPS in Frankfurt, Germany. Need coins? Choose “Add coins” in your dashboard. Need help? Open a support ticket and our team will answer.",
  fr: "Vos serveurs de jeux et VPS à Francfort, en Allemagne. Besoin de coins ? Choisissez « Ajouter des coins » dans votre espace client. Besoin d'aide ? Ouvrez un ticket de support et notre équipe vous répondra.",
  ar: "خوادم ألعابك وخوادم VPS في فرانكفورت بألمانيا. تحتاج إلى كوينز؟ اختر «إضافة كوينز» في لوحة التحكم. تحتاج إلى مساعدة؟ افتح تذكرة دعم وسيرد عليك فريقنا.",
} as const;

/** The welcome's content in each language becomes `to`'s where it is still exactly `from`'s. */
async function replaceSeeded(
  db: Kysely<unknown>,
  from: Record<"en" | "fr" | "ar", string>,
  to: Record<"en" | "fr" | "ar", string>,
) {
  const now = new Date().toISOString();
  await sql`
    update announcements set content = ${to.en}, updated_at = ${now}
    where seed_key = 'welcome' and content = ${from.en}
  `.execute(db);
  for (const locale of ["fr", "ar"] as const)
    await sql`
      update announcement_texts set content = ${to[locale]}, updated_at = ${now}
      where locale = ${locale} and content = ${from[locale]}
        and announcement_id in (select id from announcements where seed_key = 'welcome')
    `.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await replaceSeeded(db, SEEDED, NOW_SEEDED);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await replaceSeeded(db, NOW_SEEDED, SEEDED);
}
