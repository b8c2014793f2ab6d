import { BulletList, TextSection } from "~/components/ui/text-section";
import { useTranslation } from "~/i18n/use-translation";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/service-terms";
import { requestContext } from "~/context.server";
import { sitePageMeta } from "~/http/site-page.server";

export function loader({ context }: Route.LoaderArgs) {
  // Built from the page's own translated headings: "Accepted payment methods: cashPlus, …. 14-day …".
  return sitePageMeta(requestContext(context), "terms.metaTitle", (t) => {
    const methods = t("terms.paymentMethods", { returnObjects: true }) as unknown as string[];
    return `${t("terms.paymentTitle")}: ${methods.join(", ")}. ${t("terms.refundTitle")}.`;
  });
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function ServiceTerms() {
  const { t } = useTranslation("site");
  const list = (key: "terms.paymentMethods" | "terms.nonRefundable") =>
    t(key, { returnObjects: true }) as unknown as string[];
  return (
    <main className="mx-auto grid max-w-3xl gap-10 px-4 py-16">
      <h1 className="text-4xl font-extrabold">{t("terms.title")}</h1>
      <TextSection title={t("terms.paymentTitle")}>
        <BulletList className="mt-3" items={list("terms.paymentMethods")} />
      </TextSection>
      <TextSection title={t("terms.cyclesTitle")}>
        <BulletList
          className="mt-3"
          items={[
            t("terms.monthly"),
            t("terms.quarterly"),
            t("terms.semiannual"),
            t("terms.annual"),
          ]}
        />
      </TextSection>
      <TextSection title={t("terms.taxesTitle")}>
        <p className="mt-3">{t("terms.taxes")}</p>
      </TextSection>
      <TextSection title={t("terms.refundTitle")}>
        <p className="mt-3">{t("terms.refund")}</p>
        <p className="mt-2">{t("terms.refundLater")}</p>
        <p className="mt-2">{t("terms.refundDelay")}</p>
        <h3 className="mt-4 font-semibold">{t("terms.nonRefundableTitle")}</h3>
        <BulletList className="mt-2" items={list("terms.nonRefundable")} />
      </TextSection>
    </main>
  );
}
