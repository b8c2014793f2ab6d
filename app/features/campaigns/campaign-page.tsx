import { MailCheckIcon, MailXIcon, SendIcon, UserMinusIcon } from "lucide-react";
import { Badge } from "~/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "~/components/ui/card";
import { IntentButton } from "~/components/ui/intent-button";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage } from "~/components/ui/result-message";
import { StatCards } from "~/components/ui/stat-cards";
import {
  CAMPAIGN_LOCALE_LABELS,
  CAMPAIGN_STATE_LABELS,
  CAMPAIGN_TYPE_LABELS,
  type Campaign,
  type CampaignLocale,
  type CampaignReport,
} from "~/domain/campaigns/campaigns";
import { useTranslation } from "~/i18n/use-translation";
import { CampaignEditor } from "./campaign-editor";
import type { CampaignActionResult, CampaignPreview } from "./campaign-shared";

/** Who the campaign goes to, in words. */
function useAudienceText(campaign: Campaign): string {
  const { t } = useTranslation("campaigns");
  const parts: string[] = [];
  if (campaign.audience.newsletter) parts.push(t("audience.newsletter"));
  for (const type of campaign.audience.productTypes)
    parts.push(t("audience.customersOf", { type: t(CAMPAIGN_TYPE_LABELS[type]) }));
  if (parts.length === 0) return t("audience.none");
  const languages = campaign.audience.locales.map((locale) => t(CAMPAIGN_LOCALE_LABELS[locale]));
  return languages.length > 0
    ? `${parts.join(", ")} (${t("audience.onlyIn", { languages: languages.join(", ") })})`
    : parts.join(", ");
}

/** Each written language's message as its reader gets it, drawn in a frame of its own. */
function Previews({ previews }: { previews: CampaignPreview[] }) {
  const { t } = useTranslation("campaigns");
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t("preview.title")}</CardTitle>
        <CardDescription>{t("preview.intro")}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {previews.map((preview) => {
          const language = t(CAMPAIGN_LOCALE_LABELS[preview.locale as CampaignLocale]);
          return (
            <section key={preview.locale} className="grid min-w-0 gap-2">
              <h3 className="font-semibold">{language}</h3>
              <p className="text-sm wrap-anywhere">
                {t("preview.subject")} <bdi>{preview.subject}</bdi>
              </p>
              {/* The message's own document, its inline styles as a mail reader draws them; no script. */}
              <iframe
                title={t("preview.frame", { language })}
                srcDoc={preview.html}
                sandbox="allow-same-origin"
                className="h-96 w-full rounded-md border bg-white"
              />
            </section>
          );
        })}
      </CardContent>
    </Card>
  );
}

/**
 * A campaign's page (docs/mail.md#campaigns): a draft's editor, its preview in each written language,
 * "send it to me" and "send"; once sent, its report (sent, failed, unsubscribed).
 */
export function CampaignPage({
  campaign,
  report,
  reach,
  previews,
  result,
}: {
  campaign: Campaign;
  report: CampaignReport | null;
  reach: number;
  previews: CampaignPreview[];
  result?: CampaignActionResult;
}) {
  const { t } = useTranslation("campaigns");
  const audience = useAudienceText(campaign);
  const said = result && (result.ok || result.intent !== "save") ? result : undefined;
  const tested = Boolean(campaign.testedAt && campaign.testedAt >= campaign.updatedAt);
  return (
    <main className="grid min-w-0 gap-4">
      <PageHeading
        title={campaign.texts.en.subject}
        intro={t("page.intro")}
        parent={{ to: "/admin/email-marketing", label: t("page.back") }}
      >
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <Badge tone={campaign.state === "sent" ? "green" : "grey"}>
            {t(CAMPAIGN_STATE_LABELS[campaign.state])}
          </Badge>
          <span>{audience}</span>
        </p>
      </PageHeading>
      {said ? <ResultMessage result={said} values={{ count: said.ok ? said.count : 0 }} /> : null}
      {report ? (
        <section aria-label={t("report.title")} className="grid gap-2">
          <h2 className="text-lg font-semibold">{t("report.title")}</h2>
          <StatCards
            stats={[
              { icon: <SendIcon />, label: t("report.recipients"), value: campaign.recipients },
              { icon: <MailCheckIcon />, label: t("report.sent"), value: report.sent },
              { icon: <MailXIcon />, label: t("report.failed"), value: report.failed },
              {
                icon: <UserMinusIcon />,
                label: t("report.unsubscribed"),
                value: report.unsubscribed,
              },
            ]}
          />
          {report.queued > 0 ? (
            <p className="text-sm text-muted-foreground">
              {t("report.queued", { count: report.queued })}
            </p>
          ) : null}
        </section>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle>{t("send.title")}</CardTitle>
            <CardDescription>{t("send.reach", { count: reach })}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-3">
            <p className="text-sm">{tested ? t("send.tested") : t("send.testFirst")}</p>
            <div className="flex flex-wrap gap-2">
              <IntentButton intent="test" fields={{}} variant="outline">
                {t("send.test")}
              </IntentButton>
              <IntentButton
                intent="send"
                fields={{}}
                confirmText={t("send.confirm", { count: reach })}
              >
                {t("send.send")}
              </IntentButton>
            </div>
          </CardContent>
        </Card>
      )}
      <Previews previews={previews} />
      {campaign.state === "draft" ? <CampaignEditor campaign={campaign} result={result} /> : null}
    </main>
  );
}
