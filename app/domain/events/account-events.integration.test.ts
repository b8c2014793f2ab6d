import { expect, it } from "vitest";
import { inTransaction } from "~/db/transaction";
import { adminId, customerWithCoins } from "../../../tests/support/money-fixtures";
import { readRows } from "../../../tests/support/read-column";
import { describeEachDatabase } from "../../../tests/support/test-database";
import type { AccountEvent } from "./account-events.server";
import { record } from "./events.server";

const T0 = new Date("2026-11-28T09:00:00.000Z");

/** An audit row as a test compares it: who, what, on what, the record before and after, the reason. */
interface Audited {
  actorId: string | null;
  action: string;
  targetType: string;
  before: unknown;
  after: unknown;
  reason: string;
}

/** One event of the accounts, made for a customer and an admin, and what its reactions must write. */
interface Case {
  name: AccountEvent["type"] | `${AccountEvent["type"]} (${string})`;
  event: (who: { user: string; admin: string }) => AccountEvent;
  /** Whose audit rows and mail are read: the customer by default. */
  subject?: (who: { user: string; admin: string }) => string;
  audit: (who: { user: string; admin: string }) => Audited[];
  mail: string[];
}

const own = (user: string, action: string, before: unknown, after: unknown, reason = "") => ({
  actorId: user,
  action,
  targetType: "user",
  before,
  after,
  reason,
});

