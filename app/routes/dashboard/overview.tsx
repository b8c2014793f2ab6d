import { redirect } from "react-router";
import { requestContext } from "~/context.server";
import { tabQueryAddress } from "~/domain/customer-dashboard/customer-dashboard";
import { loadOverviewTab } from "~/domain/customer-dashboard/customer-dashboard.server";
import { OverviewTab } from "~/features/dashboard/dashboard-view";
import { FormAlert } from "~/components/ui/form-card";
import { useMessage } from "~/i18n/use-message";
import { requireUser } from "~/http/guards.server";
import { unknownForm } from "~/http/route-request.server";
import type { Route } from "./+types/overview";

// /dashboard: the overview tab. The dashboard's tabs were once `/dashboard?tab=…`, the addresses stored
// notifications, sent mails and bookmarks still hold: they are sent to the tab's own route.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const moved = tabQueryAddress(url.searchParams);
  if (moved) throw redirect(moved, 301);
  return {
    ...(await loadOverviewTab(context.services.db, user.id, context.locale)),
    locale: context.locale,
  };
}

// The overview has no form. A form of a page written before the tabs had routes posts to its
// `?tab=` address: a 307 sends it, as posted, to the tab that answers it.
export async function action({ url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  requireUser(url, context);
  const moved = tabQueryAddress(url.searchParams);
  if (moved?.startsWith("/dashboard/")) throw redirect(moved, 307);
  return unknownForm("dashboard.unknownForm");
}

export default function Overview({ loaderData, actionData }: Route.ComponentProps) {
  const message = useMessage();
  return (
    <>
      {actionData ? <FormAlert>{message(actionData.message)}</FormAlert> : null}
      <OverviewTab {...loaderData} />
    </>
  );
}
