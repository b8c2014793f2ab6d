import { expect, it, vi } from "vitest";
import type { AppServices } from "~/context.server";
import type * as Permissions from "~/domain/staff/permissions";
import { resetTwoFactor } from "~/domain/accounts/two-factor-reset.server";
import { updateUserByAdmin } from "~/domain/accounts/user-admin.server";
import { customerWithCoins } from "../../../tests/support/money-fixtures";
import { staffMember, withTwoFactor } from "../../../tests/support/staff-members";
import { describeEachDatabase } from "../../../tests/support/test-database";

// A member of the staff's account is the way into the admin pages: resetting its second factor or
// changing its password or address, and making an account staff, need `staff.manage` besides
// `clients.edit`. Of the four roles only the Owner edits client accounts, and it manages the staff too,
// so this file lends Billing `clients.edit` alone to reach the second rule.
vi.mock("~/domain/staff/permissions", async (importOriginal) => {
  const actual = await importOriginal<typeof Permissions>();
  return {
    ...actual,
    can: (role: Parameters<typeof actual.can>[0], permission: Parameters<typeof actual.can>[1]) =>
      (role === "billing" && permission === "clients.edit") || actual.can(role, permission),
  };
});

const staffManage = {
  ok: false,
  kind: "forbidden",
  error: "admin-staff.checks.forbidden",
  permission: "staff.manage",
};

async function accountOf(app: AppServices, id: string) {
  return app.db
    .selectFrom("users")
    .select(["name", "email", "role", "two_factor_enabled"])
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
}

describeEachDatabase("a member of the staff's account needs staff.manage", (app) => {
  it("resets a customer's second factor, never a member of the staff's", async () => {
    const editor = await staffMember(app(), "billing");
    const customer = await customerWithCoins(app(), 0);
    const member = await staffMember(app(), "support");
    await withTwoFactor(app(), customer);
    await withTwoFactor(app(), member);
    const before = await accountOf(app(), member);
    expect(await resetTwoFactor(app().db, { userId: member, actorId: editor })).toEqual(
      staffManage,
    );
    expect(await accountOf(app(), member)).toEqual(before);
    expect(
      await app().db.selectFrom("two_factors").select("id").where("user_id", "=", member).execute(),
    ).toHaveLength(1);
    expect(await resetTwoFactor(app().db, { userId: customer, actorId: editor })).toMatchObject({
      ok: true,
    });
  });

  it("edits a customer, but not a member of the staff", async () => {
    const editor = await staffMember(app(), "billing");
    const customer = await customerWithCoins(app(), 0);
    const member = await staffMember(app(), "technician");
    // Who is on the staff is /admin/staff's: the edit form has no role to give.
    const edit = async (userId: string, change: { name?: string }) => {
      const row = await accountOf(app(), userId);
      return updateUserByAdmin(app().db, {
        userId,
        name: change.name ?? row.name,
        email: row.email,
        actorId: editor,
      });
    };
    const memberBefore = await accountOf(app(), member);
    expect(await edit(member, { name: "Taken over" })).toEqual(staffManage);
    expect(await accountOf(app(), member)).toEqual(memberBefore);
    expect(await edit(customer, { name: "Renamed" })).toEqual({ ok: true, changed: ["name"] });
  });
});
