import { data } from "react-router";
import type { RequestContext } from "~/context.server";
import type { TwoFactorActionInput } from "~/domain/accounts/two-factor.schemas";
import { twoFactorAccountAction } from "~/domain/accounts/two-factor.server";
import type { ParsedForm } from "./form.server";
import { statusOf } from "./result-status";
import { unparsedForm } from "./route-request.server";
import { headersWithCookies } from "./toast.server";

/**
 * A post of the two-factor card (two-factor-card.tsx), wherever the card is: the customer dashboard's
 * account tab or an admin's own page. Read by the route with the card's schema (twoFactorActionSchema),
 * handed to its use-case, answered as the card reads it (`form: "two-factor"`, the form's `intent`, its message and fields, new backup codes);
 * turning it on or off signs the session in again, whose new cookie goes with the answer.
 */
export async function twoFactorFormAction(
  request: Request,
  context: RequestContext,
  post: { userId: string; form: ParsedForm<TwoFactorActionInput> },
) {
  const { userId, form } = post;
  if (!form.ok)
    return unparsedForm(
      // The form it came from, as posted, whose fields the errors are of.
      { form: "two-factor" as const, intent: form.values.intent ?? "" },
      Object.values(form.fieldErrors)[0] ?? "dashboard.twoFactor.errors.unknownForm",
      { fieldErrors: form.fieldErrors },
    );
  const result = await twoFactorAccountAction(
    context.services,
    form.data,
    { userId, cookie: request.headers.get("cookie") ?? "", ip: context.clientIp },
    { ipPerMinute: context.services.loginIpLimit },
  );
  if (!result.ok)
    return data(
      {
        ok: false as const,
        form: "two-factor" as const,
        intent: form.data.intent,
        message: result.error,
        fieldErrors:
          "field" in result && result.field ? { [result.field]: result.error } : undefined,
        ...("minutes" in result && result.minutes !== undefined ? { minutes: result.minutes } : {}),
      },
      { status: statusOf(result) },
    );
  return data(
    {
      ok: true as const,
      form: "two-factor" as const,
      intent: form.data.intent,
      message: result.message,
      backupCodes: result.backupCodes,
    },
    { headers: headersWithCookies(result.setCookies) },
  );
}
