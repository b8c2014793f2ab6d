import { data } from "react-router";
import { forgotPasswordSchema } from "~/domain/accounts/password-reset.schemas";
import { requestPasswordReset } from "~/domain/accounts/password-reset.server";
import { liveChatLinks } from "~/domain/settings/settings";
import {
  ForgotPasswordForm,
  ForgotPasswordSupport,
  type ForgotPasswordState,
} from "~/features/auth/forgot-password-form";
import { authForm } from "~/http/auth-route.server";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/forgot-password";
import { requestContext } from "~/context.server";

export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "auth");
  return {
    meta: { title: t("forgot.title") },
    // Self-service reset needs outgoing mail; without SMTP_URL support resets passwords, as before.
    mailEnabled: context.services.mailEnabled,
    contactEmail: context.settings.general.contactEmail,
    communityUrl: liveChatLinks(context.settings).community,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  // No outgoing mail: the form is not offered, and a post gets the support text again.
  if (!context.services.mailEnabled) return data({} satisfies ForgotPasswordState, { status: 403 });
  const form = await authForm(request, forgotPasswordSchema);
  if (!form.ok) return form.answer;
  // The same answer, in about the same time, whether the account exists or not.
  await requestPasswordReset(context.services, { email: form.fields.email });
  return { sent: true } satisfies ForgotPasswordState;
}

export default function ForgotPassword({ loaderData, actionData }: Route.ComponentProps) {
  if (!loaderData.mailEnabled)
    return (
      <ForgotPasswordSupport
        contactEmail={loaderData.contactEmail}
        communityUrl={loaderData.communityUrl}
      />
    );
  return <ForgotPasswordForm state={actionData} />;
}
