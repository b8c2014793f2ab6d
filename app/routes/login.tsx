import { data, redirect } from "react-router";
import { homeFor, safeRedirect, type Role } from "~/domain/accounts/accounts";
import { loginSchema } from "~/domain/accounts/accounts.schemas";
import { signIn } from "~/domain/accounts/accounts.server";
import { codeStepQuerySchema, signInCodeSchema } from "~/domain/accounts/two-factor.schemas";
import { twoFactorChallenge, verifySignInCode } from "~/domain/accounts/two-factor.server";
import { LoginForm, type LoginFormState } from "~/features/auth/login-form";
import { codeStepPath, TwoFactorForm } from "~/features/auth/two-factor-form";
import { authForm, authPage } from "~/http/auth-route.server";
import { refusedForm } from "~/http/form-answers.server";
import { CHANGE_PASSWORD_PATH } from "~/http/guards.server";
import { discordPageState } from "~/http/discord.server";
import { CLEAR_SIGN_UP_EMAIL, readSignUpEmail } from "~/http/sign-up-email.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { SIGN_IN_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/login";
import { requestContext } from "~/context.server";

export async function loader({ url, request, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = authPage(context);
  const redirectTo = url.searchParams.get("redirectTo");
  // `?step=code` (or `backup`): a sign-in whose password matched waits for its code (ADR 0033).
  const { step } = codeStepQuerySchema.parse({ step: url.searchParams.get("step") ?? undefined });
  const challenge = step
    ? await twoFactorChallenge(context.services, request.headers.get("cookie"))
    : null;
  return {
    meta: { title: t("login.title") },
    redirectTo: safeRedirect(redirectTo, "") || null,
    registrationOpen: context.settings.features.registration,
    maintenance: context.settings.general.maintenanceMode,
    codeStep:
      step && challenge
        ? { method: step === "backup" ? ("backup" as const) : ("totp" as const), ...challenge }
        : null,
    /** The code step was asked for but no sign-in waits for a code any more (10 minutes passed). */
    expired: Boolean(step && !challenge),
    /** The address just registered, filled in on the form (registration leads here). */
    signUpEmail: readSignUpEmail(request.headers.get("cookie")),
    /** "Sign in with Discord" (when configured) and what a return from Discord said. */
    discord: discordPageState(context, url),
  };
}

export const handle = SIGN_IN_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

/** Where a sign-in goes once it has its session, with its toast: the same for a password or a code. */
function signedIn(
  result: { role: Role; mustChangePassword: boolean; setCookies: string[] },
  redirectTo: string | undefined,
): never {
  const target = result.mustChangePassword
    ? CHANGE_PASSWORD_PATH
    : safeRedirect(redirectTo, homeFor(result.role));
  const toast = flashToast({
    key: result.role === "admin" ? "toast.adminLoginSuccess" : "toast.loginSuccess",
    type: "success",
  });
  throw redirect(target, {
    headers: headersWithCookies([...result.setCookies, toast, CLEAR_SIGN_UP_EMAIL]),
  });
}

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const sent = await request
    .clone()
    .formData()
    .catch(() => new FormData());
  const client = {
    ip: context.clientIp,
    userAgent: request.headers.get("user-agent"),
    cookie: request.headers.get("cookie"),
  };
  const limits = { ipPerMinute: context.services.loginIpLimit };

  if (sent.get("step") === "code") {
    const form = await authForm(request, signInCodeSchema);
    if (!form.ok) return form.answer;
    const result = await verifySignInCode(context.services, form.fields, client, limits);
    if (result.ok) signedIn(result, form.fields.redirectTo);
    if (result.error === "twoFactor.errors.expired")
      return data(
        { expired: true, formError: `auth.${result.error}` } satisfies LoginFormState & {
          expired: true;
        },
        { status: 401 },
      );
    const minutes = result.kind === "limited" ? result.minutes : undefined;
    return refusedForm(
      { formError: `auth.${result.error}`, minutes } satisfies LoginFormState,
      result,
    );
  }

  const form = await authForm(request, loginSchema);
  if (!form.ok) return form.answer;

  const result = await signIn(context.services, form.fields, client, limits);
  if (!result.ok && result.kind === "two-factor") {
    const redirectTo = safeRedirect(form.fields.redirectTo, "") || null;
    throw redirect(codeStepPath("totp", redirectTo), {
      headers: headersWithCookies(result.setCookies),
    });
  }
  const values = { email: form.fields.email };
  if (!result.ok) {
    const minutes = result.error === "errors.tooManyAttempts" ? result.minutes : undefined;
    return refusedForm(
      { formError: `auth.${result.error}`, minutes, values } satisfies LoginFormState,
      result,
    );
  }
  signedIn(result, form.fields.redirectTo);
}

export default function Login({ loaderData, actionData }: Route.ComponentProps) {
  const { codeStep, redirectTo } = loaderData;
  const expired = loaderData.expired || (actionData && "expired" in actionData);
  if (codeStep && !expired)
    return (
      <TwoFactorForm
        state={actionData}
        method={codeStep.method}
        trustOffered={codeStep.trustOffered}
        redirectTo={redirectTo}
      />
    );
  const signUp = loaderData.signUpEmail ? { values: { email: loaderData.signUpEmail } } : undefined;
  return (
    <LoginForm
      state={
        expired
          ? { formError: "auth.twoFactor.errors.expired", ...(actionData ?? {}) }
          : (actionData ?? signUp)
      }
      redirectTo={redirectTo}
      registrationOpen={loaderData.registrationOpen}
      maintenance={loaderData.maintenance}
      discord={loaderData.discord}
    />
  );
}
