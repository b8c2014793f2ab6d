import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { StatusMessage } from "~/components/ui/status-message";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "./auth-card";
import { AuthForm, emailField, type AuthFormState } from "./auth-form";

export interface ForgotPasswordState extends AuthFormState {
  /** The request was taken: the same answer for every address (password-reset.server.ts). */
  sent?: boolean;
}

/** With outgoing mail: the address of the account, then the same answer whether it exists or not. */
export function ForgotPasswordForm({ state }: { state?: ForgotPasswordState }) {
  const { t } = useTranslation("auth");
  return (
    <AuthCard
      title={t("forgot.heading")}
      description={state?.sent ? undefined : t("forgot.mailIntro")}
      footer={
        <Link to="/login" className="font-medium text-primary hover:underline">
          {t("forgot.back")}
        </Link>
      }
    >
      {state?.sent ? (
        <StatusMessage ok>{t("forgot.sent")}</StatusMessage>
      ) : (
        <AuthForm
          state={state}
          fields={[emailField(t("forgot.email"))]}
          submit={{ label: t("forgot.submit"), busyLabel: t("forgot.submitting") }}
        />
      )}
    </AuthCard>
  );
}

/** Without outgoing mail (no SMTP_URL): support resets passwords, as before the site mailed reset links. */
export function ForgotPasswordSupport({
  contactEmail,
  communityUrl,
}: {
  contactEmail: string;
  communityUrl: string | null | undefined;
}) {
  const { t } = useTranslation("auth");
  return (
    <AuthCard title={t("forgot.heading")}>
      <p className="text-sm">
        {communityUrl
          ? t("forgot.text", { email: contactEmail })
          : t("forgot.textNoChat", { email: contactEmail })}
      </p>
      <div className="flex flex-wrap gap-2">
        {communityUrl ? (
          <Button asChild>
            <a href={communityUrl} target="_blank" rel="noopener noreferrer">
              {t("forgot.community")}
            </a>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link to="/login">{t("forgot.back")}</Link>
        </Button>
      </div>
    </AuthCard>
  );
}
