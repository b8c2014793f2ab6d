import { useTranslation } from "~/i18n/use-translation";
import { data } from "react-router";
import { type ProductType } from "~/domain/catalogue/catalogue";
import { productTypeSchema } from "~/domain/catalogue/catalogue.schemas";
import { listActiveProducts } from "~/domain/catalogue/catalogue.server";
import { PlanGrid } from "~/features/site/plan-grid";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/services";
import { requestContext } from "~/context.server";

// Catalogue keys (site namespace) written out, so the catalogue test sees every one in use.
const PAGE_TEXT = {
  samp: {
    metaTitle: "services.samp.metaTitle",
    title: "services.samp.title",
    subtitle: "services.samp.subtitle",
  },
  mta: {
    metaTitle: "services.mta.metaTitle",
    title: "services.mta.title",
    subtitle: "services.mta.subtitle",
  },
  vps: {
    metaTitle: "services.vps.metaTitle",
    title: "services.vps.title",
    subtitle: "services.vps.subtitle",
  },
  game: {
    metaTitle: "services.game.metaTitle",
    title: "services.game.title",
    subtitle: "services.game.subtitle",
  },
} as const satisfies Record<ProductType, object>;

// /services/samp, /services/mta, /services/vps and /game-hosting (which has no :type).
export async function loader({ params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  // /game-hosting has no :type; /services/game is not a page of its own.
  const parsed = productTypeSchema.safeParse(params.type ?? "game");
  if (!parsed.success || (params.type !== undefined && parsed.data === "game"))
    throw data(null, { status: 404 });
  const type = parsed.data;
  const t = context.i18n.getFixedT(null, "site");
  return {
    meta: { title: t(PAGE_TEXT[type].metaTitle), description: t(PAGE_TEXT[type].subtitle) },
    type,
    // Every active plan of the type (the spec's three unless an admin adds or hides some on
    // /admin/products), read on every request so an edit shows at once, in the reader's language (the
    // texts are part of the data the visitor page cache keys on, ADR 15).
    plans: await listActiveProducts(context.services.db, type, context.locale),
    locale: context.locale,
  };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function ServicePage({ loaderData }: Route.ComponentProps) {
  const { t } = useTranslation("site");
  const { type } = loaderData;
  return (
    <main>
      <section className="bg-secondary text-white">
        <div className="mx-auto max-w-7xl px-4 py-16 text-center">
          <h1 className="text-4xl font-extrabold sm:text-5xl">{t(PAGE_TEXT[type].title)}</h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-300">
            {t(PAGE_TEXT[type].subtitle)}
          </p>
        </div>
      </section>
      <section className="mx-auto max-w-7xl px-4 py-16">
        <PlanGrid plans={loaderData.plans} locale={loaderData.locale} highlight="recommended" />
      </section>
    </main>
  );
}
