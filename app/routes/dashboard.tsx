import { useTranslation } from "react-i18next";
import { requireUser } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/dashboard";

export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  const t = context.i18n.getFixedT(null, "common");
  return { meta: { title: t("dashboard.title") }, name: user.name };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Dashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-7xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("dashboard.welcome", { name: loaderData.name })}</h1>
      <p className="mt-2 text-muted-foreground">{t("dashboard.comingSoon")}</p>
    </main>
  );
}
