import { AwardIcon, HeartHandshakeIcon, ShieldCheckIcon } from "lucide-react";
import { BulletList, TextSection } from "~/components/ui/text-section";
import { useTranslation } from "~/i18n/use-translation";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/about";
import { requestContext } from "~/context.server";
import { sitePageMeta } from "~/http/site-page.server";

export function loader({ context }: Route.LoaderArgs) {
  return sitePageMeta(requestContext(context), "about.metaTitle", "about.mission");
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

// Catalogue keys written out, so the catalogue test sees every one in use.
const values = [
  { title: "about.excellence", text: "about.excellenceText", icon: AwardIcon },
  { title: "about.reliability", text: "about.reliabilityText", icon: ShieldCheckIcon },
  { title: "about.community", text: "about.communityText", icon: HeartHandshakeIcon },
] as const;

export default function About() {
  const { t } = useTranslation("site");
  return (
    <main className="mx-auto grid max-w-4xl gap-12 px-4 py-16">
      <h1 className="text-4xl font-extrabold">{t("about.title")}</h1>
      <TextSection title={t("about.missionTitle")}>
        <p className="mt-3 text-lg text-muted-foreground">{t("about.mission")}</p>
      </TextSection>
      <TextSection title={t("about.storyTitle")}>
        <p className="mt-3 text-muted-foreground">{t("about.story")}</p>
      </TextSection>
      <TextSection title={t("about.whyTitle")}>
        <BulletList
          className="mt-3"
          spacing="space-y-2"
          items={[t("about.why1"), t("about.why2"), t("about.why3"), t("about.why4")]}
        />
      </TextSection>
      <TextSection title={t("about.valuesTitle")}>
        <div className="mt-6 grid gap-6 sm:grid-cols-3">
          {values.map(({ title, text, icon: Icon }) => (
            <article key={title} className="rounded-xl border p-6">
              <Icon className="size-8 text-primary" aria-hidden />
              <h3 className="mt-3 text-lg font-semibold">{t(title)}</h3>
              <p className="mt-1 text-sm text-muted-foreground">{t(text)}</p>
            </article>
          ))}
        </div>
      </TextSection>
    </main>
  );
}
