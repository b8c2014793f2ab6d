import type { Column } from "~/components/data-table/data-table";
import { actionsColumn, badgeColumn, column } from "~/components/data-table/column-presets";
import { Moment } from "~/components/ui/moment";
import { LOGIN_KNOWN_ADDRESS_DAYS } from "~/domain/accounts/accounts";
import { mayAssignRole, STAFF_ROLE_LABELS, type StaffRole } from "~/domain/staff/permissions";
import { useTranslation } from "~/i18n/use-translation";
import { mediumDateTime } from "~/lib/intl-format";
import { ChangeRoleDialog, RemoveMemberDialog } from "./staff-dialogs";
import type { StaffActionResult, StaffMember } from "./staff-shared";

/** Each role's badge colour: the Owners stand out, the others read alike. */
const ROLE_TONES = {
  owner: "blue",
  billing: "green",
  support: "yellow",
  technician: "grey",
} as const satisfies Record<StaffRole, string>;

/**
 * The staff table's columns: who (the acting member marked), their role as a badge, two-factor sign-in,
 * the last sign-in, and what the acting member may do to them: change their role to one `roles` holds,
 * or remove them. Nobody is offered a change of their own role, nor one of an Owner's unless they are
 * one (the use-cases refuse both whatever is posted).
 */
export function useStaffColumns({
  adminId,
  actorRole,
  roles,
  locale,
  proofNeeded,
  result,
}: {
  adminId: string;
  actorRole: StaffRole | null;
  roles: readonly StaffRole[];
  locale: string;
  /** The session's proof of identity is stale: each change asks for it again. */
  proofNeeded: boolean;
  result?: StaffActionResult;
}): Column<StaffMember>[] {
  const { t } = useTranslation("admin-staff");
  const when = mediumDateTime(locale);
  return [
    column(
      "member",
      t("members.columns.member"),
      (member) => (
        <>
          <p className="font-semibold">
            {member.name}
            {member.id === adminId ? (
              <span className="ms-2 text-xs font-normal text-muted-foreground">
                ({t("members.you")})
              </span>
            ) : null}
          </p>
          <p className="text-muted-foreground" dir="ltr">
            {member.email}
          </p>
        </>
      ),
      { wide: true },
    ),
    badgeColumn(
      "role",
      t("members.columns.role"),
      (member) =>
        member.staffRole
          ? { tone: ROLE_TONES[member.staffRole], text: t(STAFF_ROLE_LABELS[member.staffRole]) }
          : { tone: "red", text: t("members.noRole") },
      { label: true },
    ),
    badgeColumn(
      "two-factor",
      t("members.columns.twoFactor"),
      (member) =>
        member.twoFactorEnabled
          ? { tone: "green", text: t("members.twoFactorOn") }
          : { tone: "yellow", text: t("members.twoFactorOff") },
      { label: true },
    ),
    column("last-sign-in", t("members.columns.lastSignIn"), (member) =>
      member.lastSignInAt ? (
        <Moment at={member.lastSignInAt} format={when} />
      ) : (
        <span className="text-muted-foreground">
          {t("members.noSignIn", { days: LOGIN_KNOWN_ADDRESS_DAYS })}
        </span>
      ),
    ),
    actionsColumn(
      t("members.columns.actions"),
      (member) => {
        if (member.id === adminId)
          return <p className="text-sm text-muted-foreground">{t("members.ownRow")}</p>;
        const changeable = mayAssignRole(actorRole, member.staffRole, null);
        if (!changeable) return null;
        return (
          <div className="flex flex-wrap gap-2 md:flex-nowrap">
            <ChangeRoleDialog
              member={member}
              roles={roles}
              proofNeeded={proofNeeded}
              result={result}
            />
            <RemoveMemberDialog member={member} proofNeeded={proofNeeded} result={result} />
          </div>
        );
      },
      { wide: true },
    ),
  ];
}