const CASES: Case[] = [
  {
    name: "account.signedIn (an admin)",
    event: ({ admin }) => ({
      type: "account.signedIn",
      userId: admin,
      role: "admin",
      attemptId: 4242,
      at: T0.toISOString(),
      ip: "192.0.2.8",
      userAgent: "Firefox",
    }),
    subject: ({ admin }) => admin,
    audit: () => [],
    mail: ["adminSignIn"],
  },
  {
    name: "account.signedIn (a customer)",
    event: ({ user }) => ({
      type: "account.signedIn",
      userId: user,
      role: "user",
      attemptId: 4243,
      at: T0.toISOString(),
      ip: "192.0.2.8",
      userAgent: null,
    }),
    audit: () => [],
    mail: [],
  },
  {
    name: "account.verificationRequested",
    event: ({ user }) => ({
      type: "account.verificationRequested",
      userId: user,
      token: "verify-token",
      sendKey: "send-1",
    }),
    audit: () => [],
    mail: ["emailVerification"],
  },
  {
    name: "account.emailChangeRequested",
    event: ({ user }) => ({
      type: "account.emailChangeRequested",
      userId: user,
      previousEmail: "old@example.com",
      newEmail: "new@example.com",
      token: "change-token",
      sendKey: "send-2",
    }),
    audit: ({ user }) => [
      own(
        user,
        "account.email_change_requested",
        { email: "old@example.com" },
        { pendingEmail: "new@example.com" },
      ),
    ],
    mail: ["emailVerification"],
  },
  {
    name: "account.emailChanged (by its link)",
    event: ({ user }) => ({
      type: "account.emailChanged",
      userId: user,
      oldEmail: "old@example.com",
      newEmail: "new@example.com",
      otherSessionsEnded: 2,
      linkToken: "change-token",
    }),
    audit: ({ user }) => [
      own(
        user,
        "account.email_change",
        { email: "old@example.com" },
        {
          email: "new@example.com",
          otherSessionsEnded: 2,
          confirmedByLink: true,
          oldAddressTold: true,
        },
      ),
    ],
    mail: ["emailChanged"],
  },
  {
    name: "account.emailChanged (at once, without mail)",
    event: ({ user }) => ({
      type: "account.emailChanged",
      userId: user,
      oldEmail: "old@example.com",
      newEmail: "new@example.com",
      otherSessionsEnded: 1,
      linkToken: null,
    }),
    audit: ({ user }) => [
      own(
        user,
        "account.email_change",
        { email: "old@example.com" },
        { email: "new@example.com", otherSessionsEnded: 1, oldAddressTold: false },
      ),
    ],
    mail: [],
  },
  {
    name: "account.passwordResetRequested",
    event: ({ user }) => ({
      type: "account.passwordResetRequested",
      userId: user,
      token: "reset-token",
    }),
    audit: () => [],
    mail: ["passwordReset"],
  },
  {
    name: "account.passwordReset",
    event: ({ user }) => ({
      type: "account.passwordReset",
      userId: user,
      token: "reset-token",
      ip: "192.0.2.9",
      at: T0.toISOString(),
    }),
    audit: ({ user }) => [
      own(
        user,
        "account.password_reset",
        null,
        { sessions: "ended", ip: "192.0.2.9" },
        "reset link",
      ),
    ],
    mail: ["passwordChanged"],
  },
  {
    name: "account.twoFactorEnabled",
    event: ({ user }) => ({ type: "account.twoFactorEnabled", userId: user }),
    audit: ({ user }) => [
      own(
        user,
        "account.two_factor_enable",
        { twoFactorEnabled: false },
        { twoFactorEnabled: true },
      ),
    ],
    mail: [],
  },
  {
    name: "account.backupCodesRenewed",
    event: ({ user }) => ({ type: "account.backupCodesRenewed", userId: user }),
    audit: ({ user }) => [own(user, "account.two_factor_backup_codes", null, null)],
    mail: [],
  },
  {
    name: "account.twoFactorDisabled",
    event: ({ user }) => ({ type: "account.twoFactorDisabled", userId: user }),
    audit: ({ user }) => [
      own(
        user,
        "account.two_factor_disable",
        { twoFactorEnabled: true },
        { twoFactorEnabled: false },
      ),
    ],
    mail: [],
  },
  {
    name: "account.twoFactorReset",
    event: ({ user, admin }) => ({
      type: "account.twoFactorReset",
      actorId: admin,
      userId: user,
      secretsRemoved: 1,
      at: T0.toISOString(),
    }),
    audit: ({ admin }) => [
      {
        actorId: admin,
        action: "user.two_factor_reset",
        targetType: "user",
        before: { twoFactorEnabled: true },
        after: { twoFactorEnabled: false, secretsRemoved: 1 },
        reason: "",
      },
    ],
    mail: ["twoFactorReset"],
  },
  {
    name: "account.sessionRevoked",
    event: ({ user }) => ({
      type: "account.sessionRevoked",
      userId: user,
      session: { id: "s1", ipAddress: "192.0.2.1", userAgent: null, createdAt: T0.toISOString() },
    }),
    audit: ({ user }) => [
      own(
        user,
        "session.revoke",
        { session: "s1", ipAddress: "192.0.2.1", userAgent: null, createdAt: T0.toISOString() },
        null,
      ),
    ],
    mail: [],
  },
  {
    name: "account.otherSessionsRevoked",
    event: ({ user }) => ({
      type: "account.otherSessionsRevoked",
      userId: user,
      sessionsEnded: 3,
      trustedDevices: 1,
      kept: "s9",
    }),
    audit: ({ user }) => [
      own(user, "session.revoke_others", { sessions: 3, trustedDevices: 1 }, { kept: "s9" }),
    ],
    mail: [],
  },
  {
    name: "account.loginBlockLifted",
    event: ({ admin }) => ({
      type: "account.loginBlockLifted",
      actorId: admin,
      kind: "address",
      key: "192.0.2.77",
      endsAt: T0.toISOString(),
      blocks: [{ kind: "address", key: "192.0.2.77", endsAt: T0.toISOString() }],
      liftedAt: T0.toISOString(),
      reason: "asked by phone",
    }),
    subject: () => "192.0.2.77",
    audit: ({ admin }) => [
      {
        actorId: admin,
        action: "login_block.lift",
        targetType: "login_block",
        before: {
          kind: "address",
          key: "192.0.2.77",
          endsAt: T0.toISOString(),
          blocks: [{ kind: "address", key: "192.0.2.77", endsAt: T0.toISOString() }],
        },
        after: { liftedAt: T0.toISOString() },
        reason: "asked by phone",
      },
    ],
    mail: [],
  },
  {
    name: "account.updatedByAdmin",
    event: ({ user, admin }) => ({
      type: "account.updatedByAdmin",
      actorId: admin,
      userId: user,
      change: { before: { role: "user" }, after: { role: "admin", password: "changed" } },
    }),
    audit: ({ admin }) => [
      {
        actorId: admin,
        action: "user.update",
        targetType: "user",
        before: { role: "user" },
        after: { role: "admin", password: "changed" },
        reason: "",
      },
    ],
    mail: [],
  },
  {
    name: "account.promotedToAdmin",
    event: ({ user }) => ({ type: "account.promotedToAdmin", userId: user, via: "ADMIN_EMAIL" }),
    audit: () => [
      {
        actorId: null,
        action: "user.update",
        targetType: "user",
        before: { role: "user" },
        after: { role: "admin" },
        reason: "ADMIN_EMAIL",
      },
    ],
    mail: [],
  },
  {
    name: "account.deletionRequested",
    event: ({ user }) => ({
      type: "account.deletionRequested",
      userId: user,
      outstanding: { activeServices: 1, pendingOrders: 0, balanceCents: 500 },
    }),
    audit: ({ user }) => [
      own(user, "account.deletion_request", null, {
        status: "pending",
        activeServices: 1,
        pendingOrders: 0,
        balanceCents: 500,
      }),
    ],
    mail: [],
  },
  {
    name: "account.deletionCancelled",
    event: ({ user }) => ({ type: "account.deletionCancelled", userId: user }),
    audit: ({ user }) => [
      own(user, "account.deletion_cancel", { status: "pending" }, { status: "cancelled" }),
    ],
    mail: [],
  },
  {
    name: "account.deletionCompleted",
    event: ({ user, admin }) => ({
      type: "account.deletionCompleted",
      actorId: admin,
      userId: user,
      request: { id: 7, requestedAt: T0.toISOString() },
      erasure: {
        removed: {
          sessions: 1,
          newsletter: 0,
          contactMessages: 0,
          loginAttempts: 2,
          notifications: 3,
        },
        kept: { ledgerEntries: 4, orders: 1, services: 1, balanceCents: 0 },
      },
    }),
    audit: ({ admin }) => [
      {
        actorId: admin,
        action: "account.deletion_complete",
        targetType: "user",
        before: { status: "active", requestId: 7, requestedAt: T0.toISOString() },
        after: {
          status: "deleted",
          removed: {
            sessions: 1,
            newsletter: 0,
            contactMessages: 0,
            loginAttempts: 2,
            notifications: 3,
          },
          kept: { ledgerEntries: 4, orders: 1, services: 1, balanceCents: 0 },
        },
        reason: "",
      },
    ],
    mail: [],
  },
  {
    name: "account.deletedByAdmin",
    event: ({ user, admin }) => ({
      type: "account.deletedByAdmin",
      actorId: admin,
      userId: user,
      role: "user",
    }),
    audit: ({ admin }) => [
      {
        actorId: admin,
        action: "user.delete",
        targetType: "user",
        before: { status: "active", role: "user" },
        after: { status: "deleted" },
        reason: "",
      },
    ],
    mail: [],
  },
];

