import { z } from "~/lib/zod";
import { ANNOUNCEMENT_TYPES, AUDIENCES } from "./announcements";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

function translatedField(
  max: number,
  tooLong: "announcements.errors.titleTooLong" | "announcements.errors.contentTooLong",
) {
  return z.string().trim().max(max, tooLong).optional().default("");
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
  // The other languages: optional, each field empty when it shows the English one.
  titleFr: translatedField(150, "announcements.errors.titleTooLong"),
  contentFr: translatedField(5000, "announcements.errors.contentTooLong"),
  titleAr: translatedField(150, "announcements.errors.titleTooLong"),
  contentAr: translatedField(5000, "announcements.errors.contentTooLong"),
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
