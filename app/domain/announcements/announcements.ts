import { keysOf } from "~/lib/keys-of";
import { z } from "~/lib/zod";

// Catalogue keys (announcements namespace) written out, so the catalogue test sees every one in use.
export const ANNOUNCEMENT_TYPE_LABELS = {
  info: "types.info",
  success: "types.success",
  warning: "types.warning",
} as const;
export const ANNOUNCEMENT_TYPES = keysOf(ANNOUNCEMENT_TYPE_LABELS);
export const AUDIENCE_LABELS = {
  all: "audiences.all",
  customers: "audiences.customers",
  admins: "audiences.admins",
} as const;
export const AUDIENCES = keysOf(AUDIENCE_LABELS);

export interface Announcement {
  id: number;
  title: string;
  content: string;
  type: (typeof ANNOUNCEMENT_TYPES)[number];
  isActive: boolean;
  targetAudience: (typeof AUDIENCES)[number];
  createdAt: string;
}

/**
 * Where announcements are shown, and the audiences each place shows: the public pages (visitors and
 * anyone else) only "Everyone"; the customer dashboard adds "Customers"; the admin dashboard adds "Admins".
 */
export const AUDIENCES_SHOWN = {
  public: ["all"],
  customers: ["all", "customers"],
  admins: ["all", "admins"],
} as const satisfies Record<string, readonly Announcement["targetAudience"][]>;
export type AnnouncementPlace = keyof typeof AUDIENCES_SHOWN;

/** At most this many are shown in one place, the newest first. */
export const SHOWN_ANNOUNCEMENTS = 5;

/** What a place shows of an announcement (and all its page's cache key carries of it, ADR 15). */
export type ShownAnnouncement = Pick<Announcement, "id" | "title" | "content" | "type">;

const fields = {
  title: z
    .string()
    .trim()
    .min(1, "announcements.errors.titleRequired")
    .max(150, "announcements.errors.titleTooLong"),
  content: z
    .string()
    .trim()
    .min(1, "announcements.errors.contentRequired")
    .max(5000, "announcements.errors.contentTooLong"),
  type: z.enum(ANNOUNCEMENT_TYPES).default("info"),
  targetAudience: z.enum(AUDIENCES).default("all"),
  isActive: z
    .string()
    .optional()
    .transform((value) => value === "on" || value === "true" || value === "1"),
};

export const announcementActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("create"), ...fields }),
  z.object({ intent: z.literal("update"), id: z.coerce.number().int().positive(), ...fields }),
  z.object({
    intent: z.enum(["activate", "deactivate", "delete"]),
    id: z.coerce.number().int().positive(),
  }),
]);
