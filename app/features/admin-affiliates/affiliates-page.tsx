import { byId, DataTable, type Column } from "~/components/data-table/data-table";
import {
  actionsColumn,
  badgeColumn,
  column,
  customerColumn,
} from "~/components/data-table/column-presets";
import { ListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { TitledCard } from "~/components/ui/card";
import { FormCard, FormFields } from "~/components/ui/form-card";
import { IntentButton } from "~/components/ui/intent-button";
import { Link } from "~/components/ui/link";
import { Moment } from "~/components/ui/moment";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage, type ActionResult } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import {
  percentText,
  REFERRAL_FLAG_LABELS,
  REFERRAL_STATE_LABELS,
  REFERRAL_STATES,
  type AdminReferralRow,
  type ReferralSettings,
  type ReferralState,
  type ReferrerRow,
} from "~/domain/referrals/referrals";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDate } from "~/lib/intl-format";
import { formatCoins } from "~/lib/money";
import { cn } from "~/lib/utils";

const TONES: Record<ReferralState, "green" | "yellow" | "red" | "blue" | "grey"> = {
  waiting: "blue",
  flagged: "yellow",
  paid: "green",
  over_cap: "yellow",
  rejected: "red",
  refunded: "grey",
};

export interface AffiliatesResult extends ActionResult {
  intent?: string;
}

export interface AffiliatesPageData {
  settings: ReferralSettings;
  referrals: AdminReferralRow[];
  hasMore: boolean;
  referrers: ReferrerRow[];
  counts: Partial<Record<ReferralState, number>>;
  query: { state?: ReferralState; page: number };
  locale: string;
}

function address(state: ReferralState | undefined, page = 1) {
  const search = new URLSearchParams();
  if (state) search.set("state", state);
  if (page > 1) search.set("page", String(page));
  const text = search.toString();
  return `/admin/affiliates${text ? `?${text}` : ""}`;
}

function useReferralColumns(locale: string): Column<AdminReferralRow>[] {
  const { t } = useTranslation("referrals");
  const date = mediumDate(locale);
  return [
    actionsColumn(t("admin.referrals.columns.actions"), (row) =>
      row.state === "flagged" ? (
        <div className="flex flex-wrap gap-2">
          <IntentButton
            intent="pay"
            fields={{ id: row.id }}
            accessibleName={t("admin.decide.payName", { name: row.referredName })}
          >
            {t("admin.decide.pay")}
          </IntentButton>
          <IntentButton
            intent="reject"
            fields={{ id: row.id }}
            variant="destructive"
            confirmText={t("admin.decide.rejectConfirm")}
            accessibleName={t("admin.decide.rejectName", { name: row.referredName })}
          >
            {t("admin.decide.reject")}
          </IntentButton>
        </div>
      ) : null,
    ),
    customerColumn(t("admin.referrals.columns.referrer"), (row) => [
      row.referrerName,
      row.referrerEmail,
    ]),
    {
      ...customerColumn(t("admin.referrals.columns.referred"), (row: AdminReferralRow) => [
        row.referredName,
        row.referredEmail,
      ]),
      id: "referred",
    },
    badgeColumn("state", t("admin.referrals.columns.state"), (row) => ({
      tone: TONES[row.state],
      text: t(REFERRAL_STATE_LABELS[row.state]),
    })),
    column("flags", t("admin.referrals.columns.flags"), (row) => (
      <span className="flex flex-wrap gap-1">
        {row.flags.map((flag) => (
          <Badge key={flag} tone="yellow">
            {t(REFERRAL_FLAG_LABELS[flag])}
          </Badge>
        ))}
        {row.flagCleared ? (
          <span className="text-xs text-muted-foreground">{t("admin.referrals.cleared")}</span>
        ) : null}
      </span>
    )),
    column("reward", t("admin.referrals.columns.reward"), (row) =>
      row.rewardCents === null ? (
        <span className="text-muted-foreground">
          {row.orderId ? t("admin.referrals.order", { id: row.orderId }) : "—"}
        </span>
      ) : (
        <span>
          <bdi dir="ltr">{formatCoins(row.paidCents ?? 0, locale)}</bdi>
          {row.unpaidCents ? (
            <span className="block text-xs text-muted-foreground">
              {t("admin.referrals.unpaid", { amount: formatCoins(row.unpaidCents, locale) })}
            </span>
          ) : null}
        </span>
      ),
    ),
    column("date", t("admin.referrals.columns.date"), (row) => (
      <Moment at={row.createdAt} format={date} />
    )),
  ];
}

