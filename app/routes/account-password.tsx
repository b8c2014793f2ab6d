import { useTranslation } from "~/i18n/use-translation";
import { data, Form, redirect, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, fieldAria } from "~/components/ui/field";
import { PasswordInput } from "~/components/ui/password-input";
import { changePasswordSchema, homeFor } from "~/domain/accounts/accounts";
import { changePassword } from "~/domain/accounts/accounts.server";
import { AuthCard } from "~/features/auth/auth-card";
import { useAuthError } from "~/features/auth/use-auth-error";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/account-password";
import { requestContext } from "~/context.server";

export function loader({ request, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(request, context);
  const t = context.i18n.getFixedT(null, "auth");
  return { meta: { title: t("changePassword.title") }, required: user.mustChangePassword };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(request, context);
  const form = await parseForm(request, changePasswordSchema);
  if (!form.ok) return data({ fieldErrors: form.fieldErrors }, { status: 400 });
  const result = await changePassword(
    context.services,
    {
      userId: user.id,
      cookie: request.headers.get("cookie") ?? "",
      currentPassword: form.data.currentPassword,
      newPassword: form.data.newPassword,
      ip: context.clientIp,
    },
    { ipPerMinute: context.services.loginIpLimit },
  );
  if (!result.ok) {
    if (result.error === "errors.tooManyAttempts")
      return data(
        { fieldErrors: { currentPassword: result.error }, minutes: result.minutes },
        { status: statusOf(result) },
      );
    const field =
      result.error === "errors.currentPasswordWrong" ? "currentPassword" : "newPassword";
    return data({ fieldErrors: { [field]: result.error } }, { status: statusOf(result) });
  }
  const toast = flashToast({ key: "toast.passwordChanged", type: "success" });
  throw redirect(homeFor(user.role), {
    headers: headersWithCookies([...result.setCookies, toast]),
  });
}

export default function AccountPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const errorText = useAuthError();
  const submitting = useNavigation().state === "submitting";
  const errors: Record<string, string> = actionData?.fieldErrors ?? {};
  // Only a throttled current password carries minutes ("Too many attempts, try again in N minutes.").
  const minutes = actionData && "minutes" in actionData ? actionData.minutes : undefined;
  const passwordProps = {
    showLabel: t("showPassword"),
    hideLabel: t("hidePassword"),
    required: true,
  };
  return (
    <AuthCard
      title={t("changePassword.heading")}
      description={loaderData.required ? t("changePassword.required") : undefined}
    >
      <Form method="post" className="grid gap-4" noValidate>
        {(
          [
            ["currentPassword", "changePassword.currentPassword"],
            ["newPassword", "changePassword.newPassword"],
            ["confirmPassword", "changePassword.confirmPassword"],
          ] as const
        ).map(([name, label]) => (
          <Field
            key={name}
            id={name}
            label={t(label)}
            error={errorText(errors[name], { count: minutes })}
          >
            <PasswordInput
              id={name}
              name={name}
              autoComplete={name === "currentPassword" ? "current-password" : "new-password"}
              {...passwordProps}
              {...fieldAria(name, errors[name])}
            />
          </Field>
        ))}
        <Button type="submit" disabled={submitting} aria-busy={submitting}>
          {submitting ? t("changePassword.submitting") : t("changePassword.submit")}
        </Button>
      </Form>
    </AuthCard>
  );
}
