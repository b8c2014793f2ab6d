import { redirect } from "react-router";
import { homeFor, safeRedirect } from "~/domain/accounts/accounts";
import { loginSchema } from "~/domain/accounts/accounts.schemas";
import { signIn } from "~/domain/accounts/accounts.server";
import { LoginForm, type LoginFormState } from "~/features/auth/login-form";
import { authForm, authPage } from "~/http/auth-route.server";
import { refusedForm } from "~/http/form-answers.server";
import { CHANGE_PASSWORD_PATH } from "~/http/guards.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/login";
import { requestContext } from "~/context.server";

export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = authPage(context);
  const redirectTo = url.searchParams.get("redirectTo");
  return {
    meta: { title: t("login.title") },
    redirectTo: safeRedirect(redirectTo, "") || null,
    registrationOpen: context.settings.features.registration,
    maintenance: context.settings.general.maintenanceMode,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await authForm(request, loginSchema);
  if (!form.ok) return form.answer;

  const result = await signIn(
    context.services,
    form.fields,
    { ip: context.clientIp, userAgent: request.headers.get("user-agent") },
    { ipPerMinute: context.services.loginIpLimit },
  );
  const values = { email: form.fields.email };
  if (!result.ok) {
    const minutes = result.error === "errors.tooManyAttempts" ? result.minutes : undefined;
    return refusedForm(
      { formError: `auth.${result.error}`, minutes, values } satisfies LoginFormState,
      result,
    );
  }

  const target = result.mustChangePassword
    ? CHANGE_PASSWORD_PATH
    : safeRedirect(form.fields.redirectTo, homeFor(result.role));
  const toast = flashToast({
    key: result.role === "admin" ? "toast.adminLoginSuccess" : "toast.loginSuccess",
    type: "success",
  });
  throw redirect(target, { headers: headersWithCookies([...result.setCookies, toast]) });
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <LoginForm
      state={actionData}
      redirectTo={loaderData.redirectTo}
      registrationOpen={loaderData.registrationOpen}
      maintenance={loaderData.maintenance}
    />
  );
}
