import { data } from "react-router";
import { STAFF_INTENTS, type StaffIntent } from "~/domain/staff/staff";
import { staffActionSchema } from "~/domain/staff/staff.schemas";
import {
  addStaffMember,
  changeStaffRole,
  listStaff,
  removeStaffMember,
} from "~/domain/staff/staff.server";
import { StaffPage } from "~/features/admin-staff/staff-page";
import type { StaffActionResult } from "~/features/admin-staff/staff-shared";
import { adminAction, adminLoader } from "~/http/admin-route.server";
import { refusal } from "~/http/route-request.server";
import { proofIsFresh, requireFreshProof, withProofPost } from "~/http/fresh-proof.server";
import type { MessageKey } from "~/i18n/use-message";
import { metaFor } from "~/lib/route-meta";
import type { Route } from "./+types/staff";
import { requestContext } from "~/context.server";

// The staff and their roles (docs/staff.md, ADR 57): the page and each of its forms need `staff.manage`,
// and the use-cases check it again from the database.
export const loader = adminLoader(requestContext, {
  title: "admin.nav.staff",
  permission: "staff.manage",
  load: async ({ db, admin, context }) => ({
    members: await listStaff(db),
    adminId: admin.id,
    actorRole: admin.staffRole,
    proofFresh: proofIsFresh(context),
  }),
});

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

function intentOf(value: unknown): StaffIntent | undefined {
  return (STAFF_INTENTS as readonly unknown[]).includes(value) ? (value as StaffIntent) : undefined;
}

/** What each change says once made (admin-staff namespace, with the member's name). */
const DONE = {
  add: "admin-staff.members.added",
  role: "admin-staff.members.changed",
  remove: "admin-staff.members.removed",
} as const satisfies Record<StaffIntent, MessageKey>;

const postAction = adminAction(
  requestContext,
  "staff.manage",
  staffActionSchema,
  (form) => {
    const intent = intentOf(form.values.intent);
    const first = Object.values(form.fieldErrors)[0];
    return data(
      {
        ok: false,
        intent,
        userId: typeof form.values.userId === "string" ? form.values.userId : undefined,
        message: intent
          ? (first ?? "admin-staff.members.errors.unknownAction")
          : "admin-staff.members.errors.unknownAction",
        fieldErrors: intent === "add" ? form.fieldErrors : undefined,
        values:
          intent === "add"
            ? { email: String(form.values.email ?? ""), role: String(form.values.role ?? "") }
            : undefined,
      } satisfies StaffActionResult,
      { status: 400 },
    );
  },
  async ({ db, admin, input, context }) => {
    // A fresh proof (the password or a two-factor code typed again when the session's last proof is
    // 15 minutes old, ADR 57) before any of the three changes; a refusal keeps what was typed.
    const unproven = await requireFreshProof({
      context,
      refused: (refusal) =>
        ({
          ok: false,
          intent: input.intent,
          userId: "userId" in input ? input.userId : undefined,
          ...refusal,
          values: input.intent === "add" ? { email: input.email, role: input.role } : undefined,
        }) satisfies StaffActionResult,
    });
    if (unproven) return unproven;
    const result =
      input.intent === "add"
        ? await addStaffMember(db, { actorId: admin.id, email: input.email, role: input.role })
        : input.intent === "role"
          ? await changeStaffRole(db, { actorId: admin.id, userId: input.userId, role: input.role })
          : await removeStaffMember(db, { actorId: admin.id, userId: input.userId });
    const about = { intent: input.intent, userId: "userId" in input ? input.userId : undefined };
    if (!result.ok)
      return refusal(result, {
        ...about,
        ...(input.intent === "add" ? { values: { email: input.email, role: input.role } } : {}),
      });
    return {
      ok: true,
      intent: input.intent,
      userId: result.userId,
      name: result.name,
      message: DONE[input.intent],
    } satisfies StaffActionResult;
  },
);

/** The page's posts, read as typed first: each change may carry a proof of identity. */
export const action = withProofPost(requestContext, postAction);

export default function AdminStaff({ loaderData, actionData }: Route.ComponentProps) {
  return <StaffPage {...loaderData} result={actionData} />;
}
