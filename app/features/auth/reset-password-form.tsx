import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { MIN_PASSWORD_LENGTH } from "~/domain/accounts/accounts";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "./auth-card";
import { AuthForm, usePasswordField, type AuthFormState } from "./auth-form";

/**
 * The page a reset mail links to: a new password and its confirmation, the link's token carried in the
 * form. A link that no longer works (expired, used, cut short) says so, with the way to ask again.
 */
export function ResetPasswordForm({
  token,
  linkWorks,
  state,
}: {
  token: string;
  linkWorks: boolean;
  state?: AuthFormState;
}) {
  const { t } = useTranslation("auth");
  const passwordField = usePasswordField();
  if (!linkWorks) return <ResetLinkInvalid />;
  return (
    <AuthCard title={t("reset.heading")} description={t("reset.intro")}>
      <AuthForm
        state={state}
        hidden={<input type="hidden" name="token" value={token} />}
        fields={[
          passwordField({
            name: "newPassword",
            label: t("reset.newPassword"),
            autoComplete: "new-password",
            minLength: MIN_PASSWORD_LENGTH,
            required: true,
          }),
          passwordField({
            name: "confirmPassword",
            label: t("reset.confirmPassword"),
            autoComplete: "new-password",
            required: true,
          }),
        ]}
        submit={{ label: t("reset.submit"), busyLabel: t("reset.submitting") }}
      />
    </AuthCard>
  );
}

function ResetLinkInvalid() {
  const { t } = useTranslation("auth");
  return (
    <AuthCard title={t("reset.invalidHeading")}>
      <p role="alert" className="text-sm">
        {t("errors.resetLinkInvalid")}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button asChild>
          <Link to="/forgot-password">{t("reset.askAgain")}</Link>
        </Button>
        <Button asChild variant="outline">
          <Link to="/login">{t("forgot.back")}</Link>
        </Button>
      </div>
    </AuthCard>
  );
}
