import { CoinsIcon } from "lucide-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "~/components/ui/dialog";
import { formatCoins, formatEuros } from "~/lib/money";
import type { ShellUser } from "./types";

export function CoinDialog({
  user,
  communityUrl,
  locale,
}: {
  user: ShellUser;
  communityUrl: string;
  locale: string;
}) {
  const { t } = useTranslation();
  const amount = formatCoins(user.coinBalanceCents, locale);
  return (
    <Dialog>
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" aria-label={t("nav.coinBalanceLabel", { amount })}>
          <CoinsIcon aria-hidden className="text-accent" />
          <span>{t("nav.coinBalance", { amount })}</span>
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t("coins.close")}>
        <DialogHeader>
          <DialogTitle>{t("coins.title")}</DialogTitle>
          <DialogDescription>
            {t("coins.description", { rate: formatEuros(100, locale) })}
          </DialogDescription>
        </DialogHeader>
        <p className="font-medium">{t("coins.balance", { amount })}</p>
        <ol className="list-decimal space-y-2 ps-5 text-sm">
          <li>{t("coins.stepCommunity")}</li>
          <li>{t("coins.stepTicket")}</li>
          <li>{t("coins.stepTeam")}</li>
        </ol>
        <div className="flex flex-wrap gap-2">
          {/* Closing on click: the dialog would otherwise stay open over the ticket form. */}
          <DialogClose asChild>
            <Button asChild>
              <Link to="/support/new?topic=coins">{t("coins.openTicket")}</Link>
            </Button>
          </DialogClose>
          <Button asChild variant="outline">
            <a href={communityUrl} target="_blank" rel="noopener noreferrer">
              {t("coins.joinCommunity")}
            </a>
          </Button>
        </div>
      </DialogContent>
    </Dialog>
  );
}
