import { data } from "react-router";
import { requestContext } from "~/context.server";
import { campaignTokenSchema } from "~/domain/campaigns/campaigns.schemas";
import { confirmNewsletter } from "~/domain/campaigns/newsletter.server";
import { NewsletterConfirmView } from "~/features/campaigns/public-pages";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/newsletter-confirm";

// The newsletter's confirmation link (docs/mail.md#campaigns): followed, it confirms the address, here
// in the loader, since a link in a message can only be a GET (as /verify-email's). A bad or expired
// link says so and changes nothing.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const token = campaignTokenSchema.safeParse(url.searchParams.get("token"));
  const outcome = token.success
    ? await confirmNewsletter(context.services.db, {
        token: token.data,
        secret: context.services.env.AUTH_SECRET,
      })
    : "invalid";
  const t = context.i18n.getFixedT(null, "campaigns");
  return data(
    { meta: { title: t("confirm.title") }, outcome },
    { status: outcome === "confirmed" ? 200 : 400 },
  );
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  return <NewsletterConfirmView outcome={loaderData.outcome} />;
}
