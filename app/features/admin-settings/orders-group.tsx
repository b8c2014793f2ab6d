import { useTranslation } from "~/i18n/use-translation";
import {
  formatLocationNames,
  MAX_APPROVAL_HOURS,
  MAX_LOCATION_LENGTH,
  MAX_LOCATIONS,
  type Settings,
} from "~/domain/settings/settings";
import type { SettingsGroup } from "./settings-group";

/**
 * The server locations the order form offers, in order, with their names in French and Arabic (one
 * "Frankfurt = Francfort" a line; a location without one shows the list's name in every language).
 */
export function useLocationsGroup(settings: Settings): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  const general = settings.general;
  const names = (name: "locationNamesFr" | "locationNamesAr", label: string, lang: string) => ({
    kind: "textarea" as const,
    rows: 3,
    variant: "validated" as const,
    name,
    label,
    hint: t("locations.namesHint"),
    maxLength: MAX_LOCATIONS * (2 * MAX_LOCATION_LENGTH + 5),
    lang,
    dir: "auto",
  });
  return {
    form: "locations",
    title: t("locations.title"),
    description: t("locations.description"),
    stored: {
      locations: general.locations,
      locationNamesFr: formatLocationNames(general.locationNamesFr),
      locationNamesAr: formatLocationNames(general.locationNamesAr),
    },
    fields: [
      {
        kind: "textarea",
        rows: 4,
        variant: "validated",
        name: "locations",
        label: t("locations.label"),
        hint: t("locations.hint", { max: MAX_LOCATIONS }),
        maxLength: MAX_LOCATIONS * (MAX_LOCATION_LENGTH + 2),
        dir: "auto",
      },
      names("locationNamesFr", t("locations.namesFr"), "fr"),
      names("locationNamesAr", t("locations.namesAr"), "ar"),
    ],
  };
}

/** How long approving an order or a top-up usually takes: customers are told it while theirs waits. */
export function useApprovalGroup(settings: Settings): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  return {
    form: "approval",
    title: t("approval.title"),
    description: t("approval.description"),
    stored: { approvalHours: settings.general.approvalHours },
    fields: [
      {
        kind: "input",
        type: "number",
        name: "approvalHours",
        label: t("approval.hours"),
        hint: t("approval.hoursHint", { max: MAX_APPROVAL_HOURS }),
        min: 1,
        max: MAX_APPROVAL_HOURS,
        step: 1,
        inputMode: "numeric",
        dir: "ltr",
        className: "w-28",
      },
    ],
  };
}
