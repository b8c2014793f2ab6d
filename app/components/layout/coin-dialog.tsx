import { CoinsIcon } from "lucide-react";
import { useRef, useState, type MouseEvent, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogPanel } from "~/components/ui/dialog";
import { liveChatLinks, type PublicSettings } from "~/domain/settings/settings";
import { formatCoins, formatEuros } from "~/lib/money";
import type { ShellUser } from "./types";

/** The page that says what the coin dialog says, where the balance button leads before the scripts run. */
export const COINS_PAGE = "/coins";
/** Where a customer buys coins with a payment method (docs/payments.md): the dialog's first choice. */
export const TOP_UP_PAGE = "/dashboard/top-up";

type CoinProps = {
  user: Pick<ShellUser, "coinBalanceCents">;
  settings: Pick<PublicSettings, "features" | "links" | "general">;
  locale: string;
};

/** The dialog's (and the coins page's) title and the line under it. */
function useCoinTexts({ settings, locale }: Pick<CoinProps, "settings" | "locale">) {
  const { t } = useTranslation();
  const coinPurchase = settings.features.coinPurchase;
  return {
    title: coinPurchase ? t("coins.title") : t("coins.closedTitle"),
    description: coinPurchase
      ? t("coins.description", { rate: formatEuros(100, locale) })
      : t("coins.closedText"),
  };
}

/**
 * How coins are bought (off-site, through the team), under the title and description. It follows the
 * admin's switches: with coin purchase closed it shows only the balance (which still pays for orders and
 * renewals); otherwise it lists the ways to reach the team that are open (the community chat with live
 * chat on, a support ticket with tickets on, else the contact email). `closing` wraps the ticket link in
 * the dialog, so that following it closes the dialog.
 */
function CoinPurchase({
  user,
  settings,
  locale,
  closing = (link) => link,
}: CoinProps & { closing?: (link: ReactNode) => ReactNode }) {
  const { t } = useTranslation();
  const amount = formatCoins(user.coinBalanceCents, locale);
  const { coinPurchase, tickets } = settings.features;
  const community = liveChatLinks(settings).community;
  const email = settings.general.contactEmail;
  return (
    <>
      <p className="font-medium">{t("coins.balance", { amount })}</p>
      {coinPurchase ? (
        <>
          {closing(
            <Button asChild>
              <Link to={TOP_UP_PAGE}>{t("coins.addCoins")}</Link>
            </Button>,
          )}
          <ol className="list-decimal space-y-2 ps-5 text-sm">
            {community ? <li>{t("coins.stepCommunity")}</li> : null}
            {tickets ? <li>{t("coins.stepTicket")}</li> : null}
            {!community && !tickets ? (
              <li>
                {t("coins.stepEmail")}{" "}
                <a href={`mailto:${email}`} dir="ltr" className="text-primary hover:underline">
                  {email}
                </a>
              </li>
            ) : null}
            <li>{t("coins.stepTeam")}</li>
          </ol>
          <div className="flex flex-wrap gap-2">
            {tickets
              ? closing(
                  <Button asChild variant="outline">
                    <Link to="/support/new?topic=coins">{t("coins.openTicket")}</Link>
                  </Button>,
                )
              : null}
            {community ? (
              <Button asChild variant="outline">
                <a href={community} target="_blank" rel="noopener noreferrer">
                  {t("coins.joinCommunity")}
                </a>
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
    </>
  );
}

/** A click the browser should handle itself: another button, or a new tab or window asked for. */
function wantsBrowser(event: MouseEvent) {
  return event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey;
}

/**
 * The balance button and the dialog that explains how coins are bought. The button is a link to the
 * coins page (COINS_PAGE): tapped before the page's scripts have run (a slow phone, right after signing
 * in) it opens that page, as the site's forms work without them; once React runs it opens the dialog
 * instead (and it is named a button, which is what it is from then on: Space opens it too).
 */
export function CoinDialog({ user, settings, locale }: CoinProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const trigger = useRef<HTMLAnchorElement>(null);
  const amount = formatCoins(user.coinBalanceCents, locale);
  const { title, description } = useCoinTexts({ settings, locale });
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button asChild variant="outline" size="sm">
        <Link
          ref={trigger}
          to={COINS_PAGE}
          role="button"
          aria-haspopup="dialog"
          aria-expanded={open}
          aria-label={t("nav.coinBalanceLabel", { amount })}
          onClick={(event) => {
            if (wantsBrowser(event)) return;
            event.preventDefault();
            setOpen(true);
          }}
          onKeyDown={(event) => {
            // A button opens on Space too (a link would scroll the page).
            if (event.key !== " ") return;
            event.preventDefault();
            setOpen(true);
          }}
        >
          <CoinsIcon aria-hidden className="text-accent" />
          {/* Below 1280 px the bar has room for the figure only (the icon and the name say coins). */}
          <span className="xl:hidden">{amount}</span>
          <span className="hidden xl:inline">{t("nav.coinBalance", { amount })}</span>
        </Link>
      </Button>
      <DialogPanel
        closeLabel={t("coins.close")}
        title={title}
        description={description}
        // Back to the balance button (a link of its own here, not a DialogTrigger).
        returnFocus={trigger}
      >
        <CoinPurchase
          user={user}
          settings={settings}
          locale={locale}
          // Closing on click: the dialog would otherwise stay open over the ticket form.
          closing={(link) => <DialogClose asChild>{link}</DialogClose>}
        />
      </DialogPanel>
    </Dialog>
  );
}

/** The coins page: what the dialog says, as a page of its own (COINS_PAGE). */
export function CoinPage(props: CoinProps) {
  const { title, description } = useCoinTexts(props);
  return (
    <main className="mx-auto grid max-w-lg gap-4 px-4 py-12">
      <div className="grid gap-2">
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="text-sm text-muted-foreground">{description}</p>
      </div>
      <CoinPurchase {...props} />
    </main>
  );
}
