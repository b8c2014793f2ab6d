import { data, redirect } from "react-router";
import { homeFor, loginSchema, safeRedirect } from "~/domain/accounts/accounts";
import { signIn } from "~/domain/accounts/accounts.server";
import { LoginForm, type LoginFormState } from "~/features/auth/login-form";
import { parseForm } from "~/http/form.server";
import { CHANGE_PASSWORD_PATH, redirectSignedIn } from "~/http/guards.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { statusOf } from "~/http/result-status";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/login";
import { requestContext } from "~/context.server";

export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  redirectSignedIn(context);
  const t = context.i18n.getFixedT(null, "auth");
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
  const form = await parseForm(request, loginSchema, { namespace: "auth" });
  if (!form.ok)
    return data({ fieldErrors: form.fieldErrors, values: form.values }, { status: 400 });

  const result = await signIn(
    context.services,
    form.data,
    { ip: context.clientIp, userAgent: request.headers.get("user-agent") },
    { ipPerMinute: context.services.loginIpLimit },
  );
  const values = { email: form.data.email };
  if (!result.ok) {
    const minutes = result.error === "errors.tooManyAttempts" ? result.minutes : undefined;
    return data({ formError: `auth.${result.error}`, minutes, values } satisfies LoginFormState, {
      status: statusOf(result),
    });
  }

  const target = result.mustChangePassword
    ? CHANGE_PASSWORD_PATH
    : safeRedirect(form.data.redirectTo, homeFor(result.role));
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
