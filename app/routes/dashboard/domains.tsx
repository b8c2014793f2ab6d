import { requestContext } from "~/context.server";
import { DomainsTab } from "~/features/dashboard/dashboard-view";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/domains";

// /dashboard/domains: no domains are sold yet; the tab says how to point one's own. Its loader only
// checks the session, as every tab's does when the browser moves to it.
export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  requireUser(url, requestContext(routerContext));
  return null;
}

export default function Domains() {
  return <DomainsTab />;
}
