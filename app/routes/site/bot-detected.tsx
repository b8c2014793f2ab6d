import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/bot-detected";

// A redirect target of the entry gate (spec section 4).
export function loader({ context }: Route.LoaderArgs) {
  const t = context.i18n.getFixedT(null, "site");
  return { meta: { title: t("botDetected.metaTitle"), description: t("botDetected.text") } };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Page() {
  const { t } = useTranslation("site");
  return (
    <main className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 py-16 text-center">
      <h1 className="text-3xl font-bold">{t("botDetected.title")}</h1>
      <p className="text-muted-foreground">{t("botDetected.text")}</p>
      <Button asChild>
        <Link to="/" reloadDocument>
          {t("botDetected.retry")}
        </Link>
      </Button>
    </main>
  );
}
