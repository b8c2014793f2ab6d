import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { AuthCard } from "./auth-card";
import { useAuthError } from "./use-auth-error";

export interface RegisterFormState {
  fieldErrors?: Record<string, string>;
  formError?: string;
  values?: Record<string, string>;
}

export function RegisterForm({
  state,
  registrationOpen,
  coinPurchase,
  communityUrl,
}: {
  state?: RegisterFormState;
  /** The admin's registration switch: closed, the page says so instead of showing the form. */
  registrationOpen: boolean;
  /** The admin's coin purchase switch, for the coins notice. */
  coinPurchase: boolean;
  /** The community chat, when live chat is on. */
  communityUrl: string | null;
}) {
  const { t } = useTranslation("auth");
  const errorText = useAuthError();
  const submitting = useNavigation().state === "submitting";
  const errors = state?.fieldErrors ?? {};
  const passwordProps = {
    showLabel: t("showPassword"),
    hideLabel: t("hidePassword"),
    required: true,
  };
  const loginFooter = (
    <>
      {t("register.haveAccount")}{" "}
      <Link to="/login" className="font-medium text-primary hover:underline">
        {t("register.login")}
      </Link>
    </>
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
      <Form method="post" className="grid gap-4" noValidate>
        {state?.formError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-destructive">
            {errorText(state.formError)}
          </p>
        ) : null}
        <Field id="name" label={t("register.name")} error={errorText(errors.name)}>
          <Input
            id="name"
            name="name"
            autoComplete="name"
            required
            maxLength={100}
            defaultValue={state?.values?.name}
            {...fieldAria("name", errors.name)}
          />
        </Field>
        <Field id="email" label={t("register.email")} error={errorText(errors.email)}>
          <Input
            id="email"
            name="email"
            type="email"
            autoComplete="email"
            required
            dir="ltr"
            defaultValue={state?.values?.email}
            {...fieldAria("email", errors.email)}
          />
        </Field>
        <Field id="password" label={t("register.password")} error={errorText(errors.password)}>
          <PasswordInput
            id="password"
            name="password"
            autoComplete="new-password"
            minLength={6}
            {...passwordProps}
            {...fieldAria("password", errors.password)}
          />
        </Field>
        <Field
          id="confirmPassword"
          label={t("register.confirmPassword")}
          error={errorText(errors.confirmPassword)}
        >
          <PasswordInput
            id="confirmPassword"
            name="confirmPassword"
            autoComplete="new-password"
            {...passwordProps}
            {...fieldAria("confirmPassword", errors.confirmPassword)}
          />
        </Field>
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
        <Button
          type="submit"
          disabled={submitting}
          aria-busy={submitting}
          data-busy-text={t("register.submitting")}
        >
          {submitting ? t("register.submitting") : t("register.submit")}
        </Button>
      </Form>
    </AuthCard>
  );
}
