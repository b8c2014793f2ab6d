import { CoinsIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogPanel, DialogTrigger } from "~/components/ui/dialog";
import { liveChatLinks, type PublicSettings } from "~/domain/settings/settings";
import { formatCoins, formatEuros } from "~/lib/money";
import type { ShellUser } from "./types";

/** The page that says what the coin dialog says, for a link to it (a service short of coins). */
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

/**
 * The balance button and the dialog that explains how coins are bought. The dialog is in the page's HTML
 * (a Dialog `inPage`): a tap on the button before the page's scripts have run (a slow phone, right after
 * signing in) opens it all the same, as the site's forms work without them (ADR 50). The coins page
 * (COINS_PAGE) says the same for a link elsewhere.
 */
export function CoinDialog({ user, settings, locale }: CoinProps) {
  const { t } = useTranslation();
  const amount = formatCoins(user.coinBalanceCents, locale);
  const { title, description } = useCoinTexts({ settings, locale });
  return (
    <Dialog inPage>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={t("nav.coinBalanceLabel", { amount })}>
          <CoinsIcon aria-hidden className="text-accent" />
          {/* Below 1280 px the bar has room for the figure only (the icon and the name say coins). */}
          <span className="xl:hidden">{amount}</span>
          <span className="hidden xl:inline">{t("nav.coinBalance", { amount })}</span>
        </Button>
      </DialogTrigger>
      <DialogPanel closeLabel={t("coins.close")} title={title} description={description}>
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
