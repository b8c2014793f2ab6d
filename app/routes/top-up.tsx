import { data, redirect } from "react-router";
import { requestContext } from "~/context.server";
import { VERIFY_EMAIL_PATH } from "~/domain/accounts/email-verification";
import { topUpActionSchema, topUpPageQuerySchema } from "~/domain/payments/top-ups.schemas";
import { loadTopUpPage, runTopUpForm } from "~/domain/payments/top-ups.server";
import { TopUpPage, type TopUpPageResult } from "~/features/dashboard/top-up-page";
import { emailVerificationRequired } from "~/http/email-verification.server";
import { inUploadTurn, parseFormWithFiles } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/top-up";

// /dashboard/top-up: a customer buys coins with a payment method (docs/payments.md): asks, pays outside
// the site with the reference, says so with the proof files attached, or cancels. Its posts may be
// uploads (multipart), with a body limit of their own (BODY_LIMIT_UPLOAD, server/request-limits.ts).
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const t = context.i18n.getFixedT(null, "payments");
  // ?coins=3.50: what an "Add coins" link said was missing (ignored unless it is an amount of coins).
  const query = topUpPageQuerySchema.parse(Object.fromEntries(url.searchParams));
  const page = await loadTopUpPage(context.services.db, user.id, context.locale, { query });
  return {
    meta: { title: t("topUps.title") },
    ...page,
    locale: context.locale,
    // Said once the payment is sent: how long approving a top-up usually takes.
    approvalHours: context.settings.general.approvalHours,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const FORM_FIELDS = ["coins", "methodId", "payerAccount", "paidOn", "proofs"];

export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  return inUploadTurn(request, () => answer(request, context, user.id));
}

/** The action's work, once it is this post's turn (an upload waits for the process's other uploads). */
async function answer(
  request: Request,
  context: ReturnType<typeof requestContext>,
  userId: string,
) {
  const form = await parseFormWithFiles(request, topUpActionSchema, "proofs");
  if (!form.ok) {
    // The form's own fields take their message; a missing request or an unknown intent is the page's.
    const fieldErrors = Object.fromEntries(
      Object.entries(form.fieldErrors).filter(([field]) => FORM_FIELDS.includes(field)),
    );
    const shown = Object.keys(fieldErrors).length > 0;
    return data(
      {
        ok: false,
        message: shown
          ? Object.values(fieldErrors)[0]!
          : form.fieldErrors.requestId
            ? "payments.errors.topUpNotFound"
            : "payments.errors.unknownAction",
        fieldErrors: shown ? fieldErrors : undefined,
        intent: form.values.intent === "payOnline" ? "request" : form.values.intent,
      } satisfies TopUpPageResult,
      { status: 400 },
    );
  }
  const { services } = context;
  // A method paid online: the checkout is made at the provider and the customer sent there to pay.
  const result = await runTopUpForm(
    services.db,
    {
      userId,
      locale: context.locale,
      action: form.data,
      proofs: form.files,
      requireVerifiedEmail: emailVerificationRequired(context),
      online: {
        origin: services.env.PUBLIC_URL ?? new URL(request.url).origin,
        customerIp: context.clientIp,
      },
    },
    { providers: services.paymentProviders, secret: services.env.AUTH_SECRET },
  );
  if (result.ok && "redirectUrl" in result) return redirect(result.redirectUrl);
  if (!result.ok)
    return data(
      {
        ok: false,
        message: result.error,
        ...("verifyEmail" in result
          ? { verifyEmailUrl: VERIFY_EMAIL_PATH }
          : {
              fieldErrors:
                "field" in result && result.field ? { [result.field]: result.error } : undefined,
              params: "params" in result ? result.params : undefined,
            }),
        // The online start is the same form as a request: its refusals show there.
        intent: form.data.intent === "payOnline" ? "request" : form.data.intent,
      } satisfies TopUpPageResult,
      { status: statusOf(result) },
    );
  return { ok: true, message: result.message, params: result.params } satisfies TopUpPageResult;
}

export default function TopUp({ loaderData, actionData }: Route.ComponentProps) {
  return <TopUpPage {...loaderData} result={actionData} />;
}
