import { data } from "react-router";
import { safeRedirect } from "~/domain/accounts/accounts";
import { VERIFY_EMAIL_PATH } from "~/domain/accounts/email-verification";
import { orderFormSchema } from "~/domain/orders/orders.schemas";
import { prefillValues } from "~/domain/orders/order-options";
import { orderPrefillSchema, orderUrlWith } from "~/domain/orders/order-options.schemas";
import { loadOrderForm, placeOrder } from "~/domain/orders/orders.server";
import { locationName } from "~/domain/settings/settings";
import { OrderForm, type OrderFormState } from "~/features/orders/order-form";
import { emailVerificationRequired } from "~/http/email-verification.server";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { redirectWithToast, refusedForm } from "~/http/form-answers.server";
import { metaFor } from "~/lib/route-meta";
import { useRootData } from "~/root";
import type { Route } from "./+types/order";
import { requestContext } from "~/context.server";

export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "orders");
  // The plan, and the options chosen before a detour through login or registration (orderUrlWith).
  const prefill = orderPrefillSchema.parse(Object.fromEntries(url.searchParams));
  return {
    meta: { title: t("form.title") },
    // The plans in the reader's language (the order itself keeps the English name: placeOrder), and the
    // VAT the signed-in customer's order adds, so the total shown is the charge.
    ...(await loadOrderForm(context.services.db, {
      userId: context.session?.user.id ?? null,
      locale: context.locale,
      invoicing: context.settings.invoicing,
    })),
    selectedProductId: prefill.product ?? null,
    prefill: prefillValues(prefill),
    // Each location as the order stores it, named in the reader's language.
    locations: context.settings.general.locations.map((location) => ({
      value: location,
      label: locationName(context.settings.general, location, context.locale),
    })),
    registrationOpen: context.settings.features.registration,
    // One key per form: a double click, retry or reload after submit cannot order twice.
    idempotencyKey: crypto.randomUUID(),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  if (!context.session) {
    // Spec: 'Please login to continue'. Login and registration both lead back to this form with the
    // plan and the options chosen in its URL.
    const form = await request.formData().catch(() => new FormData());
    const posted = Object.fromEntries(form);
    const back = encodeURIComponent(safeRedirect(orderUrlWith(posted), "/order"));
    return data(
      {
        formError: "orders.errors.loginRequired",
        loginUrl: `/login?redirectTo=${back}`,
        registerUrl: context.settings.features.registration
          ? `/register?redirectTo=${back}`
          : undefined,
        values: prefillValues(orderPrefillSchema.parse({ ...posted, product: posted.productId })),
      } satisfies OrderFormState,
      { status: 401 },
    );
  }
  const user = requireUser(url, context);
  const form = await parseForm(request, orderFormSchema);
  if (!form.ok) {
    const onlyRequired = Object.values(form.fieldErrors).every(
      (e) => e === "orders.errors.required",
    );
    return data(
      {
        fieldErrors: form.fieldErrors,
        formError: onlyRequired ? "orders.errors.required" : undefined,
        values: form.values,
      } satisfies OrderFormState,
      { status: 400 },
    );
  }
  const result = await placeOrder(context.services.db, user.id, form.data, {
    requireVerifiedEmail: emailVerificationRequired(context),
    settings: context.settings,
  });
  if (!result.ok) {
    const { idempotencyKey: _key, shownPrices: _prices, shownVatRate: _vat, ...values } = form.data;
    const stringValues = Object.fromEntries(
      Object.entries({
        ...values,
        productId: String(values.productId),
        playerSlots: values.playerSlots === undefined ? undefined : String(values.playerSlots),
      }).map(([k, v]) => [k, v === undefined ? "" : String(v)]),
    );
    return refusedForm(
      {
        // A location or slot count not offered belongs to its field; the message also heads the form.
        fieldErrors: "field" in result ? { [result.field]: result.error } : undefined,
        formError: result.error,
        missingCents: "missingCents" in result ? result.missingCents : undefined,
        totalCents: "totalCents" in result ? result.totalCents : undefined,
        minPurchaseCents: "minPurchaseCents" in result ? result.minPurchaseCents : undefined,
        // Not verified: where to confirm the address or have the link sent again.
        verifyEmailUrl: "verifyEmail" in result ? VERIFY_EMAIL_PATH : undefined,
        values: stringValues,
      },
      result,
    );
  }
  // Approved by the system as it was placed (its plan activates when paid): its service is on the
  // services tab, being set up. Otherwise the order waits, and the billing tab says why.
  if (result.order.status === "approved")
    throw redirectWithToast("/dashboard/services", "toast.orderApprovedAutomatically");
  throw redirectWithToast("/dashboard/billing", "toast.orderSubmitted");
}

export default function Order({ loaderData, actionData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <OrderForm
      {...loaderData}
      user={root?.user ?? null}
      settings={root?.settings}
      locale={root?.locale ?? "en"}
      state={actionData}
    />
  );
}
