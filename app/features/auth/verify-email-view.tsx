import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { IntentButton } from "~/components/ui/intent-button";
import { StatusMessage } from "~/components/ui/status-message";
import {
  VERIFY_EMAIL_PATH,
  VERIFY_OUTCOME_TEXTS,
  type VerifyEmailOutcome,
} from "~/domain/accounts/email-verification";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "./auth-card";
import { withRedirect } from "./auth-form";

/** A signed-in account's address, when the page is opened without a link. */
export interface AddressStatus {
  verified: boolean;
  email: string;
  /** SMTP_URL is set: without it no link can be sent, and nothing is asked. */
  mailConfigured: boolean;
}

export type ResendResult =
  { ok: true; email: string } | { ok: false; message: MessageKey; count?: number };

const GOOD: readonly VerifyEmailOutcome[] = ["verified", "alreadyVerified", "changed"];

/**
 * /verify-email (docs/accounts.md): what a followed link did, or, opened from the dashboard or a refused
 * order, the account's address and "send the message again".
 */
export function VerifyEmailView({
  outcome,
  email,
  signedIn,
  status,
  result,
  returnTo = null,
}: {
  outcome: VerifyEmailOutcome | null;
  email: string | null;
  signedIn: boolean;
  status: AddressStatus | null;
  result?: ResendResult;
  /** Where the link leads after signing in (an order being configured), checked by the loader. */
  returnTo?: string | null;
}) {
  const { t } = useTranslation("auth");
  const message = useMessage();
  const resend = (
    <IntentButton intent="resend" fields={{}} action={VERIFY_EMAIL_PATH} variant="outline">
      {t("verify.resend")}
    </IntentButton>
  );
  const resultMessage = result ? (
    result.ok ? (
      <StatusMessage ok>
        {t("verify.sent")} <bdi dir="ltr">{result.email}</bdi>. {t("verify.sentNote")}
      </StatusMessage>
    ) : (
      <StatusMessage ok={false}>{message(result.message, { count: result.count })}</StatusMessage>
    )
  ) : null;
  const onward = signedIn ? (
    <Button asChild>
      <Link to="/dashboard">{t("verify.dashboard")}</Link>
    </Button>
  ) : null;

  if (outcome) {
    const texts = VERIFY_OUTCOME_TEXTS[outcome];
    const good = GOOD.includes(outcome);
    return (
      <AuthCard title={t(texts.title)}>
        <StatusMessage ok={good}>{t(texts.body)}</StatusMessage>
        {good && email ? (
          <p className="text-sm font-medium" dir="ltr">
            {email}
          </p>
        ) : null}
        {resultMessage}
        <div className="flex flex-wrap gap-2">
          {onward ?? (
            <Button asChild>
              <Link to={withRedirect("/login", good ? returnTo : VERIFY_EMAIL_PATH)}>
                {t("verify.signIn")}
              </Link>
            </Button>
          )}
          {signedIn && (outcome === "expired" || outcome === "invalid") ? resend : null}
        </div>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t("verify.title")}>
      {status && !status.mailConfigured && !status.verified ? (
        <p className="text-sm">{t("verify.statusNoMail")}</p>
      ) : (
        <p className="text-sm">
          {status?.verified ? t("verify.statusVerified") : t("verify.statusUnverified")}{" "}
          <bdi dir="ltr" className="font-medium">
            {status?.email}
          </bdi>
        </p>
      )}
      {resultMessage}
      <div className="flex flex-wrap gap-2">
        {onward}
        {status && !status.verified && status.mailConfigured ? resend : null}
      </div>
    </AuthCard>
  );
}
