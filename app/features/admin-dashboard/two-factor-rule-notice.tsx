import { Notice } from "~/components/ui/notice";
import {
  SETUP_ITEM_PATHS,
  TWO_FACTOR_GAP_NOTICES,
  type TwoFactorGap,
} from "~/domain/admin-dashboard/setup-checklist";
import { useTranslation } from "~/i18n/use-translation";

/**
 * What the dashboard tells a shop whose settings let Owner or Billing sign in without a second factor
 * (an install from before roles kept its choice, a new one requires both): which role, why it matters,
 * and a link to the setting. It stays until both are required; nothing is drawn once they are.
 */
export function TwoFactorRuleNotice({ gap }: { gap: TwoFactorGap | null }) {
  const { t } = useTranslation("admin");
  if (!gap) return null;
  return (
    <Notice title={t("dashboard.twoFactorRuleTitle")} data-testid="two-factor-rule">
      {t(TWO_FACTOR_GAP_NOTICES[gap])}{" "}
      {/* A document link: the browser brings the settings' card into view on arrival. */}
      <a href={SETUP_ITEM_PATHS.twoFactor} className="font-medium underline">
        {t("dashboard.twoFactorRuleAction")}
      </a>
    </Notice>
  );
}
