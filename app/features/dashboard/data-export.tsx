import { Form, useNavigation } from "react-router";
import { Badge } from "~/components/ui/badge";
import { TitledCard } from "~/components/ui/card";
import { DownloadLink } from "~/components/ui/page-heading";
import { ResultMessage } from "~/components/ui/result-message";
import { useRefreshWhile } from "~/components/ui/use-refresh-while";
import {
  DATA_EXPORT_LINK_DAYS,
  DATA_EXPORT_STATE_LABELS,
  type DataExportsCard,
  type DataExportState,
  type DataExportView,
} from "~/domain/data-exports/data-exports";
import type { MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";
import { CardSubmit } from "./card-submit";

/** What the card's form answered (the account tab's action, `form: "data-export"`). */
export interface DataExportResult {
  ok: boolean;
  form: "data-export";
  message: MessageKey;
  params?: Record<string, string | number>;
}

/** An archive as the card lists it: its size written in the reader's language by the server. */
export type ListedDataExport = DataExportView & { size: string | null };

const STATE_TONES = {
  queued: "blue",
  ready: "green",
  failed: "red",
  expired: "grey",
} as const satisfies Record<DataExportState, string>;

/** How often the page looks again while an archive is being prepared. */
const WAITING_REFRESH_MS = 3_000;

/**
 * The account tab's "Your data" (docs/self-service.md#a-customers-data): what the archive holds, the
 * button that asks for one (while none is being prepared), and the latest archives with their state and,
 * while it works, the download. The page follows an archive being prepared until it is ready.
 */
export function DataExportCard({
  card,
  exports,
  locale,
  timeZone,
  result,
}: {
  card: Omit<DataExportsCard, "exports">;
  exports: ListedDataExport[];
  locale: string;
  timeZone: string;
  result?: DataExportResult;
}) {
  const { t } = useTranslation("dashboard");
  const busy = useNavigation().state !== "idle";
  const date = mediumDateTime(locale, { timeZone });
  const when = (at: string) => date.format(new Date(at));
  useRefreshWhile(card.waiting, WAITING_REFRESH_MS, exports.map((each) => each.state).join());
  return (
    <TitledCard title={t("dataExport.title")}>
      <div className="grid gap-3 text-sm" id="data-export">
        <p>{t("dataExport.intro")}</p>
        <p className="text-muted-foreground">
          {t("dataExport.how", { days: DATA_EXPORT_LINK_DAYS })}
        </p>
        {result ? <ResultMessage result={result} /> : null}
        {card.waiting ? (
          <p role="status" data-testid="data-export-waiting">
            {t("dataExport.waiting")}
          </p>
        ) : (
          <Form method="post" className="grid gap-2">
            <input type="hidden" name="intent" value="data-export" />
            <p className="text-muted-foreground">
              {t("dataExport.limit", { count: card.perDay, asked: card.askedInWindow })}
            </p>
            <CardSubmit busy={busy}>{t("dataExport.submit")}</CardSubmit>
          </Form>
        )}
        {exports.length > 0 ? (
          <section aria-labelledby="data-export-recent" className="grid gap-1 border-t pt-3">
            <h3 id="data-export-recent" className="font-semibold">
              {t("dataExport.recent")}
            </h3>
            <ul className="divide-y" data-testid="data-exports">
              {exports.map((each) => (
                <li key={each.id} className="grid gap-1 py-2">
                  <span className="flex flex-wrap items-center justify-between gap-2">
                    <span>{t("dataExport.askedOn", { date: when(each.askedAt) })}</span>
                    <Badge tone={STATE_TONES[each.state]}>
                      {t(DATA_EXPORT_STATE_LABELS[each.state])}
                    </Badge>
                  </span>
                  {each.link && each.expiresAt ? (
                    <span className="flex flex-wrap items-center justify-between gap-2">
                      <span className="text-muted-foreground">
                        {t("dataExport.until", { date: when(each.expiresAt) })}
                      </span>
                      <DownloadLink href={each.link}>
                        {t("dataExport.download", { size: each.size ?? "" })}
                      </DownloadLink>
                    </span>
                  ) : null}
                  {each.state === "failed" ? (
                    <span className="text-muted-foreground">{t("dataExport.failed")}</span>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </TitledCard>
  );
}
