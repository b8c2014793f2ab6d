import { data, redirect } from "react-router";
import { requestContext } from "~/context.server";
import { readOnlinePayment, returnFromProvider } from "~/domain/payments/online-checkout.server";
import { paymentIdSchema, paymentReturnQuerySchema } from "~/domain/payments/top-ups.schemas";
import { OnlinePaymentPage } from "~/features/dashboard/online-payment-page";
import { requireUser } from "~/http/guards.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/top-up-payment";

// /dashboard/top-up/payments/:id (docs/online-payments.md): where a provider sends the customer back,
// paid or not. Arriving from the provider (its markers in the query) asks the worker to confirm the
// payment, then comes back here without them; the page itself only reads, never calls the provider.
// Another customer's payment, and an id that is none, get the 404 page.
export async function loader({ url, params, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const id = paymentIdSchema.safeParse(params.id);
  if (!id.success) throw data(null, { status: 404 });
  const query = paymentReturnQuerySchema.parse(Object.fromEntries(url.searchParams));
  const db = context.services.db;
  if (query.fromProvider) {
    const back = await returnFromProvider(db, {
      userId: user.id,
      paymentId: id.data,
      back: query.back,
    });
    if (!back.ok) throw data(null, { status: 404 });
    throw redirect(back.location);
  }
  const read = await readOnlinePayment(db, {
    userId: user.id,
    paymentId: id.data,
    locale: context.locale,
  });
  if (!read.ok) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "payments");
  return {
    meta: { title: t("paymentReturn.title") },
    payment: { ...read.payment, leftCheckout: query.left },
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function TopUpPayment({ loaderData }: Route.ComponentProps) {
  return <OnlinePaymentPage payment={loaderData.payment} locale={loaderData.locale} />;
}
