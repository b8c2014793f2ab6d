import { BellIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Link, useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "~/components/ui/dropdown-menu";
import { NOTIFICATION_LABELS } from "~/domain/notifications/notifications";
import { formatCoins } from "~/lib/money";
import type { ShellNotification, ShellUser } from "./types";

/** The bell: unread notifications; opening the list marks them read. Each links to what it is about. */
export function NotificationBell({
  notifications,
  locale,
}: {
  notifications?: ShellUser["notifications"];
  locale: string;
}) {
  const { t } = useTranslation();
  const { t: tTickets } = useTranslation("tickets");
  const fetcher = useFetcher();
  const unread = fetcher.state !== "idle" || fetcher.data ? 0 : (notifications?.unread ?? 0);
  const items = notifications?.items ?? [];
  const text = (item: ShellNotification) => {
    const params: Record<string, string | number> = { ...item.params };
    if (typeof params.amountCents === "number")
      params.amount = formatCoins(params.amountCents, locale);
    return tTickets(NOTIFICATION_LABELS[item.kind], params);
  };
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
        <DropdownMenuLabel>{t("nav.notifications")}</DropdownMenuLabel>
        {items.length === 0 ? (
          // A menu holds menu items (aria-required-children): the empty list's line is one, disabled.
          <DropdownMenuItem disabled className="cursor-default text-muted-foreground">
            {t("nav.noNotifications")}
          </DropdownMenuItem>
        ) : (
          items.map((item) => (
            <DropdownMenuItem key={item.id} asChild>
              <Link to={item.link} className={item.read ? "text-muted-foreground" : "font-medium"}>
                {text(item)}
              </Link>
            </DropdownMenuItem>
          ))
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
