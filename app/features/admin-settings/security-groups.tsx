import { Hint } from "~/components/ui/field";
import { Switch, type FieldSpec } from "~/components/ui/form-card";
import { ADMIN_TWO_FACTOR_SETUP_PATH } from "~/domain/accounts/accounts";
import { twoFactorGap } from "~/domain/admin-dashboard/setup-checklist";
import { MAX_COIN_CAP, twoFactorRoleField, type Settings } from "~/domain/settings/settings";
import { STAFF_ROLE_LABELS, STAFF_ROLES } from "~/domain/staff/permissions";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import {
  SectionState,
  settingsRow,
  useFormState,
  type SettingsActionResult,
  type SettingsGroup,
} from "./settings-group";

/**
 * The staff's rules (docs/staff.md): the roles that must sign in with a second factor, whether the
 * member reading has one, and the coin caps of Billing and Support and the fresh proof's threshold.
 * The badge says whether Owner and Billing, who move money and secrets, are both required.
 */
export function useSecurityGroup(
  settings: Settings,
  /** The member reading the page has two-factor sign-in on. */
  adminTwoFactor: boolean,
  result?: SettingsActionResult,
): SettingsGroup {
  const { t } = useTranslation("admin-settings");
  // A number of coins: a whole number the form checks again (securityFormSchema).
  const coins = (name: string, label: string, hint: string): FieldSpec => ({
    kind: "input",
    type: "number",
    name,
    label,
    hint,
    min: 0,
    max: MAX_COIN_CAP,
    step: 1,
    inputMode: "numeric",
    dir: "ltr",
    className: "w-36",
  });
  return {
    form: "security",
    title: t("security.title"),
    description: t("security.description"),
    aside: (
      <SectionState
        section="security"
        holds={twoFactorGap(settings.security.twoFactorRoles) === null}
      />
    ),
    fields: [
      {
        kind: "custom",
        key: "twoFactorRoles",
        content: <TwoFactorRoleFields settings={settings} result={result} />,
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
      {
        kind: "custom",
        key: "coinCaps",
        content: <h3 className="text-sm font-semibold">{t("security.coinCaps")}</h3>,
      },
      settingsRow(3, [
        coins("billingCoinCap", t("security.billingCoinCap"), t("security.billingCoinCapHint")),
        coins(
          "supportDailyCoinCap",
          t("security.supportDailyCoinCap"),
          t("security.supportDailyCoinCapHint"),
        ),
        coins(
          "freshProofCoinThreshold",
          t("security.freshProofCoinThreshold"),
          t("security.freshProofCoinThresholdHint"),
        ),
      ]),
    ],
  };
}

/**
 * A checkbox per staff role, named by the role (`twoFactorRole-owner`…): ticked when the settings
 * require it, or after a refused save as it was sent. The list's error (a role that does not exist,
 * only a crafted post sends one) stands under it.
 */
function TwoFactorRoleFields({
  settings,
  result,
}: {
  settings: Settings;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const { t: tStaff } = useTranslation("admin-staff");
  const message = useMessage();
  const state = useFormState("security", settings.security, result);
  const refused = result && !result.ok && result.form === "security" ? result : undefined;
  const id = "security-twoFactorRoles";
  const error = message(state.errors.twoFactorRoles);
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
    >
      <legend className="mb-2 text-sm font-medium">{t("security.twoFactorRoles")}</legend>
      <div className="grid gap-2 sm:grid-cols-4">
        {STAFF_ROLES.map((role) => {
          const name = twoFactorRoleField(role);
          return (
            <Switch
              key={role}
              id={`security-${name}`}
              name={name}
              label={tStaff(STAFF_ROLE_LABELS[role])}
              checked={
                refused
                  ? refused.values[name] === "on"
                  : settings.security.twoFactorRoles.includes(role)
              }
            />
          );
        })}
      </div>
      <Hint id={`${id}-hint`}>{t("security.twoFactorRolesHint")}</Hint>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
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
