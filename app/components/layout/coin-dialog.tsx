import { CoinsIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { DialogClose, DialogShell } from "~/components/ui/dialog";
import { liveChatLinks, type PublicSettings } from "~/domain/settings/settings";
import { formatCoins, formatEuros } from "~/lib/money";
import type { ShellUser } from "./types";

/**
 * The balance button and the dialog that explains how coins are bought (off-site, through the team). It
 * follows the admin's switches: with coin purchase closed it says so and shows only the balance (which
 * still pays for orders and renewals); otherwise it lists the ways to reach the team that are open
 * (the community chat with live chat on, a support ticket with tickets on, else the contact email).
 */
export function CoinDialog({
  user,
  settings,
  locale,
}: {
  user: ShellUser;
  settings: Pick<PublicSettings, "features" | "links" | "general">;
  locale: string;
}) {
  const { t } = useTranslation();
  const amount = formatCoins(user.coinBalanceCents, locale);
  const { coinPurchase, tickets } = settings.features;
  const community = liveChatLinks(settings).community;
  const email = settings.general.contactEmail;
  return (
    <DialogShell
      trigger={
        <Button variant="outline" size="sm" aria-label={t("nav.coinBalanceLabel", { amount })}>
          <CoinsIcon aria-hidden className="text-accent" />
          <span>{t("nav.coinBalance", { amount })}</span>
        </Button>
      }
      closeLabel={t("coins.close")}
      title={coinPurchase ? t("coins.title") : t("coins.closedTitle")}
      description={
        coinPurchase
          ? t("coins.description", { rate: formatEuros(100, locale) })
          : t("coins.closedText")
      }
    >
      <p className="font-medium">{t("coins.balance", { amount })}</p>
      {coinPurchase ? (
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
            {tickets ? (
              // Closing on click: the dialog would otherwise stay open over the ticket form.
              <DialogClose asChild>
                <Button asChild>
                  <Link to="/support/new?topic=coins">{t("coins.openTicket")}</Link>
                </Button>
              </DialogClose>
            ) : null}
            {community ? (
              <Button asChild variant={tickets ? "outline" : "default"}>
                <a href={community} target="_blank" rel="noopener noreferrer">
                  {t("coins.joinCommunity")}
                </a>
              </Button>
            ) : null}
          </div>
        </>
      ) : null}
    </DialogShell>
  );
}
