import { ListPage } from "~/components/data-table/list-page";
import { byId } from "~/components/data-table/data-table";
import { PageHeading } from "~/components/ui/page-heading";
import { ResultMessage } from "~/components/ui/result-message";
import { STAFF_ROLES, type StaffRole } from "~/domain/staff/permissions";
import { assignableRoles } from "~/domain/staff/staff";
import { useTranslation } from "~/i18n/use-translation";
import { useStaffColumns } from "./staff-columns";
import { AddMemberDialog } from "./staff-dialogs";
import type { StaffActionResult, StaffMember } from "./staff-shared";

/**
 * /admin/staff (docs/staff.md): the members of the staff with their roles, and the Owner's three
 * changes: add an account by its email, change a member's role, remove a member. The role selects offer
 * Owner only to an Owner. On a phone each member is a card, its buttons first.
 */
export function StaffPage({
  members,
  adminId,
  actorRole,
  locale,
  proofFresh,
  result,
}: {
  members: StaffMember[];
  adminId: string;
  actorRole: StaffRole | null;
  locale: string;
  /** The session's last proof of identity is under 15 minutes old: the changes ask nothing more. */
  proofFresh: boolean;
  result?: StaffActionResult;
}) {
  const { t } = useTranslation("admin");
  const { t: tStaff } = useTranslation("admin-staff");
  const roles = assignableRoles(actorRole, STAFF_ROLES);
  const columns = useStaffColumns({
    adminId,
    actorRole,
    roles,
    locale,
    proofNeeded: !proofFresh,
    result,
  });
  return (
    <ListPage
      header={
        <PageHeading
          title={t("nav.staff")}
          intro={tStaff("members.intro")}
          action={<AddMemberDialog roles={roles} proofNeeded={!proofFresh} result={result} />}
        >
          <p className="text-sm text-muted-foreground">
            {tStaff("members.count", { count: members.length })}
          </p>
        </PageHeading>
      }
      table={{ caption: t("nav.staff"), columns, rows: members, rowKey: byId }}
      empty={tStaff("members.empty")}
    >
      {result ? <ResultMessage result={result} values={{ name: result.name ?? "" }} /> : null}
    </ListPage>
  );
}
