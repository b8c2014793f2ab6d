import { CircleCheckIcon, CircleIcon } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { Link } from "~/components/ui/link";
import {
  SETUP_ITEM_ACTIONS,
  SETUP_ITEM_RULES,
  TWO_FACTOR_GAP_DETAILS,
  type SetupChecklist as Checklist,
  type SetupDetail,
  type SetupItem,
} from "~/domain/admin-dashboard/setup-checklist";
import { useTranslation } from "~/i18n/use-translation";
import { numberFormat } from "~/lib/intl-format";
import { cn } from "~/lib/utils";

/** What an open item's count says of it. */
function DetailText({ detail, locale }: { detail: SetupDetail; locale: string }) {
  const { t } = useTranslation("admin");
  switch (detail.kind) {
    case "keptMail":
      return t("dashboard.setup.details.keptMail", { count: detail.count });
    case "keptMailOver":
      return t("dashboard.setup.details.keptMailOver", {
        limit: numberFormat(locale).format(detail.limit),
      });
    case "twoFactorNotRequired":
      return t(TWO_FACTOR_GAP_DETAILS[detail.gap]);
    case "membersWithoutTwoFactor":
      return t("dashboard.setup.details.membersWithoutTwoFactor", { count: detail.count });
    case "nothingOnSale":
      return t("dashboard.setup.details.nothingOnSale");
    case "freeProducts":
      return t("dashboard.setup.details.freeProducts", { count: detail.count });
    case "samplePrices":
      return t("dashboard.setup.details.samplePrices", { count: detail.count });
  }
}

/**
 * One item: ticked or not (said in words by its badge, the icon is decoration), what it asks and when it
 * counts as done, what is still missing, and a link to the page where it is done. A done item is one line.
 */
function SetupRow({ item, locale }: { item: SetupItem; locale: string }) {
  const { t } = useTranslation("admin");
  const Icon = item.done ? CircleCheckIcon : CircleIcon;
  return (
    <li
      className="flex gap-3 py-4 first:pt-0 last:pb-0"
      data-testid={`setup-${item.id}`}
      data-done={item.done}
    >
      <Icon
        className={cn(
          "mt-0.5 size-5 shrink-0",
          item.done ? "text-green-600" : "text-muted-foreground",
        )}
        aria-hidden
      />
      <div className="flex min-w-0 flex-1 flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="grid min-w-0 gap-1">
          <p className="flex flex-wrap items-center gap-2 font-medium">
            <span>{t(item.message)}</span>
            <Badge tone={item.done ? "green" : "yellow"}>
              {item.done ? t("dashboard.setup.done") : t("dashboard.setup.todo")}
            </Badge>
          </p>
          {item.done ? null : (
            <>
              <p className="text-sm text-muted-foreground">{t(SETUP_ITEM_RULES[item.id])}</p>
              {item.details.map((detail) => (
                <p key={detail.kind} className="text-sm font-medium">
                  <DetailText detail={detail} locale={locale} />
                </p>
              ))}
            </>
          )}
        </div>
        {item.done ? null : (
          <Button asChild variant="outline" size="sm" className="shrink-0 self-start">
            <Link to={item.to}>{t(SETUP_ITEM_ACTIONS[item.id])}</Link>
          </Button>
        )}
      </div>
    </li>
  );
}

/**
 * The dashboard's setup checklist: what a new shop still lacks, each item linking to where it is done.
 * The loader sends none once every item is done, and then nothing is drawn.
 */
export function SetupChecklist({
  checklist,
  locale,
}: {
  checklist: Checklist | null;
  locale: string;
}) {
  const { t } = useTranslation("admin");
  if (!checklist) return null;
  return (
    <Card data-testid="setup-checklist">
      <CardHeader>
        <div className="flex flex-wrap items-center gap-2">
          <CardTitle>{t("dashboard.setup.title")}</CardTitle>
          <Badge>
            {t("dashboard.setup.progress", {
              done: checklist.done,
              total: checklist.items.length,
            })}
          </Badge>
        </div>
        <CardDescription>{t("dashboard.setup.intro")}</CardDescription>
      </CardHeader>
      <CardContent>
        <ul className="divide-y">
          {checklist.items.map((item) => (
            <SetupRow key={item.id} item={item} locale={locale} />
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
