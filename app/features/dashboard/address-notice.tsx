import { useTranslation } from "~/i18n/use-translation";
import { IntentButton } from "~/components/ui/intent-button";
import { VERIFY_EMAIL_PATH } from "~/domain/accounts/email-verification";

/** What the dashboard knows of the account's address (docs/accounts.md). */
export interface AddressState {
  email: string;
  verified: boolean;
  /** SMTP_URL is set: a link can reach the address (without it, nothing is asked). */
  mailConfigured: boolean;
  /** An unverified account cannot order, open a ticket or ask for coins (the setting, with SMTP). */
  required: boolean;
}

/**
 * Above every tab of the dashboard while the address is not verified (and mail can reach it): what to do,
 * what waits for it, and "send the message again" (posted to /verify-email, which limits it).
 */
export function AddressNotice({ address }: { address: AddressState }) {
  const { t } = useTranslation("dashboard");
  if (address.verified || !address.mailConfigured) return null;
  return (
    <section
      aria-labelledby="address-notice-title"
      data-testid="address-notice"
      className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <h2 id="address-notice-title" className="font-semibold">
        {t("addressNotice.title")}
      </h2>
      <p>
        {t("addressNotice.body")} <bdi dir="ltr">{address.email}</bdi>
      </p>
      {address.required ? <p>{t("addressNotice.required")}</p> : null}
      <IntentButton intent="resend" fields={{}} action={VERIFY_EMAIL_PATH} variant="outline">
        {t("addressNotice.resend")}
      </IntentButton>
    </section>
  );
}
