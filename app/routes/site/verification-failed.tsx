import { GateOutcome } from "~/features/site/gate-outcome";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/verification-failed";
import { requestContext } from "~/context.server";

// A redirect target of the entry gate (spec section 4).
export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "site");
  return {
    meta: { title: t("verificationFailed.metaTitle"), description: t("verificationFailed.text") },
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Page() {
  return <GateOutcome page="verificationFailed" />;
}
