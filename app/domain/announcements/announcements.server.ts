import { recordAudit } from "~/domain/audit/audit.server";
import { inTransaction, type Db } from "~/db/transaction";
import {
  AUDIENCES_SHOWN,
  SHOWN_ANNOUNCEMENTS,
  type Announcement,
  type AnnouncementPlace,
  type ShownAnnouncement,
} from "./announcements";

function toAnnouncement(row: {
  id: number;
  title: string;
  content: string;
  type: string;
  is_active: number;
  target_audience: string;
  created_at: string;
}): Announcement {
  return {
    id: Number(row.id),
    title: row.title,
    content: row.content,
    type: row.type as Announcement["type"],
    isActive: row.is_active === 1,
    targetAudience: row.target_audience as Announcement["targetAudience"],
    createdAt: row.created_at,
  };
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

/** The spec's one welcome announcement, seeded once (an admin may edit or delete it for good). */
export async function seedAnnouncements(db: Db): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto("announcements")
    .values({
      title: "Welcome to Hostfront",
      content:
        "Your game servers and VPS in Frankfurt, Germany. Need coins or help? Open a support ticket and our team will answer.",
      type: "info",
      is_active: 1,
      target_audience: "all",
      seed_key: "welcome",
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.column("seed_key").doNothing())
    .execute();
}

/**
 * The active announcements a place shows (AUDIENCES_SHOWN), the newest first (the id breaks a tie of two
 * made in the same millisecond, or imported with the same date).
 */
export async function listActiveAnnouncements(
  db: Db,
  place: AnnouncementPlace,
): Promise<ShownAnnouncement[]> {
  const rows = await db
    .selectFrom("announcements")
    .select(["id", "title", "content", "type"])
    .where("is_active", "=", 1)
    .where("target_audience", "in", [...AUDIENCES_SHOWN[place]])
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(SHOWN_ANNOUNCEMENTS)
    .execute();
  return rows.map((row) => ({
    id: Number(row.id),
    title: row.title,
    content: row.content,
    type: row.type as Announcement["type"],
  }));
}

export async function listAllAnnouncements(db: Db) {
  const rows = await db
    .selectFrom("announcements")
    .select(columns)
    .orderBy("id", "desc")
    .limit(200)
    .execute();
  return rows.map(toAnnouncement);
}

type Fields = {
  title: string;
  content: string;
  type: Announcement["type"];
  targetAudience: Announcement["targetAudience"];
  isActive: boolean;
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
      await recordAudit(trx, {
        actorId: input.actorId,
        action: "announcement.create",
        targetType: "announcement",
        targetId: row.id,
        after: { title: input.title },
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
    if (input.intent === "delete") {
      await trx.deleteFrom("announcements").where("id", "=", input.id).execute();
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
    } else {
      await trx
        .updateTable("announcements")
        .set({ is_active: input.intent === "activate" ? 1 : 0, updated_at: now })
        .where("id", "=", input.id)
        .execute();
    }
    await recordAudit(trx, {
      actorId: input.actorId,
      action: `announcement.${input.intent}`,
      targetType: "announcement",
      targetId: input.id,
      before: toAnnouncement(existing),
    });
    return {
      ok: true as const,
      message:
        input.intent === "delete" ? "announcements.admin.deleted" : "announcements.admin.updated",
    };
  });
}
