import { GateOutcome } from "~/features/site/gate-outcome";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/bot-detected";
import { requestContext } from "~/context.server";

// A redirect target of the entry gate (spec section 4).
export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "site");
  return { meta: { title: t("botDetected.metaTitle"), description: t("botDetected.text") } };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Page() {
  return <GateOutcome page="botDetected" />;
}
