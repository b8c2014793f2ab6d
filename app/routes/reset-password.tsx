import { redirect } from "react-router";
import {
  resetLinkQuerySchema,
  resetPasswordSchema,
} from "~/domain/accounts/password-reset.schemas";
import { resetLinkWorks, resetPasswordWithToken } from "~/domain/accounts/password-reset.server";
import { ResetPasswordForm } from "~/features/auth/reset-password-form";
import { authForm } from "~/http/auth-route.server";
import { refusedForm } from "~/http/form-answers.server";
import { flashToast } from "~/http/toast.server";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/reset-password";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "auth");
  const { token } = resetLinkQuerySchema.parse({ token: url.searchParams.get("token") ?? "" });
  return {
    meta: { title: t("reset.title") },
    token,
    linkWorks: await resetLinkWorks(context.services, token),
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await authForm(request, resetPasswordSchema);
  if (!form.ok) return form.answer;
  const result = await resetPasswordWithToken(context.services, {
    token: form.fields.token,
    newPassword: form.fields.newPassword,
    ip: context.clientIp,
  });
  if (!result.ok) {
    const error = `auth.${result.error}` as const;
    return refusedForm(
      result.error === "errors.commonPassword"
        ? { fieldErrors: { newPassword: error } }
        : { formError: error },
      result,
    );
  }
  // Every session of the account has ended: the owner signs in with the new password.
  throw redirect("/login", {
    headers: { "Set-Cookie": flashToast({ key: "toast.passwordChanged", type: "success" }) },
  });
}

export default function ResetPassword({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <ResetPasswordForm
      token={loaderData.token}
      linkWorks={loaderData.linkWorks}
      state={actionData}
    />
  );
}
