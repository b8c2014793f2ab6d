import { servicesTabPath } from "~/domain/hosting-services/hosting-services";
import { formatCoins } from "~/lib/money";
import { cents, formatWhen, text } from "./mail-format";
import type { MailContent, MailContext } from "./mail-templates";

// The customer's message of a change of plan (docs/self-service.md): from which plan to which, what was
// charged or credited for the rest of the term, that the expiry stays, and whether the server on the
// game panel is being resized. Its invoice or credit note is added by the caller (mailContent).

/** Each way's sentence (mail namespace, written out for the catalogue test). */
const BODIES = {
  upgrade: "servicePlanChanged.bodyUpgrade",
  downgrade: "servicePlanChanged.bodyDowngrade",
} as const;

export function planChangeContent(
  params: Record<string, unknown>,
  context: MailContext,
): MailContent {
  const { t, locale } = context;
  const values = {
    service: text(params.service),
    from: text(params.fromPlan),
    to: text(params.toPlan),
    amount: formatCoins(cents(params.amountCents), locale),
    date: formatWhen(params.expiresAt, context),
  };
  const body = params.direction === "downgrade" ? BODIES.downgrade : BODIES.upgrade;
  return {
    subject: t("servicePlanChanged.subject", { service: values.service, plan: values.to }),
    heading: t("servicePlanChanged.heading"),
    paragraphs: [
      t(body, values),
      ...(params.resized === true ? [t("servicePlanChanged.resized")] : []),
      t("servicePlanChanged.renewal"),
    ],
    button: { label: t("service.button"), href: `${context.baseUrl}${servicesTabPath()}` },
    audience: "customer",
  };
}
