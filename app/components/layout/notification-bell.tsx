import { BellIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { useFetcher } from "react-router";
import { Link } from "~/components/ui/link";
import { cn } from "~/lib/utils";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { useNotificationCatalogue, useNotificationText } from "./notification-text";
import type { ShellUser } from "./types";

/** An admin's whole list of notifications. */
export const ADMIN_NOTIFICATIONS_PATH = "/admin/notifications";

/**
 * The bell: the user's newest notifications (BELL_LIMIT), each linking to what it is about with when it
 * came; opening the list marks the user's own read. `allHref` adds a link to the whole list (an admin's
 * /admin/notifications), for what the cap leaves out.
 *
 * The list is in the server's HTML, a popover (the kit's menu): a tap before the page's scripts have run
 * opens it too. Marking read needs the script, so a list opened before it is marked read as React
 * arrives and finds it open (DropdownMenu tells `onOpenChange`).
 */
export function NotificationBell({
  notifications,
  locale,
  timeZone,
  allHref,
}: {
  notifications?: ShellUser["notifications"];
  locale: string;
  /** The site's time zone, in which the times are written (the same on the server and in the browser). */
  timeZone: string;
  allHref?: string;
}) {
  const { t } = useTranslation();
  useNotificationCatalogue();
  const fetcher = useFetcher();
  const unread = fetcher.state !== "idle" || fetcher.data ? 0 : (notifications?.unread ?? 0);
  return (
    <DropdownMenu
      onOpenChange={(open) => {
        if (open && (notifications?.unread ?? 0) > 0 && !fetcher.data) {
          void fetcher.submit(null, { method: "post", action: "/notifications" });
        }
      }}
    >
      <DropdownMenuTrigger asChild>
        <Button
          variant="ghost"
          size="icon"
          className="relative"
          aria-label={t("nav.notificationsCount", { count: unread })}
        >
          <BellIcon aria-hidden />
          {unread > 0 ? (
            // The figure is for the eye: the button's name says the count, in words where the language
            // does ("one unread" in Arabic), so the figure is drawn by CSS and is no text of the button.
            <span
              aria-hidden
              data-count={unread}
              className="absolute -end-0.5 -top-0.5 min-w-5 rounded-full bg-destructive px-1 text-center text-xs font-bold text-white after:content-[attr(data-count)]"
            />
          ) : null}
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="w-80 max-w-[calc(100vw-2rem)]">
        <NotificationList
          items={notifications?.items ?? []}
          locale={locale}
          timeZone={timeZone}
          allHref={allHref}
        />
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/**
 * The menu's contents, written into every signed-in page so that the bell opens before the scripts run
 * (translating and dating them costs the server about 1.6% of such a page's CPU, docs/performance.md).
 */
function NotificationList({
  items,
  locale,
  timeZone,
  allHref,
}: {
  items: NonNullable<ShellUser["notifications"]>["items"];
  locale: string;
  timeZone: string;
  allHref?: string;
}) {
  const { t } = useTranslation();
  const { text, when } = useNotificationText({ locale, timeZone });
  return (
    <>
      <DropdownMenuLabel>{t("nav.notifications")}</DropdownMenuLabel>
      {items.length === 0 ? (
        // A menu holds menu items (aria-required-children): the empty list's line is one, disabled.
        <DropdownMenuItem disabled className="cursor-default text-muted-foreground">
          {t("nav.noNotifications")}
        </DropdownMenuItem>
      ) : (
        items.map((item) => (
          <DropdownMenuItem key={item.id} asChild>
            <Link
              to={item.link}
              className={cn(
                "flex-col items-start gap-0.5",
                item.read ? "text-muted-foreground" : "font-medium",
              )}
            >
              <span className="wrap-anywhere">{text(item)}</span>
              <time dateTime={item.createdAt} className="text-xs font-normal text-muted-foreground">
                {when(item)}
              </time>
            </Link>
          </DropdownMenuItem>
        ))
      )}
      {allHref ? (
        <DropdownMenuItem asChild>
          <Link to={allHref} className="mt-1 border-t pt-2 text-primary">
            {t("nav.allNotifications")}
          </Link>
        </DropdownMenuItem>
      ) : null}
    </>
  );
}
