import { useTranslation } from "~/i18n/use-translation";
import {
  MAX_AUTO_REFUND_COINS,
  MAX_DATA_EXPORTS_PER_DAY,
  MAX_TICKET_FILE_RETENTION_DAYS,
  type Settings,
} from "~/domain/settings/settings";
import type { SettingsGroup } from "./settings-group";

/** A whole number's field: typed in figures, as wide as a few of them. */
function wholeNumber(name: string, label: string, hint: string, min: number, max: number) {
  return {
    kind: "input" as const,
    type: "number",
    name,
    label,
    hint,
    min,
    max,
    step: 1,
    inputMode: "numeric" as const,
    dir: "ltr",
    className: "w-28",
  };
}

/**
 * What customers do for themselves (docs/self-service.md): the refund the system approves alone (in
 * coins, 0: none), how long files sent with tickets are kept, how many data archives a customer may ask
 * for a day.
 */
export function useSelfServiceGroup(settings: Settings): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  return {
    form: "selfService",
    title: t("selfService.title"),
    description: t("selfService.description"),
    stored: settings.selfService,
    fields: [
      wholeNumber(
        "autoRefundMaxCoins",
        t("selfService.autoRefundMaxCoins"),
        t("selfService.autoRefundMaxCoinsHint", { max: MAX_AUTO_REFUND_COINS }),
        0,
        MAX_AUTO_REFUND_COINS,
      ),
      wholeNumber(
        "ticketFileRetentionDays",
        t("selfService.ticketFileRetentionDays"),
        t("selfService.ticketFileRetentionDaysHint", { max: MAX_TICKET_FILE_RETENTION_DAYS }),
        1,
        MAX_TICKET_FILE_RETENTION_DAYS,
      ),
      wholeNumber(
        "dataExportsPerDay",
        t("selfService.dataExportsPerDay"),
        t("selfService.dataExportsPerDayHint", { max: MAX_DATA_EXPORTS_PER_DAY }),
        1,
        MAX_DATA_EXPORTS_PER_DAY,
      ),
    ],
  };
}
