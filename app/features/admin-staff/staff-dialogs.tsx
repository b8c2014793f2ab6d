import { PlusIcon, UserCogIcon } from "lucide-react";
import { useState } from "react";
import { Form } from "react-router";
import { FreshProofField } from "~/components/ui/fresh-proof-field";
import { Button } from "~/components/ui/button";
import { ConfirmDialog } from "~/components/ui/confirm-dialog";
import { DialogFormButtons, DialogShell } from "~/components/ui/dialog";
import { FormFields, type FieldSpec } from "~/components/ui/form-card";
import { ResultMessage } from "~/components/ui/result-message";
import { useBusy } from "~/components/ui/use-busy";
import { MAX_EMAIL_LENGTH } from "~/domain/accounts/accounts";
import { STAFF_ROLE_LABELS, type StaffRole } from "~/domain/staff/permissions";
import type { StaffIntent } from "~/domain/staff/staff";
import { useTranslation } from "~/i18n/use-translation";
import type { StaffActionResult, StaffMember } from "./staff-shared";

/**
 * A dialog whose form posts to the page's action about one member (or none: the add form): it closes
 * when its action succeeds (the page then says what was done) and shows a refusal inside while it stays
 * open. A result from before it was opened, or about another member, is not shown in it.
 */
function useStaffDialog(
  result: StaffActionResult | undefined,
  intent: StaffIntent,
  userId?: string,
) {
  const [open, setOpen] = useState(false);
  const [handled, setHandled] = useState(result);
  const [dismissed, setDismissed] = useState(result);
  const mine = result?.intent === intent && (userId === undefined || result.userId === userId);
  if (result !== handled) {
    setHandled(result);
    if (result?.ok && mine) setOpen(false);
  }
  const refusal = result && !result.ok && mine && result !== dismissed ? result : undefined;
  const onOpenChange = (next: boolean) => {
    setDismissed(result);
    setOpen(next);
  };
  return { open, onOpenChange, refusal };
}

/** The role select of a form: the roles the acting member may hand out, and what an Owner may do. */
function roleField(
  roles: readonly StaffRole[],
  labels: { role: string; ownerHint: string },
  roleName: (role: StaffRole) => string,
  defaultValue?: StaffRole | null,
): FieldSpec {
  return {
    kind: "select",
    name: "role",
    label: labels.role,
    variant: "validated",
    ...(defaultValue ? { defaultValue } : {}),
    options: roles.map((role) => ({ value: role, label: roleName(role) })),
    ...(roles.includes("owner") ? { hint: labels.ownerHint } : {}),
  };
}

/** "Add a member": an existing account's email and the role it gets. */
export function AddMemberDialog({
  roles,
  proofNeeded,
  result,
}: {
  /** The roles the acting member may give (Owner only to an Owner). */
  roles: readonly StaffRole[];
  /** The session's proof of identity is stale: the form asks for the password or a code again. */
  proofNeeded: boolean;
  result?: StaffActionResult;
}) {
  const { t } = useTranslation("admin-staff");
  const busy = useBusy();
  const { open, onOpenChange, refusal } = useStaffDialog(result, "add");
  const typed = refusal?.values ?? {};
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button>
          <PlusIcon aria-hidden />
          {t("members.add")}
        </Button>
      }
      closeLabel={t("members.close")}
      title={t("members.addTitle")}
      description={t("members.addText")}
    >
      {refusal && !refusal.fieldErrors ? <ResultMessage result={refusal} /> : null}
      <Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value="add" />
        <FormFields
          idPrefix="staff-add"
          errors={refusal?.fieldErrors}
          values={typed}
          fields={[
            {
              kind: "input",
              name: "email",
              label: t("members.email"),
              type: "email",
              dir: "ltr",
              required: true,
              maxLength: MAX_EMAIL_LENGTH,
              autoComplete: "off",
            },
            roleField(
              roles,
              { role: t("members.role"), ownerHint: t("members.ownerHint") },
              (role) => t(STAFF_ROLE_LABELS[role]),
              (typed.role as StaffRole | undefined) ?? roles.at(-1),
            ),
          ]}
        />
        <FreshProofField id="staff-add-proof" needed={proofNeeded} result={refusal} />
        <div className="flex flex-wrap justify-end gap-2">
          <DialogFormButtons
            cancel={t("members.cancel")}
            submit={t("members.addSubmit")}
            busy={busy}
          />
        </div>
      </Form>
    </DialogShell>
  );
}

/** "Change role": another role for one member. */
export function ChangeRoleDialog({
  member,
  roles,
  proofNeeded,
  result,
}: {
  member: StaffMember;
  roles: readonly StaffRole[];
  proofNeeded: boolean;
  result?: StaffActionResult;
}) {
  const { t } = useTranslation("admin-staff");
  const busy = useBusy();
  const { open, onOpenChange, refusal } = useStaffDialog(result, "role", member.id);
  return (
    <DialogShell
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button
          variant="outline"
          size="sm"
          aria-label={t("members.changeRoleButton", { name: member.name })}
        >
          <UserCogIcon aria-hidden />
          {t("members.changeRole")}
        </Button>
      }
      closeLabel={t("members.close")}
      title={t("members.changeRoleFor", { name: member.name })}
      description={t("members.changeRoleText", { name: member.name })}
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
      <Form method="post" className="grid gap-4" noValidate>
        <input type="hidden" name="intent" value="role" />
        <input type="hidden" name="userId" value={member.id} />
        <FormFields
          idPrefix={`staff-role-${member.id}`}
          errors={refusal?.fieldErrors}
          fields={[
            roleField(
              roles,
              { role: t("members.role"), ownerHint: t("members.ownerHint") },
              (role) => t(STAFF_ROLE_LABELS[role]),
              member.staffRole,
            ),
          ]}
        />
        <FreshProofField
          id={`staff-role-${member.id}-proof`}
          needed={proofNeeded}
          result={refusal}
        />
        <div className="flex flex-wrap justify-end gap-2">
          <DialogFormButtons
            cancel={t("members.cancel")}
            submit={t("members.changeSubmit")}
            busy={busy}
          />
        </div>
      </Form>
    </DialogShell>
  );
}

/** "Remove": the member becomes a customer again, after a confirmation. */
export function RemoveMemberDialog({
  member,
  proofNeeded,
  result,
}: {
  member: StaffMember;
  proofNeeded: boolean;
  result?: StaffActionResult;
}) {
  const { t } = useTranslation("admin-staff");
  const { open, onOpenChange, refusal } = useStaffDialog(result, "remove", member.id);
  return (
    <ConfirmDialog
      fields={{ intent: "remove", userId: member.id }}
      labels={{
        trigger: t("members.remove"),
        triggerFor: t("members.removeFor", { name: member.name }),
        title: t("members.removeTitle", { name: member.name }),
        text: t("members.removeText", { email: member.email }),
        confirm: t("members.removeConfirm"),
        cancel: t("members.cancel"),
        close: t("members.close"),
      }}
      state={{ open, onOpenChange }}
      inForm={
        <FreshProofField
          id={`staff-remove-${member.id}-proof`}
          needed={proofNeeded}
          result={refusal}
        />
      }
    >
      {refusal ? <ResultMessage result={refusal} /> : null}
    </ConfirmDialog>
  );
}
