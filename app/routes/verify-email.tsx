import { data, redirect } from "react-router";
import {
  confirmEmailVerification,
  resendEmailVerification,
} from "~/domain/accounts/email-verification.server";
import {
  verifyEmailActionSchema,
  verifyEmailTokenSchema,
} from "~/domain/accounts/email-verification.schemas";
import type { VerifyEmailOutcome } from "~/domain/accounts/email-verification";
import { VerifyEmailView, type ResendResult } from "~/features/auth/verify-email-view";
import { parseForm } from "~/http/form.server";
import { requireUser } from "~/http/guards.server";
import { statusOf } from "~/http/result-status";
import { flashToast, headersWithCookies } from "~/http/toast.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/verify-email";
import { requestContext } from "~/context.server";

/** The answer's status for each outcome of a link: a used or bad link is the request's fault. */
const OUTCOME_STATUS = {
  verified: 200,
  alreadyVerified: 200,
  changed: 200,
  expired: 400,
  invalid: 400,
  emailTaken: 409,
} as const satisfies Record<VerifyEmailOutcome, number>;

// The link of a verification message (docs/accounts.md): followed, it verifies the address (or makes an
// email change) here, in the loader, since a link in a message can only be a GET. Without a token it is
// the signed-in account's address and "send the message again".
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const t = context.i18n.getFixedT(null, "auth");
  const meta = { title: t("verify.title") };
  const session = context.session;
  const token = url.searchParams.get("token");
  if (token !== null) {
    const parsed = verifyEmailTokenSchema.safeParse(token);
    const result = parsed.success
      ? await confirmEmailVerification(context.services, {
          token: parsed.data,
          session: session ? { userId: session.user.id, sessionId: session.sessionId } : null,
        })
      : { outcome: "invalid" as const, email: undefined, returnTo: undefined };
    // A link with a way back (an order being configured) leads there: at once when signed in, with
    // the news in a toast; else through signing in (the view's button).
    if (session && result.returnTo && result.outcome !== "changed")
      throw redirect(result.returnTo, {
        headers: headersWithCookies([flashToast({ key: "toast.emailVerified", type: "success" })]),
      });
    return data(
      {
        meta,
        outcome: result.outcome,
        email: result.email ?? null,
        signedIn: Boolean(session),
        status: null,
        returnTo: result.returnTo ?? null,
      },
      { status: OUTCOME_STATUS[result.outcome] },
    );
  }
  const user = requireUser(url, context);
  return data({
    meta,
    outcome: null,
    email: null,
    signedIn: true,
    returnTo: null,
    status: {
      verified: user.emailVerified,
      email: user.email,
      mailConfigured: context.services.mailEnabled,
    },
  });
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

/** "Send the message again", for the signed-in account (limited: resendEmailVerification). */
export async function action({ request, url, context: routerContext }: Route.ActionArgs) {
  const context = requestContext(routerContext);
  const user = requireUser(url, context);
  const form = await parseForm(request, verifyEmailActionSchema);
  if (!form.ok)
    return data({ ok: false, message: "auth.verify.required" } satisfies ResendResult, {
      status: 400,
    });
  const result = await resendEmailVerification(context.services, {
    userId: user.id,
    ip: context.clientIp,
  });
  if (!result.ok)
    return data(
      {
        ok: false,
        message: result.error,
        count: "seconds" in result ? result.seconds : undefined,
      } satisfies ResendResult,
      { status: statusOf(result) },
    );
  return { ok: true, email: result.email } satisfies ResendResult;
}

export default function VerifyEmail({ loaderData, actionData }: Route.ComponentProps) {
  return <VerifyEmailView {...loaderData} result={actionData} />;
}
