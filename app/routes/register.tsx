import { redirect } from "react-router";
import { safeRedirect } from "~/domain/accounts/accounts";
import { registerSchema } from "~/domain/accounts/accounts.schemas";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { countryChoices } from "~/domain/invoices/billing-details";
import { liveChatLinks } from "~/domain/settings/settings";
import { withRedirect } from "~/features/auth/auth-form";
import { RegisterForm, type RegisterFormState } from "~/features/auth/register-form";
import { authForm, authPage } from "~/http/auth-route.server";
import { discordPageState } from "~/http/discord.server";
import { refusedForm } from "~/http/form-answers.server";
import { signUpEmailCookie } from "~/http/sign-up-email.server";
import { CLEAR_REFERRAL_COOKIE, readReferralCode } from "~/http/referral-cookie.server";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { SIGN_IN_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import { useRootData } from "~/root";
import type { Route } from "./+types/register";
import { requestContext } from "~/context.server";

export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = authPage(context);
  return {
    meta: { title: t("register.title") },
    // The way back (an order being configured), kept through registration and the sign-in after it.
    redirectTo: safeRedirect(url.searchParams.get("redirectTo"), "") || null,
    registrationOpen: context.settings.features.registration,
    // The country the form starts on: the shop's own, whose VAT a new customer pays (docs/invoices.md).
    country: context.settings.invoicing.shopCountry,
    // The countries named and sorted here, in the page's language: the browser shows the server's words
    // rather than its own tables' (Node's and Chromium's ICU name some countries differently).
    countries: countryChoices(context.locale),
    /** "Sign up with Discord" (when configured). */
    discord: discordPageState(context, url),
  };
}

export const handle = SIGN_IN_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await authForm(request, registerSchema);
  if (!form.ok) return form.answer;

  // A form without the country (one from before it): the shop's, as the page offers it.
  const country = form.fields.country ?? context.settings.invoicing.shopCountry;
  // The form posts to its own URL, so the way back it was opened with is in the query.
  const back = safeRedirect(url.searchParams.get("redirectTo"), "");
  const result = await registerCustomer(
    context.services,
    { ...form.fields, country },
    {
      registrationOpen: context.settings.features.registration,
      locale: context.locale,
      // A verification message when mail can reach the address (docs/accounts.md).
      sendVerification: context.services.mailEnabled,
      // The verification link leads back there too.
      returnTo: back || null,
      // The code a referral link kept in the visitor's cookie (docs/referrals.md).
      referral: referralFrom(request, context.clientIp),
    },
  );
  if (!result.ok) {
    // Each refusal is shown next to the field it concerns; a closed registration concerns the form.
    const fields: Record<string, string | undefined> = {
      "errors.emailTaken": "email",
      "errors.commonPassword": "password",
    };
    const field = fields[result.error];
    const error = `auth.${result.error}` as const;
    return refusedForm(
      {
        fieldErrors: field ? { [field]: error } : undefined,
        formError: field ? undefined : error,
        values: { name: form.fields.name, email: form.fields.email, country },
      } satisfies RegisterFormState,
      result,
    );
  }
  // The sign-in form comes with the address filled in, and the toast says where the link went.
  throw redirect(withRedirect("/login", back || null), {
    headers: headersWithCookies([
      flashToast({
        key: result.verificationSent ? "toast.registeredVerify" : "toast.registered",
        type: "success",
      }),
      signUpEmailCookie(form.fields.email),
      ...(referralFrom(request, context.clientIp) ? [CLEAR_REFERRAL_COOKIE] : []),
    ]),
  });
}

/** The referral code the visitor's cookie keeps, with the address they register from; null without one. */
function referralFrom(request: Request, address: string) {
  const code = readReferralCode(request.headers.get("cookie"));
  return code ? { code, address } : null;
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <RegisterForm
      state={actionData}
      redirectTo={loaderData.redirectTo}
      registrationOpen={loaderData.registrationOpen}
      coinPurchase={root?.settings.features.coinPurchase ?? true}
      communityUrl={root ? liveChatLinks(root.settings).community : null}
      country={loaderData.country}
      countries={loaderData.countries}
      discord={loaderData.discord}
    />
  );
}
