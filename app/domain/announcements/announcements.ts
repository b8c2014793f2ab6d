import { labelKeys } from "~/lib/label-keys";

// Catalogue keys (announcements namespace), one family a set of values (docs/i18n.md, ADR 26).
export const ANNOUNCEMENT_TYPES = ["info", "success", "warning"] as const;
export const ANNOUNCEMENT_TYPE_LABELS = labelKeys("announcements", "types", ANNOUNCEMENT_TYPES);
export const AUDIENCES = ["all", "customers", "admins"] as const;
export const AUDIENCE_LABELS = labelKeys("announcements", "audiences", AUDIENCES);

/** The languages an announcement may have texts of its own in, besides English (migration 0024, ADR 21). */
export const ANNOUNCEMENT_TEXT_LOCALES = ["fr", "ar"] as const;
export type AnnouncementTextLocale = (typeof ANNOUNCEMENT_TEXT_LOCALES)[number];

export function isAnnouncementTextLocale(locale: unknown): locale is AnnouncementTextLocale {
  return (
    typeof locale === "string" && (ANNOUNCEMENT_TEXT_LOCALES as readonly string[]).includes(locale)
  );
}

/** An announcement's words in one language; an empty field falls back to English. */
export interface AnnouncementTexts {
  title: string;
  content: string;
}

export function emptyAnnouncementTexts(): AnnouncementTexts {
  return { title: "", content: "" };
}

/**
 * What a reader of one language is shown: that language's title and content where the admin wrote them,
 * English where not, field by field (as product texts fall back, ADR 20).
 */
export function announcementTextsWithFallback(
  english: AnnouncementTexts,
  translated: AnnouncementTexts | undefined,
): AnnouncementTexts {
  return {
    title: translated?.title || english.title,
    content: translated?.content || english.content,
  };
}

export interface Announcement {
  id: number;
  title: string;
  content: string;
  type: (typeof ANNOUNCEMENT_TYPES)[number];
  isActive: boolean;
  targetAudience: (typeof AUDIENCES)[number];
  createdAt: string;
  /** The French and Arabic texts, each field empty where it falls back to English. */
  translations: Record<AnnouncementTextLocale, AnnouncementTexts>;
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

/** The translated texts of the admin's form, by language. */
export function announcementTranslations(form: {
  titleFr?: string;
  contentFr?: string;
  titleAr?: string;
  contentAr?: string;
}): Record<AnnouncementTextLocale, AnnouncementTexts> {
  return {
    fr: { title: form.titleFr ?? "", content: form.contentFr ?? "" },
    ar: { title: form.titleAr ?? "", content: form.contentAr ?? "" },
  };
}
