import { z } from "~/lib/zod";

export const ANNOUNCEMENT_TYPES = ["info", "success", "warning"] as const;
export const AUDIENCES = ["all", "customers", "admins"] as const;
// Catalogue keys (announcements namespace) written out, so the catalogue test sees every one in use.
export const ANNOUNCEMENT_TYPE_LABELS = {
  info: "types.info",
  success: "types.success",
  warning: "types.warning",
} as const satisfies Record<(typeof ANNOUNCEMENT_TYPES)[number], string>;
export const AUDIENCE_LABELS = {
  all: "audiences.all",
  customers: "audiences.customers",
  admins: "audiences.admins",
} as const satisfies Record<(typeof AUDIENCES)[number], string>;

export interface Announcement {
  id: number;
  title: string;
  content: string;
  type: (typeof ANNOUNCEMENT_TYPES)[number];
  isActive: boolean;
  targetAudience: (typeof AUDIENCES)[number];
  createdAt: string;
}

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
