import { useTranslation } from "~/i18n/use-translation";
import { data, redirect } from "react-router";
import { homeFor } from "~/domain/accounts/accounts";
import { changePasswordSchema } from "~/domain/accounts/accounts.schemas";
import { changePassword } from "~/domain/accounts/accounts.server";
import { AuthCard } from "~/features/auth/auth-card";
import { AuthForm, usePasswordField, type AuthFormState } from "~/features/auth/auth-form";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/account-password";
import { requestContext } from "~/context.server";

export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const t = context.i18n.getFixedT(null, "auth");
  return { meta: { title: t("changePassword.title") }, required: user.mustChangePassword };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const form = await parseForm(request, changePasswordSchema, { namespace: "auth" });
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
    const error = `auth.${result.error}` as const;
    if (result.error === "errors.tooManyAttempts")
      return data(
        { fieldErrors: { currentPassword: error }, minutes: result.minutes },
        { status: statusOf(result) },
      );
    const field =
      result.error === "errors.currentPasswordWrong" ? "currentPassword" : "newPassword";
    return data({ fieldErrors: { [field]: error } } satisfies AuthFormState, {
      status: statusOf(result),
    });
  }
  const toast = flashToast({ key: "toast.passwordChanged", type: "success" });
  throw redirect(homeFor(user.role), {
    headers: headersWithCookies([...result.setCookies, toast]),
  });
}

export default function AccountPassword({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  const passwordField = usePasswordField();
  // Only a throttled current password carries minutes ("Too many attempts, try again in N minutes.").
  const minutes = actionData && "minutes" in actionData ? actionData.minutes : undefined;
  return (
    <AuthCard
      title={t("changePassword.heading")}
      description={loaderData.required ? t("changePassword.required") : undefined}
    >
      <AuthForm
        state={actionData}
        errorValues={{ count: minutes }}
        fields={[
          passwordField({
            name: "currentPassword",
            label: t("changePassword.currentPassword"),
            autoComplete: "current-password",
            required: true,
          }),
          passwordField({
            name: "newPassword",
            label: t("changePassword.newPassword"),
            autoComplete: "new-password",
            required: true,
          }),
          passwordField({
            name: "confirmPassword",
            label: t("changePassword.confirmPassword"),
            autoComplete: "new-password",
            required: true,
          }),
        ]}
        submit={{
          label: t("changePassword.submit"),
          busyLabel: t("changePassword.submitting"),
          busyText: false,
        }}
      />
    </AuthCard>
  );
}
