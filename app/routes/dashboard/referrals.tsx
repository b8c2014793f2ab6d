import { requestContext } from "~/context.server";
import { referralLink } from "~/domain/referrals/referrals";
import { loadReferralsPage, referralCodeOf } from "~/domain/referrals/referrals.server";
import { referralLinkActionSchema } from "~/domain/referrals/referrals.schemas";
import { parseForm } from "~/http/form.server";
import { data, redirect } from "react-router";
import { ReferralsTab } from "~/features/referrals/referrals-tab";
import { requireUser } from "~/http/guards.server";
import type { Route } from "./+types/referrals";

// /dashboard/referrals (docs/referrals.md): the customer's referral link, their referrals and rewards.
// The code is made when the customer first asks for their link (a post: opening a page writes nothing),
// and kept.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const page = await loadReferralsPage(context.services.db, user.id);
  return {
    ...page,
    link: page.code ? referralLink(context.services.env.PUBLIC_URL, page.code) : null,
    locale: context.locale,
  };
}

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const form = await parseForm(request, referralLinkActionSchema);
  if (!form.ok) return data({ ok: false as const }, { status: 400 });
  await referralCodeOf(context.services.db, user.id);
  return redirect("/dashboard/referrals");
}

export default function Referrals({ loaderData }: Route.ComponentProps) {
  return <ReferralsTab {...loaderData} />;
}
