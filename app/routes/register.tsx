import { data, redirect } from "react-router";
import { registerSchema } from "~/domain/accounts/accounts";
import { registerCustomer } from "~/domain/accounts/accounts.server";
import { liveChatLinks } from "~/domain/settings/settings";
import { RegisterForm, type RegisterFormState } from "~/features/auth/register-form";
import { parseForm } from "~/http/form.server";
import { redirectSignedIn } from "~/http/guards.server";
import { flashToast } from "~/http/toast.server";
import { statusOf } from "~/http/result-status";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import { useRootData } from "~/root";
import type { Route } from "./+types/register";
import { requestContext } from "~/context.server";

export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  redirectSignedIn(context);
  const t = context.i18n.getFixedT(null, "auth");
  return {
    meta: { title: t("register.title") },
    registrationOpen: context.settings.features.registration,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const form = await parseForm(request, registerSchema, { namespace: "auth" });
  if (!form.ok)
    return data({ fieldErrors: form.fieldErrors, values: form.values }, { status: 400 });

  const result = await registerCustomer(context.services, form.data, {
    registrationOpen: context.settings.features.registration,
  });
  if (!result.ok) {
    // Each refusal is shown next to the field it concerns; a closed registration concerns the form.
    const fields: Record<string, string | undefined> = {
      "errors.emailTaken": "email",
      "errors.commonPassword": "password",
    };
    const field = fields[result.error];
    const error = `auth.${result.error}` as const;
    return data(
      {
        fieldErrors: field ? { [field]: error } : undefined,
        formError: field ? undefined : error,
        values: { name: form.data.name, email: form.data.email },
      } satisfies RegisterFormState,
      { status: statusOf(result) },
    );
  }
  throw redirect("/login", {
    headers: { "Set-Cookie": flashToast({ key: "toast.registered", type: "success" }) },
  });
}

export default function Register({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <RegisterForm
      state={actionData}
      registrationOpen={loaderData.registrationOpen}
      coinPurchase={root?.settings.features.coinPurchase ?? true}
      communityUrl={root ? liveChatLinks(root.settings).community : null}
    />
  );
}
