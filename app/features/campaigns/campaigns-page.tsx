import { byId, timeColumn, type Column } from "~/components/data-table/data-table";
import { column } from "~/components/data-table/column-presets";
import { ListPage } from "~/components/data-table/list-page";
import { Badge } from "~/components/ui/badge";
import { Link } from "~/components/ui/link";
import { PageHeading } from "~/components/ui/page-heading";
import { CAMPAIGN_STATE_LABELS, type Campaign } from "~/domain/campaigns/campaigns";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";
import { CampaignEditor } from "./campaign-editor";
import type { CampaignActionResult } from "./campaign-shared";

/**
 * /admin/email-marketing (docs/mail.md#campaigns): the campaigns, newest first, each leading to its
 * page (preview, test, send, report); under them, the editor of a new one.
 */
export function CampaignsPage({
  campaigns,
  locale,
  result,
}: {
  campaigns: Campaign[];
  locale: string;
  result?: CampaignActionResult;
}) {
  const { t } = useTranslation("campaigns");
  const { t: tAdmin } = useTranslation("admin");
  const date = mediumDateTime(locale);
  const columns: Column<Campaign>[] = [
    column(
      "subject",
      t("list.subject"),
      (campaign) => (
        <Link
          to={`/admin/email-marketing/${campaign.id}`}
          className="font-medium text-primary underline-offset-4 hover:underline"
        >
          <bdi>{campaign.texts.en.subject}</bdi>
        </Link>
      ),
      { wide: true },
    ),
    column("state", t("list.state"), (campaign) => (
      <Badge tone={campaign.state === "sent" ? "green" : "grey"}>
        {t(CAMPAIGN_STATE_LABELS[campaign.state])}
      </Badge>
    )),
    column("recipients", t("list.recipients"), (campaign) =>
      campaign.state === "sent" ? String(campaign.recipients) : "—",
    ),
    timeColumn({
      id: "created",
      name: t("list.created"),
      at: (campaign) => campaign.sentAt ?? campaign.createdAt,
      format: date,
    }),
  ];
  return (
    <ListPage
      header={<PageHeading title={tAdmin("nav.emailMarketing")} intro={t("list.intro")} />}
      table={{ caption: tAdmin("nav.emailMarketing"), columns, rows: campaigns, rowKey: byId }}
      empty={t("list.empty")}
      footer={<CampaignEditor result={result} />}
    />
  );
}
