import { useTranslation } from "~/i18n/use-translation";
import { Form, Link, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldAria } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { PasswordInput } from "~/components/ui/password-input";
import { AuthCard } from "./auth-card";
import { useAuthError } from "./use-auth-error";

export interface LoginFormState {
  fieldErrors?: Record<string, string>;
  formError?: string;
  minutes?: number;
  values?: Record<string, string>;
}

export function LoginForm({
  state,
  redirectTo,
  registrationOpen,
  maintenance,
}: {
  state?: LoginFormState;
  redirectTo: string | null;
  /** With registration closed, the page does not offer it. */
  registrationOpen: boolean;
  /** Maintenance mode is on: only staff get past this page. */
  maintenance: boolean;
}) {
  const { t } = useTranslation("auth");
  const errorText = useAuthError();
  const submitting = useNavigation().state === "submitting";
  const errors = state?.fieldErrors ?? {};
  return (
    <AuthCard
      title={t("login.heading")}
      description={t("login.subheading")}
      footer={
        registrationOpen ? (
          <>
            {t("login.noAccount")}{" "}
            <Link to="/register" className="font-medium text-primary hover:underline">
              {t("login.register")}
            </Link>
          </>
        ) : undefined
      }
    >
      {maintenance ? (
        <p role="note" className="rounded-md bg-muted p-3 text-sm">
          {t("login.maintenance")}
        </p>
      ) : null}
      <Form method="post" className="grid gap-4" noValidate>
        {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
        {state?.formError ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-destructive">
            {errorText(state.formError, { count: state.minutes })}
          </p>
        ) : null}
        <Field id="email" label={t("login.email")} error={errorText(errors.email)}>
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
        <Field id="password" label={t("login.password")} error={errorText(errors.password)}>
          <PasswordInput
            id="password"
            name="password"
            autoComplete="current-password"
            required
            showLabel={t("showPassword")}
            hideLabel={t("hidePassword")}
            {...fieldAria("password", errors.password)}
          />
        </Field>
        <div className="text-end text-sm">
          <Link to="/forgot-password" className="text-primary hover:underline">
            {t("login.forgot")}
          </Link>
        </div>
        <Button
          type="submit"
          disabled={submitting}
          aria-busy={submitting}
          data-busy-text={t("login.submitting")}
        >
          {submitting ? t("login.submitting") : t("login.submit")}
        </Button>
      </Form>
    </AuthCard>
  );
}