function useReferrerColumns(locale: string): Column<ReferrerRow>[] {
  const { t } = useTranslation("referrals");
  return [
    customerColumn(t("admin.referrers.columns.referrer"), (row) => [row.name, row.email]),
    column("code", t("admin.referrers.columns.code"), (row) => <code dir="ltr">{row.code}</code>),
    column("referrals", t("admin.referrers.columns.referrals"), (row) => (
      <bdi dir="ltr">{row.referrals}</bdi>
    )),
    column("paid", t("admin.referrers.columns.paid"), (row) => (
      <bdi dir="ltr">{formatCoins(row.paidCents, locale)}</bdi>
    )),
    column("unpaid", t("admin.referrers.columns.unpaid"), (row) => (
      <bdi dir="ltr">{formatCoins(row.unpaidCents, locale)}</bdi>
    )),
  ];
}

/** The settings form: the switch, the percentage and the monthly cap. */
function SettingsForm({
  settings,
  result,
}: {
  settings: ReferralSettings;
  result?: AffiliatesResult;
}) {
  const { t } = useTranslation("referrals");
  const busy = useBusy();
  const mine = result?.intent === "settings" ? result : undefined;
  return (
    <FormCard
      id="settings"
      title={t("admin.settings.title")}
      description={t("admin.settings.capHint")}
      busy={busy}
      status={mine ? { ok: mine.ok, text: <ResultMessage result={mine} /> } : null}
      submit={{ label: t("admin.settings.save"), busyLabel: t("admin.settings.saving") }}
    >
      <FormFields
        idPrefix="referral"
        fields={[
          {
            kind: "switch",
            name: "enabled",
            label: t("admin.settings.enabled"),
            hint: t("admin.settings.enabledHint"),
          },
          {
            kind: "input",
            name: "percent",
            label: t("admin.settings.percent"),
            hint: t("admin.settings.percentHint"),
            inputMode: "decimal",
            dir: "ltr",
          },
          {
            kind: "input",
            name: "cap",
            label: t("admin.settings.cap"),
            inputMode: "decimal",
            dir: "ltr",
          },
        ]}
        checked={{ enabled: settings.enabled }}
        values={
          mine?.values ?? {
            percent: percentText(settings.percentBasisPoints),
            cap: formatCoins(settings.monthlyCapCents, "en").replace(/,/g, ""),
          }
        }
        errors={mine?.fieldErrors}
      />
    </FormCard>
  );
}

/**
 * /admin/affiliates (docs/referrals.md): the referral settings, the referrals by state (the flagged ones
 * with their decision), and the referrers with what they were paid and what the cap left unpaid.
 */
export function AffiliatesPage({
  settings,
  referrals,
  hasMore,
  referrers,
  counts,
  query,
  locale,
  result,
}: AffiliatesPageData & { result?: AffiliatesResult }) {
  const { t } = useTranslation("referrals");
  const { t: tAdmin } = useTranslation("admin");
  const columns = useReferralColumns(locale);
  const referrerColumns = useReferrerColumns(locale);
  const decision = result && result.intent !== "settings" ? result : undefined;
  return (
    <ListPage
      header={
        <PageHeading title={tAdmin("nav.affiliates")} intro={t("admin.intro")}>
          <SettingsForm settings={settings} result={result} />
        </PageHeading>
      }
      filters={
        <nav aria-label={t("admin.counts.label")} className="flex flex-wrap gap-2 text-sm">
          {[undefined, ...REFERRAL_STATES].map((state) => (
            <Link
              key={state ?? "all"}
              to={address(state)}
              aria-current={query.state === state ? "page" : undefined}
              className={cn(
                "rounded-full border px-3 py-1",
                query.state === state ? "border-primary text-primary" : "text-muted-foreground",
              )}
            >
              {state ? t(REFERRAL_STATE_LABELS[state]) : t("admin.filter.all")}
              {state ? ` (${counts[state] ?? 0})` : ""}
            </Link>
          ))}
        </nav>
      }
      table={{ caption: t("admin.referrals.title"), columns, rows: referrals, rowKey: byId }}
      empty={t("admin.referrals.empty")}
      pager={{
        page: query.page,
        hasMore,
        href: (page) => address(query.state, page),
        labels: { previous: t("admin.pager.previous"), next: t("admin.pager.next") },
      }}
      footer={
        <TitledCard
          title={t("admin.referrers.title")}
          empty={referrers.length === 0 ? t("admin.referrers.empty") : undefined}
        >
          <DataTable
            caption={t("admin.referrers.title")}
            columns={referrerColumns}
            rows={referrers}
            rowKey={(row) => row.userId}
          />
        </TitledCard>
      }
    >
      {decision ? <ResultMessage result={decision} /> : null}
    </ListPage>
  );
}
