import { CheckIcon, ClockIcon, ZapIcon } from "lucide-react";
import { useTranslation } from "~/i18n/use-translation";
import { Link } from "~/components/ui/link";
import { BidiText } from "~/components/ui/bidi-text";
import { Button } from "~/components/ui/button";
import type { Product } from "~/domain/catalogue/catalogue";
import { formatEuros } from "~/lib/money";
import { cn } from "~/lib/utils";
import { usePlanSpecs } from "~/components/ui/plan-specs";

/** Plans from the catalogue, each with its price in euros and Order Now (to the order form, plan chosen). */
export function PlanGrid({
  plans,
  locale,
  highlight,
}: {
  plans: Product[];
  locale: string;
  highlight: "recommended" | "second";
}) {
  const { t } = useTranslation("site");
  const specsOf = usePlanSpecs();
  if (plans.length === 0)
    return <p className="text-center text-muted-foreground">{t("plans.empty")}</p>;
  return (
    <div className="grid gap-6 md:grid-cols-3">
      {plans.map((plan, index) => {
        const featured = highlight === "second" ? index === 1 : plan.recommended;
        const specs = specsOf(plan.specs);
        return (
          <article
            key={plan.id}
            className={cn(
              "relative flex flex-col rounded-xl border bg-background p-6 shadow-sm",
              featured && "border-2 border-primary shadow-md",
            )}
          >
            {featured ? (
              <span className="absolute -top-3 start-1/2 -translate-x-1/2 rounded-full bg-primary px-3 py-1 text-xs font-semibold text-primary-foreground rtl:translate-x-1/2">
                {/* One word for the highlighted plan on every page: the spec's "Most Popular". */}
                {t("home.mostPopular")}
              </span>
            ) : null}
            {/* The admin's own text in the reader's language, or English where the admin left that
                language empty (ADR 19): <bdi> keeps its order inside Arabic pages. */}
            <h3 className="text-lg font-semibold wrap-anywhere">
              <bdi>{plan.name}</bdi>
            </h3>
            <p className="mt-1 text-sm wrap-anywhere text-muted-foreground">
              <bdi>{plan.description}</bdi>
            </p>
            <p className="mt-4">
              <span className="text-4xl font-extrabold" dir="ltr">
                {formatEuros(plan.priceCents, locale)}
              </span>
              <span className="text-muted-foreground">{t("plans.perMonth")}</span>
            </p>
            <ul className="mt-4 flex-1 space-y-2 text-sm">
              {[...specs, ...plan.features].map((line) => (
                <li key={line} className="flex items-start gap-2">
                  <CheckIcon className="mt-0.5 size-4 shrink-0 text-green-600" aria-hidden />
                  <bdi>
                    <BidiText text={line} />
                  </bdi>
                </li>
              ))}
            </ul>
            {/* The promise this plan keeps: started as soon as it is paid (activate_when_paid, for a
                trusted customer), or set up once an admin approves the order. */}
            <p className="mt-4 flex items-center gap-2 text-sm font-medium" data-setup-promise>
              {plan.activateWhenPaid ? (
                <>
                  <ZapIcon className="size-4 shrink-0 text-amber-600" aria-hidden />
                  {t("plans.instantSetup")}
                </>
              ) : (
                <>
                  <ClockIcon className="size-4 shrink-0 text-muted-foreground" aria-hidden />
                  {t("plans.setupAfterApproval")}
                </>
              )}
            </p>
            <Button asChild className="mt-6" variant={featured ? "default" : "outline"}>
              <Link
                to={`/order?product=${plan.id}`}
                aria-label={`${t("plans.orderNow")}: ${plan.name}`}
              >
                {t("plans.orderNow")}
              </Link>
            </Button>
          </article>
        );
      })}
    </div>
  );
}
