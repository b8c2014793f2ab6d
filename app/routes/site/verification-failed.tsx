import { GateOutcome } from "~/features/site/gate-outcome";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/verification-failed";

// A redirect target of the entry gate (spec section 4).
export function loader({ context }: Route.LoaderArgs) {
  return { meta: { title: context.i18n.getFixedT(null, "site")("verificationFailed.metaTitle") } };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Page() {
  return <GateOutcome page="verificationFailed" />;
}
