import { data } from "react-router";
import { SECURITY_INTENTS, type SecurityIntent } from "~/domain/accounts/security-admin";
import {
  securityActionSchema,
  securityQuerySchema,
} from "~/domain/accounts/security-admin.schemas";
import { liftLoginBlock } from "~/domain/accounts/login-blocks.server";
import { revokeOtherOwnSessions, revokeOwnSession } from "~/domain/accounts/own-sessions.server";
import { loadSecurityPage } from "~/domain/accounts/security-admin.server";
import { SecurityPage } from "~/features/admin-security/security-page";
import type { SecurityActionResult } from "~/features/admin-security/security-shared";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/security";
import { requestContext } from "~/context.server";

// The acting admin's own sessions, the failed logins and the addresses and emails the login rule throttles.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.security",
  permission: "settings.manage",
  query: securityQuerySchema,
  load: async ({ db, admin, query, context }) => {
    const addressLimit = context.services.loginIpLimit;
    const page = await loadSecurityPage(db, {
      userId: admin.id,
      currentSessionId: context.session?.sessionId,
      query,
      addressLimit,
    });
    return { ...page, addressLimit };
  },
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

function intentOf(value: unknown): SecurityIntent | undefined {
  return (SECURITY_INTENTS as readonly unknown[]).includes(value)
    ? (value as SecurityIntent)
    : undefined;
}

export const action = adminAction(
  requestContext,
  "settings.manage",
  securityActionSchema,
  (form) => {
    const intent = intentOf(form.values.intent);
    return data(
      {
        ok: false,
        intent,
        message: intent
          ? (Object.values(form.fieldErrors)[0] ?? "admin-security.errors.unknownAction")
          : "admin-security.errors.unknownAction",
      },
      { status: 400 },
    );
  },
  async ({ db, admin, input, context }) => {
    const currentSessionId = context.session?.sessionId;

    if (input.intent === "lift-block") {
      const result = await liftLoginBlock(db, {
        actorId: admin.id,
        kind: input.kind,
        key: input.key,
        addressLimit: context.services.loginIpLimit,
      });
      if (!result.ok) return refusal(result, { intent: input.intent });
      return result.kind === "pair"
        ? ({
            ok: true,
            intent: input.intent,
            message: "admin-security.throttles.liftDonePair",
            key: result.email ?? "",
            address: result.address ?? "",
          } satisfies SecurityActionResult)
        : ({
            ok: true,
            intent: input.intent,
            message: "admin-security.throttles.liftDone",
            key: result.key,
          } satisfies SecurityActionResult);
    }

    const result =
      input.intent === "revoke-session"
        ? await revokeOwnSession(db, {
            actorId: admin.id,
            currentSessionId,
            sessionId: input.sessionId,
          })
        : await revokeOtherOwnSessions(db, { actorId: admin.id, currentSessionId });
    if (!result.ok) return refusal(result, { intent: input.intent });
    return {
      ok: true,
      intent: input.intent,
      message: "admin-security.sessions.ended",
      count: result.ended,
    } satisfies SecurityActionResult;
  },
);

export default function AdminSecurity({ loaderData, actionData }: Route.ComponentProps) {
  return <SecurityPage {...loaderData} result={actionData} />;
}
