import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { Button } from "~/components/ui/button";
import { requireAdmin } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/dashboard";

export function loader({ request, context }: Route.LoaderArgs) {
  const admin = requireAdmin(request, context);
  const t = context.i18n.getFixedT(null, "common");
  return { meta: { title: t("admin.title") }, email: admin.email };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function AdminDashboard({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t("admin.title")}</h1>
      <p className="mt-2 text-muted-foreground">
        {t("admin.welcome", { email: loaderData.email })}
      </p>
      <p className="mt-2">{t("admin.comingSoon")}</p>
      <div className="mt-6 flex gap-2">
        <Button asChild variant="outline">
          <Link to="/">{t("nav.home")}</Link>
        </Button>
        <Form method="post" action="/logout">
          <Button type="submit">{t("nav.logout")}</Button>
        </Form>
      </div>
    </main>
  );
}
