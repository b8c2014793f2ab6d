import {
  CloudIcon,
  DatabaseIcon,
  HardDriveIcon,
  HeadphonesIcon,
  LayoutDashboardIcon,
  MapPinIcon,
  ServerIcon,
  ShieldIcon,
  TimerIcon,
  ZapIcon,
} from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { usePageScripts } from "~/components/page-scripts";
import { Button } from "~/components/ui/button";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { ActiveServerCounter } from "~/features/site/active-server-counter";
import { EntryGate, EntryGateTemplate } from "~/features/site/entry-gate";
import { PlanGrid } from "~/features/site/plan-grid";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/home";
import { requestContext } from "~/context.server";

export async function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "site");
  // Spec section 2: three plans taken from the catalogue (the SA-MP plans), the second marked Most Popular.
  const plans = (await listActiveProducts(context.services.db, "samp", context.locale)).slice(0, 3);
  // The gate runs only when both the server (ENTRY_GATE) and the admin's setting allow it.
  const gate = context.services.env.ENTRY_GATE === "on" && context.settings.general.entryGate;
  const { seo, features } = context.settings;
  return {
    // The admin's SEO title and description are the home page's; empty, the built-in ones (translated).
    meta: {
      fullTitle: seo.title || undefined,
      title: t("home.metaTitle"),
      description: seo.description || t("home.subtitle"),
    },
    plans,
    gate,
    registrationOpen: features.registration,
    locale: context.locale,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

// Catalogue keys written out, so the catalogue test sees every one in use.
const features = [
  { title: "features.frankfurt.title", text: "features.frankfurt.text", icon: MapPinIcon },
  { title: "features.uptime.title", text: "features.uptime.text", icon: TimerIcon },
  { title: "features.ddos.title", text: "features.ddos.text", icon: ShieldIcon },
  { title: "features.support.title", text: "features.support.text", icon: HeadphonesIcon },
  { title: "features.nvme.title", text: "features.nvme.text", icon: HardDriveIcon },
  { title: "features.instant.title", text: "features.instant.text", icon: ZapIcon },
  { title: "features.panel.title", text: "features.panel.text", icon: LayoutDashboardIcon },
  { title: "features.backups.title", text: "features.backups.text", icon: DatabaseIcon },
] as const;

const services = [
  { title: "home.sampTitle", text: "home.sampText", to: "/services/samp", icon: ServerIcon },
  { title: "home.mtaTitle", text: "home.mtaText", to: "/services/mta", icon: ServerIcon },
  { title: "home.vpsTitle", text: "home.vpsText", to: "/services/vps", icon: CloudIcon },
] as const;

export default function Home({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("site");
  const scripts = usePageScripts();
  return (
    <main>
      {loaderData.gate ? scripts === "react" ? <EntryGate /> : <EntryGateTemplate /> : null}
      <section className="bg-secondary text-white">
        <div className="mx-auto grid max-w-7xl gap-6 px-4 py-20 text-center">
          <div className="flex flex-wrap justify-center gap-2">
            <p className="inline-flex items-center gap-2 rounded-full bg-white/10 px-3 py-1 text-sm">
              <MapPinIcon className="size-4" aria-hidden /> {t("home.badge")}
            </p>
            <ActiveServerCounter locale={loaderData.locale} />
          </div>
          <h1 className="text-4xl font-extrabold tracking-tight sm:text-6xl">{t("home.title")}</h1>
          <p className="mx-auto max-w-2xl text-lg text-slate-300">{t("home.subtitle")}</p>
          <div className="flex flex-wrap justify-center gap-3">
            <Button asChild size="lg">
              <a href="#plans">{t("home.ctaPlans")}</a>
            </Button>
            {loaderData.registrationOpen ? (
              <Button
                asChild
                size="lg"
                variant="outline"
                className="border-white/30 bg-transparent text-white hover:bg-white/10"
              >
                <Link to="/register">{t("home.ctaRegister")}</Link>
              </Button>
            ) : null}
          </div>
        </div>
      </section>

      <section className="mx-auto max-w-7xl px-4 py-16" aria-labelledby="services-title">
        <h2 id="services-title" className="text-center text-3xl font-bold">
          {t("home.servicesTitle")}
        </h2>
        <p className="mt-2 text-center text-muted-foreground">{t("home.servicesSubtitle")}</p>
        <div className="mt-10 grid gap-6 md:grid-cols-3">
          {services.map(({ title, text, to, icon: Icon }) => (
            <article key={title} className="rounded-xl border p-6 shadow-sm">
              <Icon className="size-8 text-primary" aria-hidden />
              <h3 className="mt-4 text-xl font-semibold">{t(title)}</h3>
              <p className="mt-2 text-muted-foreground">{t(text)}</p>
              <Link to={to} className="mt-4 inline-block font-medium text-primary hover:underline">
                {t("home.viewPlans")}
              </Link>
            </article>
          ))}
        </div>
      </section>

      <section className="bg-muted py-16" aria-labelledby="features-title">
        <div className="mx-auto max-w-7xl px-4">
          <h2 id="features-title" className="text-center text-3xl font-bold">
            {t("home.featuresTitle")}
          </h2>
          <ul className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {features.map(({ title, text, icon: Icon }) => (
              <li key={title} className="rounded-xl bg-background p-5 shadow-sm">
                <Icon className="size-6 text-primary" aria-hidden />
                <h3 className="mt-3 font-semibold">{t(title)}</h3>
                <p className="mt-1 text-sm text-muted-foreground">{t(text)}</p>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <section
        id="plans"
        className="mx-auto max-w-7xl scroll-mt-20 px-4 py-16"
        aria-labelledby="plans-title"
      >
        <h2 id="plans-title" className="text-center text-3xl font-bold">
          {t("home.plansTitle")}
        </h2>
        <p className="mt-2 mb-10 text-center text-muted-foreground">{t("home.plansSubtitle")}</p>
        <PlanGrid plans={loaderData.plans} locale={loaderData.locale} highlight="second" />
      </section>

      {/* -mb-16 cancels the footer's top margin (mt-16), which would leave a white band under this grey
          section, the last of the page. */}
      <section className="-mb-16 bg-muted py-16" aria-labelledby="frankfurt-title">
        <div className="mx-auto grid max-w-7xl items-center gap-8 px-4 lg:grid-cols-2">
          <div>
            <h2 id="frankfurt-title" className="text-3xl font-bold">
              {t("home.frankfurtTitle")}
            </h2>
            <p className="mt-4 text-muted-foreground">{t("home.frankfurtText")}</p>
          </div>
          <iframe
            title={t("home.mapTitle")}
            src="https://www.google.com/maps?q=Frankfurt%20am%20Main&output=embed"
            loading="lazy"
            width="600"
            height="320"
            className="h-80 w-full rounded-xl border-0 bg-background"
            referrerPolicy="no-referrer-when-downgrade"
          />
        </div>
      </section>
    </main>
  );
}
