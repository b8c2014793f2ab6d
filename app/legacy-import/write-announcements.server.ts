import { sameName } from "./import-state.server";
import { mapped, remember, type Writing } from "./write-context.server";

/** Announcements: one with the title of one of ours is matched to it, else created. */
export async function writeAnnouncements(w: Writing) {
  const announcements = await w.trx.selectFrom("announcements").select(["id", "title"]).execute();
  for (const item of w.data.announcements) {
    if (mapped(w, "announcements", item.key)) continue;
    const same = announcements.find((a) => sameName(a.title, item.title));
    if (same) {
      await remember(w, "announcements", item.key, same.id, "matched");
      continue;
    }
    const row = await w.trx
      .insertInto("announcements")
      .values({
        title: item.title,
        content: item.content,
        type: item.type,
        is_active: item.isActive ? 1 : 0,
        target_audience: item.targetAudience,
        created_at: item.createdAt ?? w.now,
        updated_at: w.now,
      })
      .returning(["id", "title"])
      .executeTakeFirstOrThrow();
    announcements.push(row);
    await remember(w, "announcements", item.key, row.id, "created");
  }
}
