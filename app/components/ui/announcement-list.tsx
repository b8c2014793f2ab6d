import { CircleCheckIcon, InfoIcon, TriangleAlertIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import type { ShownAnnouncement } from "~/domain/announcements/announcements";
import { cn } from "~/lib/utils";

// Each type's colour (the bar at the start and the icon) and its name for screen readers (the colour and
// the icon are not all a notice says about itself). Catalogue keys written out for the catalogue test.
const TYPES = {
  info: { icon: InfoIcon, bar: "border-primary", tint: "text-primary", label: "types.info" },
  success: {
    icon: CircleCheckIcon,
    bar: "border-green-600",
    tint: "text-green-700",
    label: "types.success",
  },
  warning: {
    icon: TriangleAlertIcon,
    bar: "border-yellow-500",
    tint: "text-yellow-700",
    label: "types.warning",
  },
} as const;

/**
 * The active announcements of one place (the public pages, the customer dashboard, the admin dashboard),
 * newest first as given: a region named `label`, each notice with its type's colour, icon and name, its
 * title and its text in the direction they are written in (an admin writes them, in any language). Nothing
 * when there are none. Plain markup with no state: the same on a page served without React (ADR 13).
 */
export function AnnouncementList({
  announcements,
  label,
  className,
}: {
  announcements: readonly ShownAnnouncement[];
  label: string;
  className?: string;
}) {
  const { t } = useTranslation("announcements");
  if (announcements.length === 0) return null;
  return (
    <section aria-label={label} className={className}>
      <ul className="grid gap-3">
        {announcements.map((announcement) => {
          const type = TYPES[announcement.type] ?? TYPES.info;
          const Icon = type.icon;
          return (
            <li
              key={announcement.id}
              className={cn("flex gap-3 rounded-md border-s-4 bg-muted p-3", type.bar)}
              data-announcement-type={announcement.type}
            >
              <Icon aria-hidden className={cn("mt-0.5 size-5 shrink-0", type.tint)} />
              <div className="min-w-0">
                <span className="sr-only">{t(type.label)}</span>
                <p className="font-semibold wrap-anywhere" dir="auto">
                  {announcement.title}
                </p>
                <p className="text-sm whitespace-pre-wrap wrap-anywhere" dir="auto">
                  {announcement.content}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
