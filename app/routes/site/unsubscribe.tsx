import { data } from "react-router";
import { requestContext } from "~/context.server";
import { campaignTokenSchema, unsubscribeSchema } from "~/domain/campaigns/campaigns.schemas";
import { unsubscribe, unsubscribeLinkWorks } from "~/domain/campaigns/newsletter.server";
import { UnsubscribeView } from "~/features/campaigns/public-pages";
import { parseForm } from "~/http/form.server";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/unsubscribe";

// A campaign's unsubscribe address (docs/mail.md#campaigns, RFC 8058). Opened (a GET: a person, or a
// link scanner), it only asks; its button, or a mail provider's one-click post of
// `List-Unsubscribe=One-Click` (cross-site, without cookies: server/same-origin.ts lets this path
// through), unsubscribes. The signed token in the address is the proof; a changed one changes nothing.

function tokenOf(url: URL): string | null {
  const token = campaignTokenSchema.safeParse(url.searchParams.get("token"));
  return token.success ? token.data : null;
}

export function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const token = tokenOf(url);
  const works = token !== null && unsubscribeLinkWorks(context.services.env.AUTH_SECRET, token);
  const t = context.i18n.getFixedT(null, "campaigns");
  return data(
    {
      meta: { title: t("unsubscribe.title") },
      token: works ? token : "",
      state: works ? ("ask" as const) : ("invalid" as const),
    },
    { status: works ? 200 : 400 },
  );
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const token = tokenOf(url);
  const form = await parseForm(request, unsubscribeSchema);
  const result =
    token !== null && form.ok
      ? await unsubscribe(context.services.db, {
          token,
          secret: context.services.env.AUTH_SECRET,
        })
      : ({ ok: false } as const);
  return data(
    { state: result.ok ? ("done" as const) : ("invalid" as const) },
    {
      status: result.ok ? 200 : 400,
    },
  );
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  return <UnsubscribeView token={loaderData.token} state={actionData?.state ?? loaderData.state} />;
}
