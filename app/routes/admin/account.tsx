import { twoFactorActionSchema } from "~/domain/accounts/two-factor.schemas";
import { loadTwoFactorState } from "~/domain/accounts/two-factor.server";
import { AdminAccountPage } from "~/features/admin-account/account-page";
import { TwoFactorCard, type TwoFactorResult } from "~/features/dashboard/two-factor-card";
import { adminLoader } from "~/http/admin-route.server";
import { adminForm } from "~/http/route-request.server";
import { twoFactorFormAction } from "~/http/two-factor-form.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/account";
import { requestContext } from "~/context.server";

// The acting admin's own account: two-factor sign-in (the admin guard lets an admin without it reach
// this page while the settings require it) and the way to change their password.
export const loader = adminLoader(requestContext, {
  title: "admin.shell.account",
  permission: null,
  load: async ({ admin, context }) => ({
    twoFactor: await loadTwoFactorState(context.services, admin.id),
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const { admin, form } = await adminForm(request, url, context, twoFactorActionSchema, null);
  return twoFactorFormAction(request, context, { userId: admin.id, form });
}

export default function AdminAccount({ loaderData, actionData }: Route.ComponentProps) {
  return (
    <AdminAccountPage
      twoFactor={
        <TwoFactorCard
          state={loaderData.twoFactor}
          result={actionData as TwoFactorResult | undefined}
        />
      }
    />
  );
}