describeEachDatabase("the accounts' events", (app) => {
  /** The audit rows on `target` and the kinds of mail queued for it (a user), in the order written. */
  const tail = async (target: string) => ({
    audit: (
      await readRows(
        app().db,
        "audit_log",
        ["actor_id", "action", "target_type", "before", "after", "reason"],
        { target_id: target },
        "id",
      )
    ).map((row): Audited => ({
      actorId: row.actor_id,
      action: row.action,
      targetType: row.target_type,
      before: row.before === null ? null : JSON.parse(row.before),
      after: row.after === null ? null : JSON.parse(row.after),
      reason: row.reason,
    })),
    mail: (await readRows(app().db, "mail_outbox", ["kind"], { user_id: target }, "id")).map(
      (row) => row.kind,
    ),
  });

  it.each(CASES)("$name: its reactions write its audit entry and its mail", async (each) => {
    const who = { user: await customerWithCoins(app(), 0), admin: await adminId(app()) };
    const subject = each.subject?.(who) ?? who.user;
    const before = await tail(subject);
    await inTransaction(app().db, (trx) => record(trx, each.event(who), T0));
    const after = await tail(subject);
    expect(after.audit.slice(before.audit.length)).toEqual(each.audit(who));
    expect(after.mail.slice(before.mail.length)).toEqual(each.mail);
  });

  it("account.erased: the account's mail and its email choices are erased with it", async () => {
    const user = await customerWithCoins(app(), 0);
    const admin = await adminId(app());
    const other = await customerWithCoins(app(), 0);
    const resetOf = (userId: string): AccountEvent => ({
      type: "account.passwordResetRequested",
      userId,
      token: `reset-of-${userId}`,
    });
    await inTransaction(app().db, async (trx) => {
      await record(trx, resetOf(user), T0);
      await record(trx, resetOf(other), T0);
      await trx
        .insertInto("mail_opt_outs")
        .values({ user_id: user, kind: "coinsChanged", created_at: T0.toISOString() })
        .execute();
    });
    expect(await readRows(app().db, "mail_outbox", ["id"], { user_id: user })).toHaveLength(1);

    await inTransaction(app().db, (trx) =>
      record(trx, { type: "account.erased", userId: user, actorId: admin }),
    );
    expect(await readRows(app().db, "mail_outbox", ["id"], { user_id: user })).toEqual([]);
    expect(await readRows(app().db, "mail_opt_outs", ["kind"], { user_id: user })).toEqual([]);
    // Nobody else's mail goes with it.
    expect(await readRows(app().db, "mail_outbox", ["id"], { user_id: other })).toHaveLength(1);
  });
});
