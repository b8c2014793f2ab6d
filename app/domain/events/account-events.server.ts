import { createHash } from "node:crypto";
import type { ErasedData } from "~/domain/accounts/account-deletion.server";
import type { ThrottleKind } from "~/domain/accounts/login-throttle";
import type { AuditEntry } from "~/domain/audit/audit.server";
import type { Change, ReactionTable } from "./reaction.server";

/** What a completed deletion removed and kept: counts only, the point being that the data is gone. */
export interface ErasureCounts {
  removed: ErasedData;
  kept: { ledgerEntries: number; orders: number; services: number; balanceCents: number };
}

/** What a deletion request waits on, as the request recorded it. */
interface Outstanding {
  activeServices: number;
  pendingOrders: number;
  balanceCents: number;
}

export type AccountEvent =
  /** Someone signed in with their password (`attemptId`: the login throttle's row), at `at`. */
  | {
      type: "account.signedIn";
      userId: string;
      role: string;
      attemptId: string | number;
      at: string;
      ip: string;
      userAgent: string | null;
    }
  /** A verification link was made for the account's address (`sendKey`: this request's own). */
  | { type: "account.verificationRequested"; userId: string; token: string; sendKey: string }
  /** The owner asked to change their login to `newEmail`, which gets a link to prove itself. */
  | {
      type: "account.emailChangeRequested";
      userId: string;
      previousEmail: string;
      newEmail: string;
      token: string;
      sendKey: string;
    }
  /**
   * The login changed from `oldEmail` to `newEmail`, the account's other sessions ended: confirmed by the
   * link of `linkToken`, or at once (`linkToken` null: the site sends no mail, so nobody was asked).
   */
  | {
      type: "account.emailChanged";
      userId: string;
      oldEmail: string;
      newEmail: string;
      otherSessionsEnded: number;
      linkToken: string | null;
    }
  /** A reset link (better-auth's `token`) was made for the account. */
  | { type: "account.passwordResetRequested"; userId: string; token: string }
  /** The password was set from the reset link of `token`, at `at`, every session ended. */
  | { type: "account.passwordReset"; userId: string; token: string; ip: string | null; at: string }
  /** The owner turned their two-factor sign-in on, made new backup codes, or turned it off. */
  | { type: "account.twoFactorEnabled"; userId: string }
  | { type: "account.backupCodesRenewed"; userId: string }
  | { type: "account.twoFactorDisabled"; userId: string }
  /**
   * An admin (or the command line: `actorId` null, with its `reason`) turned off someone's two-factor
   * sign-in at `at`, removing `secretsRemoved` secrets.
   */
  | {
      type: "account.twoFactorReset";
      actorId: string | null;
      userId: string;
      secretsRemoved: number;
      reason?: string;
      at: string;
    }
  /** An admin ended one of their own other sessions, as it was. */
  | {
      type: "account.sessionRevoked";
      userId: string;
      session: {
        id: string;
        ipAddress: string | null;
        userAgent: string | null;
        createdAt: string;
      };
    }
  /** An admin ended their other sessions and forgot their trusted devices, keeping `kept`. */
  | {
      type: "account.otherSessionsRevoked";
      userId: string;
      sessionsEnded: number;
      trustedDevices: number;
      kept: string;
    }
  /** An admin (or the command line, `actorId` null) lifted the login blocks in force on a key. */
  | {
      type: "account.loginBlockLifted";
      actorId: string | null;
      kind: ThrottleKind;
      key: string;
      endsAt: string | null;
      blocks: { kind: ThrottleKind; key: string; endsAt: string }[];
      liftedAt: string;
      reason?: string;
    }
  /**
   * An admin changed an account's name, email or password (the fields changed, before and after; a
   * role too in entries written before staff roles moved to /admin/staff).
   */
  | {
      type: "account.updatedByAdmin";
      actorId: string;
      userId: string;
      change: Change<Record<string, unknown>>;
    }
  /** A customer was made an admin by the operator (`via`: the command or the setting). */
  | { type: "account.promotedToAdmin"; userId: string; via: string }
  /** The customer asked for their account to be deleted, with what it still held. */
  | { type: "account.deletionRequested"; userId: string; outstanding: Outstanding }
  | { type: "account.deletionCancelled"; userId: string }
  /** The account was anonymised and what identifies its owner removed (ADR 19), by `actorId`. */
  | { type: "account.erased"; userId: string; actorId: string }
  /** An admin completed the customer's deletion request `request`. */
  | {
      type: "account.deletionCompleted";
      actorId: string;
      userId: string;
      request: { id: number; requestedAt: string };
      erasure: ErasureCounts;
    }
  /** An admin deleted a customer's account from /admin/clients. */
  | { type: "account.deletedByAdmin"; actorId: string; userId: string; role: string };

/** A person's change to their own account: they are its actor and its target. */
const own = (
  userId: string,
  entry: Omit<AuditEntry, "actorId" | "targetType" | "targetId">,
): AuditEntry => ({ actorId: userId, targetType: "user", targetId: userId, ...entry });

/** The audit entry of a change to two-factor sign-in, its flag before and after. */
const twoFactorTurned = (userId: string, action: string, enabled: boolean) =>
  own(userId, {
    action,
    before: { twoFactorEnabled: !enabled },
    after: { twoFactorEnabled: enabled },
  });

/**
 * What follows the accounts' changes: their audit entries and their security mail (docs/mail.md
 * "Security mail"; its send jobs are claimed before any other, whoever queues them), and the erasure
 * of an account's mail with the account.
 */
