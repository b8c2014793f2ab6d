import { data } from "react-router";
import { clientActionSchema, userListQuerySchema } from "~/domain/accounts/user-admin.schemas";
import { deleteUserByAdmin, updateUserByAdmin } from "~/domain/accounts/user-admin.server";
import { completeAccountDeletion } from "~/domain/accounts/account-deletion.server";
import { searchUsers } from "~/domain/accounts/user-directory.server";
import { adjustCoins } from "~/domain/coins/coins.server";
import { ClientsAdmin, type ClientActionResult } from "~/features/admin-clients/clients-admin";
import type { MessageKey } from "~/i18n/use-message";
import type { FailureKind } from "~/lib/result";
import { adminAction } from "~/http/admin-route.server";
import { proofIsFresh, requireFreshProof, withProofPost } from "~/http/fresh-proof.server";
import { coinChangeNeedsProof } from "~/domain/staff/fresh-proof";
import { adminPage, queryOf, refusal } from "~/http/route-request.server";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/clients";
import { requestContext } from "~/context.server";
import { can } from "~/domain/staff/permissions";

// /admin/clients and /admin/users (same module, two route ids): user management, spec sections 5 and 6.
export async function loader({ url, context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { admin, t } = adminPage(url, context, "admin", "clients.view");
  const heading: "users" | "clients" = url.pathname.replace(/\/+$/, "").endsWith("/users")
    ? "users"
    : "clients";
  const query = queryOf(url, userListQuerySchema);
  const { users, hasMore, total, totalCapped } = await searchUsers(context.services.db, query);
  return {
    meta: { title: t(heading === "users" ? "nav.users" : "nav.clients") },
    heading,
    users,
    hasMore,
    total,
    totalCapped,
    query,
    adminId: admin.id,
    mayManageStaff: can(admin.staffRole, "staff.manage"),
    // A fresh key per row and page view: a replayed coin change is made once (ADR 10).
    coinKeys: Object.fromEntries(users.map((user) => [user.id, crypto.randomUUID()])),
    // A coin change above the threshold asks for the password or a code first while this is false.
    proofFresh: proofIsFresh(context),
    coinProofThreshold: context.settings.security.freshProofCoinThreshold,
    locale: context.locale,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

const postAction = adminAction(
  requestContext,
  { "*": "clients.edit", coins: "coins.adjust" },
  clientActionSchema,
  (form) => {
    const intent: ClientActionResult["intent"] =
      form.values.intent === "update" ||
      form.values.intent === "delete" ||
      form.values.intent === "complete-deletion"
        ? form.values.intent
        : "coins";
    const first = Object.values(form.fieldErrors)[0];
    return data(
      {
        ok: false,
        intent,
        userId: form.values.userId,
        message:
          intent === "update"
            ? "admin.users.updateFailed"
            : intent === "delete"
              ? "admin.users.deleteFailed"
              : intent === "complete-deletion"
                ? "admin.users.completeDeletionFailed"
                : (first ?? "coins.errors.amountInvalid"),
        fieldErrors: intent === "update" ? form.fieldErrors : undefined,
      },
      { status: 400 },
    );
  },
  async ({ db, admin, input, context }) => {
    /** What the action on this account said: `done` when it worked, else the refusal and why. */
    const answer = (
      result:
        { ok: true } | { ok: false; kind: FailureKind; error: MessageKey; reason?: MessageKey },
      done: MessageKey,
    ) => {
      const about = { intent: input.intent, userId: input.userId };
      if (!result.ok)
        return refusal(result, {
          ...about,
          ...("reason" in result ? { reason: result.reason } : {}),
        });
      return { ok: true, ...about, message: done } satisfies ClientActionResult;
    };
    if (input.intent === "update") {
      const result = await updateUserByAdmin(db, {
        ...input,
        actorId: admin.id,
        actorSessionId: context.session?.sessionId,
      });
      return answer(result, "admin.users.updated");
    }
    if (input.intent === "delete") {
      const result = await deleteUserByAdmin(db, { userId: input.userId, actorId: admin.id });
      return answer(result, "admin.users.deleted");
    }
    if (input.intent === "complete-deletion") {
      const result = await completeAccountDeletion(db, { userId: input.userId, actorId: admin.id });
      return answer(result, "admin.users.deletionCompleted");
    }
    // A coin change above the security settings' threshold asks for a fresh proof of identity first.
    if (coinChangeNeedsProof(input.amount, context.settings.security.freshProofCoinThreshold)) {
      const unproven = await requireFreshProof({
        context,
        refused: (refusal, typed) =>
          ({
            ok: false,
            intent: "coins",
            userId: input.userId,
            ...refusal,
            values: { amount: typed.values.amount ?? "", reason: typed.values.reason ?? "" },
          }) satisfies ClientActionResult,
      });
      if (unproven) return unproven;
    }
    const result = await adjustCoins(db, {
      userId: input.userId,
      amountCents: input.amount,
      reason: input.reason,
      actorId: admin.id,
      idempotencyKey: input.idempotencyKey,
    });
    return answer(result, "coins.admin.updated");
  },
);

/** The page's posts, read as typed first: a coin change's proof of identity, if it carries one. */
export const action = withProofPost(requestContext, postAction);

export default function AdminClients({ loaderData, actionData }: Route.ComponentProps) {
  return <ClientsAdmin {...loaderData} result={actionData} />;
}
