import { Link } from "~/components/ui/link";
import { useTranslation } from "~/i18n/use-translation";
import { AuthCard } from "./auth-card";
import { AuthForm } from "./auth-form";
import type { LoginFormState } from "./login-form";

/** The login page's address of the code step, keeping where to go once signed in. */
export function codeStepPath(method: "totp" | "backup", redirectTo: string | null): string {
  const step = method === "backup" ? "backup" : "code";
  return redirectTo
    ? `/login?step=${step}&redirectTo=${encodeURIComponent(redirectTo)}`
    : `/login?step=${step}`;
}

/**
 * The second step of a sign-in with two-factor on: the code from the app, or a backup code (a link
 * switches), and, for a customer, "trust this device". The signed two_factor cookie better-auth set after
 * the password carries the sign-in; the form only sends the code.
 */
export function TwoFactorForm({
  state,
  method,
  trustOffered,
  redirectTo,
}: {
  state?: LoginFormState;
  method: "totp" | "backup";
  trustOffered: boolean;
  redirectTo: string | null;
}) {
  const { t } = useTranslation("auth");
  const totp = method === "totp";
  return (
    <AuthCard
      title={t("twoFactor.heading")}
      description={totp ? t("twoFactor.totpIntro") : t("twoFactor.backupIntro")}
      footer={
        <Link to="/login" className="font-medium text-primary hover:underline">
          {t("twoFactor.startAgain")}
        </Link>
      }
    >
      <AuthForm
        state={state}
        errorValues={{ count: state?.minutes }}
        hidden={
          <>
            <input type="hidden" name="step" value="code" />
            <input type="hidden" name="method" value={method} />
            {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          </>
        }
        fields={[
          totp
            ? {
                kind: "input",
                name: "code",
                label: t("twoFactor.code"),
                hint: t("twoFactor.codeHint"),
                autoComplete: "one-time-code",
                inputMode: "numeric",
                pattern: "[0-9 ]*",
                maxLength: 8,
                required: true,
                dir: "ltr",
              }
            : {
                kind: "input",
                name: "code",
                label: t("twoFactor.backupCode"),
                autoComplete: "off",
                spellCheck: false,
                maxLength: 32,
                required: true,
                dir: "ltr",
              },
          ...(trustOffered
            ? [
                {
                  kind: "switch" as const,
                  name: "trustDevice",
                  label: t("twoFactor.trustDevice"),
                  hint: t("twoFactor.trustDeviceHint"),
                },
              ]
            : []),
        ]}
        after={
          <div className="text-end text-sm">
            <Link
              to={codeStepPath(totp ? "backup" : "totp", redirectTo)}
              className="text-primary hover:underline"
            >
              {totp ? t("twoFactor.useBackupCode") : t("twoFactor.useApp")}
            </Link>
          </div>
        }
        submit={{ label: t("twoFactor.submit"), busyLabel: t("login.submitting") }}
      />
    </AuthCard>
  );
}
