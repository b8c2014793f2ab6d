import { Fragment, type ReactNode } from "react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import type { CountryChoice } from "~/domain/invoices/billing-details";
import { placeholder } from "~/lib/placeholders";
import type { DiscordRefusal } from "~/domain/discord/discord";
import { AuthCard, SwitchFormLine } from "./auth-card";
import { DiscordSignIn } from "./discord-sign-in";
import { AuthForm, emailField, useRequiredPasswordField, type AuthFormState } from "./auth-form";

export type RegisterFormState = AuthFormState;

export function RegisterForm({
  state,
  redirectTo = null,
  registrationOpen,
  coinPurchase,
  communityUrl,
  country,
  countries,
  discord,
}: {
  state?: RegisterFormState;
  /** Where signing in leads after registering (an order being configured), checked by the loader. */
  redirectTo?: string | null;
  /** The admin's registration switch: closed, the page says so instead of showing the form. */
  registrationOpen: boolean;
  /** The admin's coin purchase switch, for the coins notice. */
  coinPurchase: boolean;
  /** The community chat, when live chat is on. */
  communityUrl: string | null;
  /** The country the select starts on: the shop's own (settings), whose VAT a new customer pays. */
  country: string;
  /** The countries in the reader's language and order, named on the server (the loader's). */
  countries: readonly CountryChoice[];
  /** "Sign up with Discord" (when configured) and a refusal a return from Discord brought. */
  discord?: { offered: boolean; refusal: DiscordRefusal | null };
}) {
  const { t } = useTranslation("auth");
  const passwordField = useRequiredPasswordField();
  const loginFooter = (
    <SwitchFormLine
      question={t("register.haveAccount")}
      label={t("register.login")}
      to="/login"
      redirectTo={redirectTo}
    />
  );
  if (!registrationOpen)
    return (
      <AuthCard title={t("register.closedHeading")} footer={loginFooter}>
        <p role="status" className="text-sm">
          {t("register.closedText")}
        </p>
      </AuthCard>
    );
  return (
    <AuthCard
      title={t("register.heading")}
      description={t("register.subheading")}
      footer={loginFooter}
    >
      {discord ? (
        <DiscordSignIn offered={discord.offered} refusal={discord.refusal} intent="register" />
      ) : null}
      <AuthForm
        state={{ ...state, values: { country, ...state?.values } }}
        fields={[
          {
            kind: "input",
            name: "name",
            label: t("register.name"),
            autoComplete: "name",
            required: true,
            maxLength: 100,
          },
          emailField(t("register.email")),
          {
            kind: "select",
            variant: "form",
            name: "country",
            label: t("register.country"),
            hint: t("register.countryHint"),
            autoComplete: "country",
            required: true,
            // Sized by its box, not by its longest name, which would widen the card past a phone's screen.
            style: { contain: "inline-size" },
            options: countries,
          },
          passwordField("password", t("register.password"), "new-password", { minLength: 6 }),
          passwordField("confirmPassword", t("register.confirmPassword"), "new-password"),
        ]}
        after={
          <>
            <LegalLine />
            <p className="rounded-md bg-muted p-3 text-sm">
              {!coinPurchase ? (
                t("register.coinsClosed")
              ) : communityUrl ? (
                <>
                  {t("register.coinsNotice")}{" "}
                  <a
                    href={communityUrl}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="font-medium text-primary hover:underline"
                  >
                    {t("register.coinsLink")}
                  </a>
                </>
              ) : (
                t("register.coinsNoticeNoChat")
              )}
            </p>
          </>
        }
        submit={{ label: t("register.submit"), busyLabel: t("register.submitting") }}
      />
    </AuthCard>
  );
}

/** "By registering you accept the service terms and the privacy policy", each a link, in any word order. */
function LegalLine() {
  const { t } = useTranslation("auth");
  const links = {
    "{{terms}}": (
      <Link to="/service-terms" className="font-medium text-primary hover:underline">
        {t("register.termsLink")}
      </Link>
    ),
    "{{privacy}}": (
      <Link to="/privacy" className="font-medium text-primary hover:underline">
        {t("register.privacyLink")}
      </Link>
    ),
  } as Record<string, ReactNode>;
  const text = t("register.legal", {
    terms: placeholder("terms"),
    privacy: placeholder("privacy"),
  });
  return (
    <p className="text-sm text-muted-foreground" data-testid="register-legal">
      {text.split(/(\{\{(?:terms|privacy)\}\})/).map((part, index) => (
        <Fragment key={index}>{links[part] ?? part}</Fragment>
      ))}
    </p>
  );
}
