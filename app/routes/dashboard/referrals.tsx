import { requestContext } from "~/context.server";
import { referralLink } from "~/domain/referrals/referrals";
import { loadReferralsPage } from "~/domain/referrals/referrals.server";
import { ReferralsTab } from "~/features/referrals/referrals-tab";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/referrals";

// /dashboard/referrals (docs/referrals.md): the customer's referral link, their referrals and rewards.
// No forms: the code is made the first time the page is opened, and kept.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const page = await loadReferralsPage(context.services.db, user.id);
  return {
    ...page,
    link: referralLink(context.services.env.PUBLIC_URL, page.code),
    locale: context.locale,
  };
}

export default function Referrals({ loaderData }: Route.ComponentProps) {
  return <ReferralsTab {...loaderData} />;
}
