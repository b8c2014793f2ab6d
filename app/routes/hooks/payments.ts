import { requestContext } from "~/context.server";
import { recordNotificationRefusal } from "~/domain/payments/notification-refusals.server";
import { receiveNotification } from "~/domain/payments/payment-notifications.server";
import { MAX_NOTIFICATION_BYTES } from "~/domain/payments/providers/provider";
import type { Route } from "./+types/payments";

// POST /hooks/payments/:provider: a payment provider's notification (docs/online-payments.md). Called by
// the provider's servers, not a browser: no session, no form; authenticated by its signature (checked
// here for YouCan Pay, by the confirming job for PayPal). The server lets it past the cross-site check
// and the maintenance page (server/same-origin.ts, server/maintenance.ts) and caps its body
// (server/request-limits.ts). Answers JSON.

const noStore = { "Cache-Control": "no-store" };

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST")
    return Response.json(
      { ok: false, outcome: "methodNotAllowed" },
      { status: 405, headers: noStore },
    );
  const { services } = requestContext(context);
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > MAX_NOTIFICATION_BYTES) {
    // Refused unread (the server in front refuses it first; this is the route's own guard), counted
    // for the admin with the size it declared.
    await recordNotificationRefusal(services.db, {
      provider: params.provider,
      reason: "tooLarge",
      bytes: declared,
    });
    return Response.json({ ok: false, outcome: "tooLarge" }, { status: 413, headers: noStore });
  }
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name.toLowerCase()] = value;
  });
  const answer = await receiveNotification(
    services.db,
    { provider: params.provider, headers, rawBody: await request.text() },
    { providers: services.paymentProviders, secret: services.env.AUTH_SECRET },
  );
  return Response.json(answer.body, { status: answer.status, headers: noStore });
}

/** A GET is not a notification. */
export function loader() {
  return Response.json(
    { ok: false, outcome: "methodNotAllowed" },
    { status: 405, headers: noStore },
  );
}
