import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import type { DiscordRefusal } from "~/domain/discord/discord";
import { AuthCard, SwitchFormLine } from "./auth-card";
import { DiscordSignIn } from "./discord-sign-in";
import { AuthForm, emailField, useRequiredPasswordField, type AuthFormState } from "./auth-form";

export interface LoginFormState extends AuthFormState {
  /** How long a locked sign-in waits. */
  minutes?: number;
}

export function LoginForm({
  state,
  redirectTo,
  registrationOpen,
  maintenance,
  discord,
}: {
  state?: LoginFormState;
  redirectTo: string | null;
  /** With registration closed, the page does not offer it. */
  registrationOpen: boolean;
  /** Maintenance mode is on: only staff get past this page. */
  maintenance: boolean;
  /** "Sign in with Discord" (when configured) and a refusal a return from Discord brought. */
  discord?: { offered: boolean; refusal: DiscordRefusal | null };
}) {
  const { t } = useTranslation("auth");
  const passwordField = useRequiredPasswordField();
  return (
    <AuthCard
      title={t("login.heading")}
      description={t("login.subheading")}
      footer={
        registrationOpen ? (
          <SwitchFormLine
            question={t("login.noAccount")}
            label={t("login.register")}
            to="/register"
            redirectTo={redirectTo}
          />
        ) : undefined
      }
    >
      {maintenance ? (
        <p role="note" className="rounded-md bg-muted p-3 text-sm">
          {t("login.maintenance")}
        </p>
      ) : null}
      {discord ? (
        <DiscordSignIn offered={discord.offered} refusal={discord.refusal} intent="sign-in" />
      ) : null}
      <AuthForm
        state={state}
        errorValues={{ count: state?.minutes }}
        hidden={redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        fields={[
          emailField(t("login.email")),
          passwordField("password", t("login.password"), "current-password"),
        ]}
        after={
          <div className="text-end text-sm">
            <Link to="/forgot-password" className="text-primary hover:underline">
              {t("login.forgot")}
            </Link>
          </div>
        }
        submit={{ label: t("login.submit"), busyLabel: t("login.submitting") }}
      />
    </AuthCard>
  );
}
