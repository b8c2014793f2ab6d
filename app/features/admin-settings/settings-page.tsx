import { FormCard, FormFields } from "~/components/ui/form-card";
import { Link } from "~/components/ui/link";
import { StatusMessage } from "~/components/ui/status-message";
import type { CountryChoice } from "~/domain/invoices/billing-details";
import type { LifecyclePreview } from "~/domain/lifecycle/lifecycle";
import { SETTINGS_FORM_SECTION, type Settings } from "~/domain/settings/settings";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { useInvoicingGroup } from "./invoicing-group";
import { useSelfServiceGroup } from "./self-service-group";
import { useLifecycleGroup } from "./lifecycle-group";
import { useApprovalGroup, useLocationsGroup } from "./orders-group";
import { usePaymentsGroup, useSecurityGroup, useVerificationGroup } from "./security-groups";
import {
  useFormState,
  type BuiltInTexts,
  type SettingsActionResult,
  type SettingsGroup,
} from "./settings-group";
import { usePublicGroups, useSiteGroups } from "./site-groups";
import { useThemeGroup } from "./theme-group";

export function SettingsPage({
  settings,
  builtIn,
  entryGateServerOn,
  lifecyclePreview,
  locale,
  adminTwoFactor,
  result,
  mailConfigured = false,
  customersWithoutCountry = 0,
  countries,
}: {
  settings: Settings;
  builtIn: BuiltInTexts;
  /** ENTRY_GATE=on at start: only then does the entry gate setting matter. */
  entryGateServerOn: boolean;
  /** What the service lifecycle's next run would do (previewLifecycle). */
  lifecyclePreview: LifecyclePreview;
  locale: string;
  /** The admin reading the page has two-factor sign-in on. */
  adminTwoFactor: boolean;
  result?: SettingsActionResult;
  /** SMTP_URL is set: only then does the verified-address requirement apply. */
  mailConfigured?: boolean;
  /** Customers without a billing country (no VAT reaches their invoices), said beside the VAT rates. */
  customersWithoutCountry?: number;
  /** The shop country's choices in the reader's language and order, named on the server (the loader's). */
  countries: readonly CountryChoice[];
}) {
  const { t } = useTranslation("admin-settings");
  const message = useMessage();
  // The page's forms, in the order it shows them.
  const groups = [
    ...useSiteGroups(settings, builtIn, entryGateServerOn),
    // The order form's locations and the approval time customers are told, after the maintenance card.
    useLocationsGroup(settings),
    useApprovalGroup(settings),
    useThemeGroup(settings, result),
    ...usePublicGroups(builtIn),
    useLifecycleGroup(settings, lifecyclePreview, locale),
    useSecurityGroup(settings, adminTwoFactor, result),
    useVerificationGroup(settings, mailConfigured),
    useInvoicingGroup(settings, { countries, customersWithoutCountry }),
    useSelfServiceGroup(settings),
    usePaymentsGroup(settings),
  ];
  const unknown = result && !result.ok && result.form === null ? result : undefined;
  return (
    <main className="grid max-w-4xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-bold">{t("title")}</h1>
        <p className="text-muted-foreground">{t("intro")}</p>
      </div>
      {unknown ? <StatusMessage ok={false}>{message(unknown.message)}</StatusMessage> : null}
      <nav aria-label={t("sections")}>
        <ul className="flex flex-wrap gap-2 text-sm">
          {groups.map((group) => (
            <li key={group.form}>
              <a href={`#${group.form}`} className="rounded-md border px-3 py-1 hover:bg-muted">
                {group.title}
              </a>
            </li>
          ))}
          {/* A page of its own: a connection to check and a snapshot to show, not a form. */}
          <li>
            <Link
              to="/admin/settings/game-panel"
              className="rounded-md border px-3 py-1 hover:bg-muted"
            >
              {t("gamePanel")}
            </Link>
          </li>
          <li>
            <Link
              to="/admin/settings/discord"
              className="rounded-md border px-3 py-1 hover:bg-muted"
            >
              {t("discordPage")}
            </Link>
          </li>
        </ul>
      </nav>
      {groups.map((group) => (
        <SettingsCard key={group.form} group={group} settings={settings} result={result} />
      ))}
    </main>
  );
}

function SettingsCard({
  group,
  settings,
  result,
}: {
  group: SettingsGroup;
  settings: Settings;
  result?: SettingsActionResult;
}) {
  const { t } = useTranslation("admin-settings");
  const stored = group.stored ?? settings[SETTINGS_FORM_SECTION[group.form]];
  const state = useFormState(group.form, stored, result);
  return (
    <FormCard
      id={group.form}
      title={group.title}
      description={group.description}
      aside={group.aside}
      {...state.card}
      submit={{ label: t("save"), busyLabel: t("saving") }}
    >
      <FormFields fields={group.fields} idPrefix={group.form} {...state.fields} />
    </FormCard>
  );
}