export const accountReactions: ReactionTable<AccountEvent> = {
  "account.signedIn": {
    // An admin is told of each sign-in to their account; customers are not mailed.
    mail: (event) =>
      event.role === "admin"
        ? {
            kind: "adminSignIn",
            userId: event.userId,
            eventKey: String(event.attemptId),
            at: event.at,
            ip: event.ip,
            userAgent: event.userAgent,
          }
        : null,
  },
  "account.verificationRequested": {
    mail: ({ userId, token, sendKey }) => ({ kind: "emailVerification", userId, token, sendKey }),
  },
  "account.emailChangeRequested": {
    audit: ({ userId, previousEmail, newEmail }) =>
      own(userId, {
        action: "account.email_change_requested",
        before: { email: previousEmail },
        after: { pendingEmail: newEmail },
      }),
    mail: ({ userId, token, sendKey, newEmail }) => ({
      kind: "emailVerification",
      userId,
      token,
      sendKey,
      newEmail,
    }),
  },
  "account.emailChanged": {
    audit: ({ userId, oldEmail, newEmail, otherSessionsEnded, linkToken }) =>
      own(userId, {
        action: "account.email_change",
        before: { email: oldEmail },
        // Without a link no mail was sent: this entry is the record the old address is owed
        // (docs/security.md).
        after:
          linkToken === null
            ? { email: newEmail, otherSessionsEnded, oldAddressTold: false }
            : { email: newEmail, otherSessionsEnded, confirmedByLink: true, oldAddressTold: true },
      }),
    mail: ({ userId, oldEmail, newEmail, linkToken }) =>
      linkToken === null
        ? null
        : {
            kind: "emailChanged",
            userId,
            oldEmail,
            newEmail,
            changeKey: createHash("sha256").update(linkToken).digest("hex").slice(0, 32),
          },
  },
  "account.passwordResetRequested": {
    mail: ({ userId, token }) => ({ kind: "passwordReset", userId, token }),
  },
  "account.passwordReset": {
    audit: ({ userId, ip }) =>
      own(userId, {
        action: "account.password_reset",
        after: { sessions: "ended", ip },
        reason: "reset link",
      }),
    mail: ({ userId, token, at }) => ({ kind: "passwordChanged", userId, token, at }),
  },
  "account.twoFactorEnabled": {
    audit: ({ userId }) => twoFactorTurned(userId, "account.two_factor_enable", true),
  },
  "account.backupCodesRenewed": {
    audit: ({ userId }) => own(userId, { action: "account.two_factor_backup_codes" }),
  },
  "account.twoFactorDisabled": {
    audit: ({ userId }) => twoFactorTurned(userId, "account.two_factor_disable", false),
  },
  "account.twoFactorReset": {
    audit: ({ actorId, userId, secretsRemoved, reason }) => ({
      actorId,
      // By an admin on the client page or from the command line.
      action: "user.two_factor_reset",
      targetType: "user",
      targetId: userId,
      before: { twoFactorEnabled: true },
      after: { twoFactorEnabled: false, secretsRemoved },
      reason,
    }),
    mail: ({ userId, at }) => ({ kind: "twoFactorReset", userId, resetAt: at }),
  },
  "account.sessionRevoked": {
    audit: ({ userId, session }) =>
      own(userId, {
        action: "session.revoke",
        before: {
          session: session.id,
          ipAddress: session.ipAddress,
          userAgent: session.userAgent,
          createdAt: session.createdAt,
        },
      }),
  },
  "account.otherSessionsRevoked": {
    audit: ({ userId, sessionsEnded, trustedDevices, kept }) =>
      own(userId, {
        action: "session.revoke_others",
        before: { sessions: sessionsEnded, trustedDevices },
        after: { kept },
      }),
  },
  "account.loginBlockLifted": {
    audit: ({ actorId, kind, key, endsAt, blocks, liftedAt, reason }) => ({
      actorId,
      action: "login_block.lift",
      targetType: "login_block",
      targetId: key,
      before: { kind, key, endsAt, blocks },
      after: { liftedAt },
      reason,
    }),
  },
  "account.updatedByAdmin": {
    audit: ({ actorId, userId, change }) => ({
      actorId,
      action: "user.update",
      targetType: "user",
      targetId: userId,
      ...change,
    }),
  },
  "account.promotedToAdmin": {
    // No account acted: the command or the setting is the reason.
    audit: ({ userId, via }) => ({
      actorId: null,
      action: "user.update",
      targetType: "user",
      targetId: userId,
      before: { role: "user" },
      after: { role: "admin" },
      reason: via,
    }),
  },
  "account.deletionRequested": {
    // No name or email: the request is audited by its counts.
    audit: ({ userId, outstanding }) =>
      own(userId, {
        action: "account.deletion_request",
        after: { status: "pending", ...outstanding },
      }),
  },
  "account.deletionCancelled": {
    audit: ({ userId }) =>
      own(userId, {
        action: "account.deletion_cancel",
        before: { status: "pending" },
        after: { status: "cancelled" },
      }),
  },
  "account.erased": {
    // The mail sent or kept for the account holds its address and what it was told (docs/mail.md).
    forgetMail: ({ userId }) => userId,
  },
  "account.deletionCompleted": {
    // No name or email in the entry: the point of the deletion is that they are gone.
    audit: ({ actorId, userId, request, erasure }) => ({
      actorId,
      action: "account.deletion_complete",
      targetType: "user",
      targetId: userId,
      before: { status: "active", requestId: request.id, requestedAt: request.requestedAt },
      after: { status: "deleted", ...erasure },
    }),
  },
  "account.deletedByAdmin": {
    audit: ({ actorId, userId, role }) => ({
      actorId,
      action: "user.delete",
      targetType: "user",
      targetId: userId,
      before: { status: "active", role },
      after: { status: "deleted" },
    }),
  },
};
