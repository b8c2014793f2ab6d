import type { FieldSpec } from "~/components/ui/form-card";
import { PRIVACY_TEXT_MAX, type Settings } from "~/domain/settings/settings";
import { useTranslation } from "~/i18n/use-translation";
import {
  LOCALE_NAMES,
  previewLink,
  SectionState,
  settingsRow,
  type BuiltInTexts,
  type SettingsGroup,
} from "./settings-group";

/** The site as a whole: its name, language and addresses, its links elsewhere, and maintenance. */
export function useSiteGroups(
  settings: Settings,
  builtIn: BuiltInTexts,
  /** ENTRY_GATE=on at start: only then does the entry gate setting matter. */
  entryGateServerOn: boolean,
): SettingsGroup[] {
  const { t } = useTranslation("admin-settings");
  const { t: tCommon } = useTranslation();
  const maintenanceOn = settings.general.maintenanceMode;
  // A free text (a name, a description) may be in any script; addresses and links read left to right.
  const link = (name: string, label: string, hint?: string): FieldSpec => ({
    kind: "input",
    type: "url",
    name,
    label,
    ...(hint ? { hint } : {}),
    maxLength: 500,
    dir: "ltr",
    placeholder: "https://",
  });
  return [
    {
      form: "general",
      title: t("general.title"),
      description: t("general.description"),
      fields: [
        settingsRow(2, [
          {
            kind: "input",
            type: "text",
            name: "siteName",
            label: t("general.siteName"),
            maxLength: 80,
            dir: "auto",
          },
          {
            kind: "select",
            name: "defaultLocale",
            label: t("general.defaultLocale"),
            hint: t("general.defaultLocaleHint"),
            variant: "form",
            options: (["en", "fr", "ar"] as const).map((lang) => ({
              value: lang,
              label: tCommon(LOCALE_NAMES[lang]),
              lang,
            })),
          },
        ]),
        {
          kind: "textarea",
          rows: 3,
          variant: "validated",
          name: "siteDescription",
          label: t("general.siteDescription"),
          hint: t("builtInHint"),
          maxLength: 300,
          dir: "auto",
          placeholder: builtIn.siteDescription,
        },
        settingsRow(2, [
          {
            kind: "input",
            type: "email",
            name: "contactEmail",
            label: t("general.contactEmail"),
            dir: "ltr",
          },
          {
            kind: "input",
            type: "email",
            name: "paymentsEmail",
            label: t("general.paymentsEmail"),
            hint: t("general.paymentsEmailHint"),
            dir: "ltr",
          },
        ]),
        {
          kind: "switch",
          name: "entryGate",
          label: t("general.entryGate"),
          hint: entryGateServerOn ? t("general.entryGateHint") : t("general.entryGateServerOff"),
        },
      ],
    },
    {
      form: "links",
      title: t("links.title"),
      description: t("links.description"),
      fields: [
        // Literal keys, so the catalogue test sees each one in use.
        settingsRow(2, [
          link("discord", t("links.discord")),
          link("whatsapp", t("links.whatsapp")),
          link("telegram", t("links.telegram")),
          link("gamePanel", t("links.gamePanel"), t("links.gamePanelHint")),
          link("databaseAdmin", t("links.databaseAdmin")),
          link("github", t("links.github")),
          link("instagram", t("links.instagram")),
          link("facebook", t("links.facebook")),
        ]),
      ],
    },
    {
      form: "maintenance",
      title: t("maintenance.title"),
      description: t("maintenance.description"),
      aside: <SectionState section="maintenance" holds={maintenanceOn} />,
      fields: [
        {
          kind: "switch",
          id: "maintenance-mode",
          name: "maintenanceMode",
          label: t("maintenance.mode"),
        },
        {
          kind: "textarea",
          rows: 3,
          variant: "validated",
          id: "maintenance-message",
          name: "maintenanceMessage",
          label: t("maintenance.message"),
          hint: t("maintenance.messageHint"),
          maxLength: 500,
          dir: "auto",
        },
        previewLink("preview", "/maintenance", t("maintenance.preview")),
      ],
    },
  ];
}

/**
 * What visitors and customers are offered and read: the features the storefront opens, how it is
 * presented to search engines, and its privacy page.
 */
export function usePublicGroups(builtIn: BuiltInTexts): SettingsGroup[] {
  const { t } = useTranslation("admin-settings");
  const { t: tCommon } = useTranslation();
  return [
    {
      form: "features",
      title: t("features.title"),
      description: t("features.description"),
      fields: [
        {
          kind: "switch",
          name: "registration",
          label: t("features.registration"),
          hint: t("features.registrationHint"),
        },
        {
          kind: "switch",
          name: "coinPurchase",
          label: t("features.coinPurchase"),
          hint: t("features.coinPurchaseHint"),
        },
        {
          kind: "switch",
          name: "livechat",
          label: t("features.livechat"),
          hint: t("features.livechatHint"),
        },
        {
          kind: "switch",
          name: "tickets",
          label: t("features.tickets"),
          hint: t("features.ticketsHint"),
        },
      ],
    },
    {
      form: "seo",
      title: t("seo.title"),
      description: t("seo.description"),
      fields: [
        {
          kind: "input",
          type: "text",
          name: "title",
          label: t("seo.titleField"),
          hint: t("builtInHint"),
          maxLength: 120,
          dir: "auto",
          placeholder: builtIn.seoTitle,
        },
        {
          kind: "textarea",
          rows: 3,
          variant: "validated",
          name: "description",
          label: t("seo.descriptionField"),
          hint: t("builtInHint"),
          maxLength: 300,
          dir: "auto",
          placeholder: builtIn.seoDescription,
        },
        {
          kind: "input",
          type: "text",
          name: "keywords",
          label: t("seo.keywords"),
          hint: t("seo.keywordsHint"),
          maxLength: 300,
          dir: "auto",
        },
      ],
    },
    {
      form: "privacy",
      title: t("privacy.title"),
      description: t("privacy.description"),
      fields: [
        {
          kind: "custom",
          key: "format",
          content: (
            <p className="text-sm text-muted-foreground">
              {t("privacy.formatHint", {
                siteName: "{{siteName}}",
                contactEmail: "{{contactEmail}}",
              })}
            </p>
          ),
        },
        ...(["en", "fr", "ar"] as const).map((lang): FieldSpec => ({
          kind: "textarea",
          rows: 12,
          variant: "validated",
          name: lang,
          label: tCommon(LOCALE_NAMES[lang]),
          hint: lang === "en" ? t("privacy.englishHint") : t("privacy.fallbackHint"),
          maxLength: PRIVACY_TEXT_MAX,
          lang,
          dir: lang === "ar" ? "rtl" : "ltr",
          placeholder: builtIn.privacy[lang],
        })),
        previewLink("view", "/privacy", t("privacy.view")),
      ],
    },
  ];
}
