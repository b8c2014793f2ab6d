import { Link } from "~/components/ui/link";
import { TOP_UP_PAGE } from "~/components/layout/coin-dialog";
import { paymentGuidePath } from "~/domain/knowledgebase/knowledgebase";
import { useTranslation } from "~/i18n/use-translation";
import { PUBLIC_PAGE } from "~/lib/hydration";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/orange-money";
import { requestContext } from "~/context.server";

export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "site");
  return { meta: { title: t("orange.metaTitle"), description: t("orange.subtitle") } };
}

export const handle = PUBLIC_PAGE;

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

// The real flow (docs/payments.md): a top-up request from "Add coins", paid with its reference,
// its proof attached to it, then an admin's approval.
const steps = [
  "orange.step1",
  "orange.step2",
  "orange.step3",
  "orange.step4",
  "orange.step5",
  "orange.step6",
] as const;

export default function OrangeMoney() {
  const { t } = useTranslation("site");
  const { t: tKb } = useTranslation("knowledgebase");
  return (
    <main className="mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-extrabold">{t("orange.title")}</h1>
      <p className="mt-3 text-muted-foreground">{t("orange.subtitle")}</p>
      <ol className="mt-8 grid gap-4">
        {steps.map((step, index) => (
          <li key={step} className="flex gap-4 rounded-xl border p-4">
            <span
              className="flex size-8 shrink-0 items-center justify-center rounded-full bg-accent font-bold text-accent-foreground"
              aria-hidden
            >
              {index + 1}
            </span>
            <span>
              {t(step)}
              {index === 0 ? (
                <>
                  {" "}
                  <Link
                    to={TOP_UP_PAGE}
                    className="font-medium text-primary underline underline-offset-4"
                  >
                    {t("orange.addCoins")}
                  </Link>
                </>
              ) : null}
            </span>
          </li>
        ))}
      </ol>
      <p className="mt-6 font-medium">{t("orange.activation")}</p>
      {/* The knowledge base's article on paying with Orange Money (docs/knowledgebase.md). */}
      <p className="mt-4">
        <Link
          to={paymentGuidePath("orange-money") ?? "/knowledgebase"}
          className="font-medium text-primary underline underline-offset-4"
        >
          {tKb("topUp.guide")}
        </Link>
      </p>
    </main>
  );
}
