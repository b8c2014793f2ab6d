import { expect, it } from "vitest";
import { adminId } from "../../../tests/support/money-fixtures";
import { readRow, readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import {
  listActiveAnnouncements,
  listAllAnnouncements,
  saveAnnouncement,
  seedAnnouncements,
} from "./announcements.server";

describeEachDatabase("announcements per language", (app) => {
  const shownIn = async (language: string, id: number) =>
    (await listActiveAnnouncements(app().db, "public", language)).find((a) => a.id === id);

  it("seeds the welcome announcement in English, French and Arabic", async () => {
    const titles = async (language: string) =>
      (await listActiveAnnouncements(app().db, "public", language)).map((a) => a.title);
    expect(await titles("en")).toContain("Welcome to Hostfront");
    expect(await titles("fr")).toContain("Bienvenue sur Hostfront");
    expect(await titles("ar")).toContain("مرحبًا بك في Hostfront");
    // A language announcements have no texts in reads English.
    expect(await titles("de")).toContain("Welcome to Hostfront");
    expect(await titles("de")).toEqual(await titles("en"));
    // Seeding again (every start) adds nothing.
    await seedAnnouncements(app().db);
    expect(await app().db.selectFrom("announcement_texts").selectAll().execute()).toHaveLength(2);
  });

  it("saves each language's title and content, falls back to English field by field, and forgets what is emptied", async () => {
    const actorId = await adminId(app());
    const english = { title: "Maintenance-7c1d", content: "Maintenance-7c1d on Sunday night." };
    const created = await saveAnnouncement(app().db, {
      actorId,
      intent: "create",
      ...english,
      titleFr: "Maintenance dimanche",
      contentFr: "",
      titleAr: "",
      contentAr: "صيانة ليلة الأحد.",
      type: "warning",
      targetAudience: "all",
      isActive: true,
    });
    expect(created.ok).toBe(true);
    const [saved] = (await listAllAnnouncements(app().db)).filter((a) => a.title === english.title);
    expect(saved!.translations).toEqual({
      fr: { title: "Maintenance dimanche", content: "" },
      ar: { title: "", content: "صيانة ليلة الأحد." },
    });
    expect(await shownIn("fr", saved!.id)).toMatchObject({
      title: "Maintenance dimanche",
      content: english.content,
      type: "warning",
    });
    expect(await shownIn("ar", saved!.id)).toMatchObject({
      title: english.title,
      content: "صيانة ليلة الأحد.",
    });
    expect(await shownIn("en", saved!.id)).toMatchObject(english);

    // Emptied French: its row goes, French readers get English; Arabic is kept as edited.
    const updated = await saveAnnouncement(app().db, {
      actorId,
      intent: "update",
      id: saved!.id,
      ...english,
      titleFr: "",
      contentFr: "",
      titleAr: "صيانة",
      contentAr: "صيانة ليلة الأحد.",
      type: "warning",
      targetAudience: "all",
      isActive: true,
    });
    expect(updated.ok).toBe(true);
    expect(await shownIn("fr", saved!.id)).toMatchObject(english);
    expect(await shownIn("ar", saved!.id)).toMatchObject({
      title: "صيانة",
      content: "صيانة ليلة الأحد.",
    });
    const rows = await readRows(app().db, "announcement_texts", ["locale"], {
      announcement_id: saved!.id,
    });
    expect(rows).toEqual([{ locale: "ar" }]);
    const audit = await readRow(app().db, "audit_log", ["before", "after"], {
      action: "announcement.update",
      target_id: String(saved!.id),
    });
    expect(JSON.parse(audit.before!).translations.fr.title).toBe("Maintenance dimanche");
    expect(JSON.parse(audit.after!).translations.ar.title).toBe("صيانة");

    // Deleted: its texts go with it.
    expect(
      (
        await saveAnnouncement(app().db, {
          actorId,
          intent: "delete",
          id: saved!.id,
        })
      ).ok,
    ).toBe(true);
    expect(
      await readRows(app().db, "announcement_texts", "*", { announcement_id: saved!.id }),
    ).toEqual([]);
  });
});
