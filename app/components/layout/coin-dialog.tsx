import { CoinsIcon } from "lucide-react";
import type { ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Dialog, DialogClose, DialogPanel, DialogTrigger } from "~/components/ui/dialog";
import { shortfallParam, TOP_UP_COINS_PARAM, TOP_UP_PAGE } from "~/domain/payments/top-ups";
import { liveChatLinks, type PublicSettings } from "~/domain/settings/settings";
import { formatCoins, formatEuros } from "~/lib/money";
import type { ShellUser } from "./types";

/** The page that says what the coin dialog says, for a link to it (a service short of coins). */
export const COINS_PAGE = "/coins";
export { TOP_UP_PAGE };

/**
 * How coins are bought now: here with a payment method (one is open), off-site with the team (none
 * is), or not at all (coin purchase is closed in the settings). One way at a time: the dialog, the
 * coins page and every "Add coins" say the same.
 */
export type CoinPurchaseWay = "top-up" | "off-site" | "closed";

export function coinPurchaseWay(
  settings: Pick<PublicSettings, "features">,
  user: Pick<ShellUser, "topUpOpen">,
): CoinPurchaseWay {
  if (!settings.features.coinPurchase) return "closed";
  return user.topUpOpen ? "top-up" : "off-site";
}

/**
 * Where an "Add coins" leads: the top-up form, with what is missing filled in (`?coins=3.50`, which
 * the form rounds up to whole coins and to the method's minimum), while a method is open; else the
 * coins page, which says how to reach the team.
 */
export function addCoinsPath(way: Exclude<CoinPurchaseWay, "closed">, missingCents = 0): string {
  if (way === "off-site") return COINS_PAGE;
  return missingCents > 0
    ? `${TOP_UP_PAGE}?${TOP_UP_COINS_PARAM}=${shortfallParam(missingCents)}`
    : TOP_UP_PAGE;
}

/**
 * "Add coins" where a balance is short of `missingCents` (the renewal step, the order form): a
 * button of the kit that leads where `addCoinsPath` says; nothing while coin purchase is closed.
 */
export function AddCoinsButton({
  way,
  missingCents,
}: {
  way: CoinPurchaseWay;
  missingCents?: number;
}) {
  const { t } = useTranslation();
  if (way === "closed") return null;
  return (
    <Button asChild size="sm" className="w-fit">
      <Link to={addCoinsPath(way, missingCents)}>{t("coins.addCoins")}</Link>
    </Button>
  );
}

type CoinProps = {
  user: Pick<ShellUser, "coinBalanceCents" | "topUpOpen">;
  settings: Pick<PublicSettings, "features" | "links" | "general">;
  locale: string;
};

/** The dialog's (and the coins page's) title and the line under it. */
function useCoinTexts({ user, settings, locale }: CoinProps) {
  const { t } = useTranslation();
  const way = coinPurchaseWay(settings, user);
  const rate = formatEuros(100, locale);
  return {
    title: way === "closed" ? t("coins.closedTitle") : t("coins.title"),
    description:
      way === "top-up"
        ? t("coins.descriptionTopUp", { rate })
        : way === "off-site"
          ? t("coins.description", { rate })
          : t("coins.closedText"),
  };
}

/**
 * How coins are bought, under the title and description. It follows the admin's switches: with coin
 * purchase closed it shows only the balance (which still pays for orders and renewals); with a payment
 * method open, "Add coins" to the top-up form and nothing else; with none open, the steps to buy them
 * off-site, through the team: the ways to reach it that are open (the community chat with live chat
 * on, a support ticket with tickets on, else the contact email). `closing` wraps the links that stay
 * on the site in the dialog, so that following one closes the dialog.
 */
function CoinPurchase({
  user,
  settings,
  locale,
  closing = (link) => link,
}: CoinProps & { closing?: (link: ReactNode) => ReactNode }) {
  const { t } = useTranslation();
  const amount = formatCoins(user.coinBalanceCents, locale);
  const way = coinPurchaseWay(settings, user);
  const { tickets } = settings.features;
  const community = liveChatLinks(settings).community;
  const email = settings.general.contactEmail;
  return (
    <>
      <p className="font-medium">{t("coins.balance", { amount })}</p>
      {way === "top-up"
        ? closing(
            <Button asChild className="w-fit">
              <Link to={TOP_UP_PAGE}>{t("coins.addCoins")}</Link>
            </Button>,
          )
        : null}
      {way === "off-site" ? (
        <>
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
  const { title, description } = useCoinTexts({ user, settings, locale });
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
          // Closing on click: the dialog would otherwise stay open over the page it leads to.
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
