import { CoinsIcon, HandCoinsIcon, UsersIcon } from "lucide-react";
import { DataTable, type Column } from "~/components/data-table/data-table";
import { badgeColumn, column } from "~/components/data-table/column-presets";
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from "~/components/ui/card";
import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { CopyButton } from "~/components/ui/copy-button";
import { useBusy } from "~/components/ui/use-busy";
import { Input } from "~/components/ui/input";
import { Moment } from "~/components/ui/moment";
import { StatCards } from "~/components/ui/stat-cards";
import {
  percentText,
  REFERRAL_STATE_LABELS,
  type ReferralRow,
  type ReferralSettings,
  type ReferralState,
} from "~/domain/referrals/referrals";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDate } from "~/lib/intl-format";
import { formatCoins } from "~/lib/money";

const TONES: Record<ReferralState, "green" | "yellow" | "red" | "blue" | "grey"> = {
  waiting: "blue",
  flagged: "blue",
  paid: "green",
  over_cap: "yellow",
  rejected: "red",
  refunded: "grey",
};

export interface ReferralsTabData {
  /** Null until the customer asks for their link. */
  code: string | null;
  link: string | null;
  settings: ReferralSettings;
  referrals: ReferralRow[];
  paidCents: number;
  unpaidCents: number;
  locale: string;
}

/**
 * /dashboard/referrals (docs/referrals.md): the customer's link, in a field they can select and copy
 * without a script (the button copies it with one), what they earn, and the friends who registered
 * through it, their names and addresses masked.
 */
export function ReferralsTab({
  code,
  link,
  settings,
  referrals,
  paidCents,
  unpaidCents,
  locale,
}: ReferralsTabData) {
  const { t } = useTranslation("referrals");
  const busy = useBusy();
  const date = mediumDate(locale);
  const columns: Column<ReferralRow>[] = [
    column("name", t("page.columns.name"), (row) => <bdi>{row.name}</bdi>),
    column("email", t("page.columns.email"), (row) => <bdi dir="ltr">{row.email}</bdi>),
    badgeColumn("state", t("page.columns.state"), (row) => ({
      tone: TONES[row.state],
      text: t(REFERRAL_STATE_LABELS[row.state]),
    })),
    column("reward", t("page.columns.reward"), (row) => (
      <span>
        <bdi dir="ltr">{formatCoins(row.paidCents, locale)}</bdi>
        {row.unpaidCents > 0 ? (
          <span className="block text-xs text-muted-foreground">
            {t("page.unpaid", { amount: formatCoins(row.unpaidCents, locale) })}
          </span>
        ) : null}
      </span>
    )),
    column("date", t("page.columns.date"), (row) => <Moment at={row.createdAt} format={date} />),
  ];
  return (
    <div className="grid gap-4">
      <Card>
        <CardHeader>
          <CardTitle>{t("page.linkLabel")}</CardTitle>
        </CardHeader>
        <CardContent className="grid gap-3">
          <p className="text-sm">
            {t("page.intro", { percent: percentText(settings.percentBasisPoints) })}
          </p>
          <p className="text-sm text-muted-foreground">
            {settings.monthlyCapCents > 0
              ? t("page.capNote", { cap: formatCoins(settings.monthlyCapCents, locale) })
              : t("page.noCap")}
          </p>
          {settings.enabled ? null : <p className="text-sm font-medium">{t("page.off")}</p>}
          {code && link ? (
            <LinkField code={code} link={link} />
          ) : (
            <Form method="post" className="grid gap-2">
              <p className="text-sm">{t("page.noLink")}</p>
              <input type="hidden" name="intent" value="createLink" />
              <Button type="submit" disabled={busy} className="w-fit">
                {t("page.createLink")}
              </Button>
            </Form>
          )}
        </CardContent>
      </Card>
      <StatCards
        size="md"
        stats={[
          { icon: <UsersIcon />, label: t("page.count"), value: String(referrals.length) },
          {
            icon: <CoinsIcon />,
            label: t("page.earned"),
            value: <bdi dir="ltr">{formatCoins(paidCents, locale)}</bdi>,
          },
          {
            icon: <HandCoinsIcon />,
            label: t("page.notPaid"),
            value: <bdi dir="ltr">{formatCoins(unpaidCents, locale)}</bdi>,
          },
        ]}
      />
      <TitledCard
        title={t("page.listTitle")}
        empty={referrals.length === 0 ? t("page.empty") : undefined}
      >
        <DataTable
          caption={t("page.listTitle")}
          columns={columns}
          rows={referrals}
          rowKey={(row) => row.id}
        />
      </TitledCard>
    </div>
  );
}

/** The link in a field the customer can select without a script, the button copying it with one. */
function LinkField({ code, link }: { code: string; link: string }) {
  const { t } = useTranslation("referrals");
  return (
    <>
      <label htmlFor="referral-link" className="text-sm font-medium">
        {t("page.linkLabel")}
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id="referral-link"
          readOnly
          value={link}
          dir="ltr"
          aria-describedby="referral-link-hint"
          className="min-w-0 flex-1 font-mono"
        />
        <CopyButton
          targetId="referral-link"
          text={link}
          label={t("page.copy")}
          copied={t("page.copied")}
          failed={t("page.copyFailed")}
        />
      </div>
      <p id="referral-link-hint" className="text-xs text-muted-foreground">
        {t("page.linkHint")} {t("page.code", { code })}
      </p>
    </>
  );
}
