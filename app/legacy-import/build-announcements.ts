import { firstById, type Building } from "./build-context";
import { MAX_CONTENT_LENGTH, MAX_TITLE_LENGTH } from "./collections";
import { readLegacyDate } from "./field-loose";
import { announcementType, audience } from "./map-values";
import type { RawAnnouncement } from "./schema-records";

/** Announcements, by old id. */
export function buildAnnouncements(b: Building) {
  const label = (item: RawAnnouncement) => item.title;
  for (const { ref, key, record: item } of firstById(b, "announcements", label)) {
    b.data.announcements.push({
      ref,
      key,
      title: item.title.slice(0, MAX_TITLE_LENGTH),
      content: item.content.slice(0, MAX_CONTENT_LENGTH),
      type: announcementType(item.type),
      isActive: item.isActive ?? true,
      targetAudience: audience(item.targetAudience),
      createdAt: readLegacyDate(item.createdAt),
    });
  }
}
