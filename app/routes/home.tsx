import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { Button } from "~/components/ui/button";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/home";

export const meta: Route.MetaFunction = ({ matches }) => metaFor(undefined, matches);

// The full storefront home page comes with the storefront issue; this keeps / useful until then.
export default function Home() {
  const { t } = useTranslation();
  return (
    <main className="mx-auto max-w-7xl px-4 py-20 text-center">
      <h1 className="text-4xl font-extrabold tracking-tight sm:text-5xl">{t("nav.gameHosting")}</h1>
      <div className="mt-8 flex flex-wrap justify-center gap-3">
        <Button asChild size="lg">
          <Link to="/services/samp">{t("nav.sampHosting")}</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/services/mta">{t("nav.mtaHosting")}</Link>
        </Button>
        <Button asChild size="lg" variant="outline">
          <Link to="/services/vps">{t("nav.vpsHosting")}</Link>
        </Button>
      </div>
    </main>
  );
}
