import { useTranslation } from "~/i18n/use-translation";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { liveChatLinks } from "~/domain/settings/settings";
import { AuthCard } from "~/features/auth/auth-card";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/forgot-password";
import { requestContext } from "~/context.server";

export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "auth");
  return {
    meta: { title: t("forgot.title") },
    contactEmail: context.settings.general.contactEmail,
    communityUrl: liveChatLinks(context.settings).community,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

// Self-service reset needs outgoing e-mail, which this host does not have yet: support resets it.
export default function ForgotPassword({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("auth");
  return (
    <AuthCard title={t("forgot.heading")}>
      <p className="text-sm">
        {loaderData.communityUrl
          ? t("forgot.text", { email: loaderData.contactEmail })
          : t("forgot.textNoChat", { email: loaderData.contactEmail })}
      </p>
      <div className="flex flex-wrap gap-2">
        {loaderData.communityUrl ? (
          <Button asChild>
            <a href={loaderData.communityUrl} target="_blank" rel="noopener noreferrer">
              {t("forgot.community")}
            </a>
          </Button>
        ) : null}
        <Button asChild variant="outline">
          <Link to="/login">{t("forgot.back")}</Link>
        </Button>
      </div>
    </AuthCard>
  );
}
