import { GateOutcome } from "~/features/site/gate-outcome";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/bot-detected";
import { requestContext } from "~/context.server";
import { sitePageMeta } from "~/http/site-page.server";

// A redirect target of the entry gate (spec section 4).
export function loader({ context }: Route.LoaderArgs) {
  return sitePageMeta(requestContext(context), "botDetected.metaTitle", "botDetected.text");
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Page() {
  return <GateOutcome page="botDetected" />;
}
