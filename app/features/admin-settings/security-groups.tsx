import { ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import type { Settings } from "~/domain/settings/settings";
import { useTranslation } from "~/i18n/use-translation";
import { SectionState, type SettingsGroup } from "./settings-group";

/** Whether admins must sign in with a second factor, and whether the admin reading has one. */
export function useSecurityGroup(
  settings: Settings,
  /** The admin reading the page has two-factor sign-in on. */
  adminTwoFactor: boolean,
): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  const twoFactorRequired = settings.security.twoFactorRoles.length > 0;
  return {
    form: "security",
    title: t("security.title"),
    description: t("security.description"),
    aside: <SectionState section="security" holds={twoFactorRequired} />,
    fields: [
      {
        kind: "switch",
        name: "requireAdminTwoFactor",
        label: t("security.requireAdminTwoFactor"),
        hint: t("security.requireAdminTwoFactorHint"),
      },
      {
        kind: "custom",
        key: "yours",
        content: (
          <p className="text-sm" data-testid="own-two-factor">
            {adminTwoFactor ? t("security.yoursOn") : t("security.yoursOff")}{" "}
            <a
              href={ADMIN_TWO_FACTOR_SETUP_PATH}
              className="text-primary underline hover:no-underline"
            >
              {t("security.manage")}
            </a>
          </p>
        ),
      },
    ],
  };
}

/**
 * Verified addresses (docs/accounts.md): the requirement, and whether it applies now (only
 * while SMTP_URL is set).
 */
export function useVerificationGroup(settings: Settings, mailConfigured: boolean): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  const applies = settings.verification.requireVerifiedEmail && mailConfigured;
  return {
    form: "verification",
    title: t("verification.title"),
    description: t("verification.description"),
    aside: <SectionState section="verification" holds={applies} />,
    fields: [
      {
        kind: "switch",
        name: "requireVerifiedEmail",
        label: t("verification.requireVerifiedEmail"),
        hint: mailConfigured ? t("verification.hint") : t("verification.hintNoMail"),
      },
    ],
  };
}

/**
 * The online payment providers (docs/payments.md): whether a provider's API address may be on the local
 * network (a test double or a trial), which the provider settings' save on /admin/gateways reads.
 */
export function usePaymentsGroup(settings: Settings): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  return {
    form: "payments",
    title: t("payments.title"),
    description: t("payments.description"),
    aside: <SectionState section="payments" holds={settings.payments.allowLocalNetwork} />,
    fields: [
      {
        kind: "switch",
        name: "allowLocalNetwork",
        label: t("payments.allowLocalNetwork"),
        hint: t("payments.allowLocalNetworkHint"),
      },
    ],
  };
}
