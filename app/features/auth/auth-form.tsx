import type { TOptions } from "i18next";
import type { ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import {
  FormAlert,
  FormFields,
  type FieldSpec,
  type PasswordSpec,
} from "~/components/ui/form-card";
import { useMessage, type MessageKey } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";

/** What an account form's action sends back: each field's error, the form's own, what was typed. */
export interface AuthFormState {
  fieldErrors?: Record<string, MessageKey>;
  formError?: MessageKey;
  values?: Record<string, string>;
}

/**
 * A link between the sign-in and register pages that keeps the way back (an order being configured):
 * `/register?redirectTo=…`. The target was checked by the page's loader (safeRedirect).
 */
export function withRedirect(path: "/login" | "/register", redirectTo: string | null): string {
  return redirectTo ? `${path}?redirectTo=${encodeURIComponent(redirectTo)}` : path;
}

/** The address field of the sign-in and register forms. */
export function emailField(label: string): FieldSpec {
  return {
    kind: "input",
    name: "email",
    label,
    type: "email",
    autoComplete: "email",
    required: true,
    dir: "ltr",
  };
}

/** A password field with its show/hide button, named in the reader's language. */
export function usePasswordField() {
  const { t } = useTranslation("auth");
  return (spec: Omit<PasswordSpec, "kind" | "showLabel" | "hideLabel">): PasswordSpec => ({
    kind: "password",
    ...spec,
    showLabel: t("showPassword"),
    hideLabel: t("hidePassword"),
  });
}

/**
 * A required password field of the sign-in and register forms; `extra` (a minimum length) stands before
 * `required`, where those forms write it.
 */
export function useRequiredPasswordField() {
  const passwordField = usePasswordField();
  return (name: string, label: string, autoComplete: string, extra?: { minLength: number }) =>
    passwordField({ name, label, autoComplete, ...extra, required: true });
}

/**
 * An account form (sign in, register, change password): the form's error, its fields, what goes under
 * them, and the submit button that says it is working while the form is sent. `errorValues` fill the
 * messages' placeholders (the minutes of a lock).
 */
export function AuthForm({
  state,
  fields,
  errorValues,
  hidden,
  after,
  submit,
}: {
  state?: AuthFormState;
  fields: FieldSpec[];
  errorValues?: TOptions;
  hidden?: ReactNode;
  after?: ReactNode;
  submit: { label: string; busyLabel: string; busyText?: boolean };
}) {
  const message = useMessage();
  const submitting = useNavigation().state === "submitting";
  return (
    <Form method="post" className="grid gap-4" noValidate>
      {hidden}
      {state?.formError ? <FormAlert>{message(state.formError, errorValues)}</FormAlert> : null}
      <FormFields
        fields={fields}
        values={state?.values}
        errors={state?.fieldErrors}
        errorValues={errorValues}
      />
      {after}
      <Button
        type="submit"
        disabled={submitting}
        aria-busy={submitting}
        data-busy-text={submit.busyText === false ? undefined : submit.busyLabel}
      >
        {submitting ? submit.busyLabel : submit.label}
      </Button>
    </Form>
  );
}
