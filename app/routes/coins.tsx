import { CoinPage } from "~/components/layout/coin-dialog";
import { requireUser } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import { useRootData } from "~/root";
import type { Route } from "./+types/coins";
import { requestContext } from "~/context.server";

// Where the header's balance button leads when it is tapped before the page's scripts have run: the coin
// dialog's content as a page (app/components/layout/coin-dialog.tsx). The balance and the settings it
// shows are the root loader's, as the dialog's are.
export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  requireUser(url, context);
  const t = context.i18n.getFixedT(null, "common");
  const { coinPurchase } = context.settings.features;
  return { meta: { title: coinPurchase ? t("coins.title") : t("coins.closedTitle") } };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Coins() {
  const root = useRootData();
  if (!root?.user) return null;
  return <CoinPage user={root.user} settings={root.settings} locale={root.locale} />;
}
