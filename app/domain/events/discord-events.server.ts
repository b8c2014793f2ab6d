import type { AuditEntry } from "~/domain/audit/audit.server";
import type { NewJob } from "~/domain/jobs/jobs.server";
import { DISCORD_ROLE_JOB } from "~/domain/discord/discord";
import type { DiscordRoleSettingsRef } from "~/domain/discord/discord";
import type { DomainEvent } from "./events.server";
import type { Change, ReactionTable } from "./reaction.server";

export type DiscordEvent =
  /** The owner linked their Discord account (`discordId`) from their account tab. */
  | { type: "discord.linked"; userId: string; discordId: string }
  /** The owner unlinked it; the role is taken back from `discordId`. */
  | { type: "discord.unlinked"; userId: string; discordId: string }
  /** An account was made by signing in with Discord (registration open, the address verified). */
  | { type: "discord.registered"; userId: string; discordId: string }
  /** A member of the staff saved the role's bot, server and role (never the token itself). */
  | { type: "discord.settingsSaved"; actorId: string; change: Change<DiscordRoleSettingsRef> };

/** A person's change to their own account: they are its actor and its target. */
const own = (userId: string, action: string, after: unknown): AuditEntry => ({
  actorId: userId,
  action,
  targetType: "user",
  targetId: userId,
  after,
});

/** The role's sync for one customer: given or taken back on Discord, as their services say. */
const roleSync = (userId: string, discordId: string): NewJob => ({
  type: DISCORD_ROLE_JOB,
  payload: { userId, discordId },
  maxAttempts: 8,
});

/**
 * What follows Discord's changes: the audit entry, and the role's sync job for a link or an unlink. As
 * two-factor sign-in's changes, a sign-in method's are audited, not mailed (docs/discord.md).
 */
export const discordReactions: ReactionTable<DiscordEvent> = {
  "discord.linked": {
    audit: ({ userId, discordId }) => own(userId, "account.discord_link", { discordId }),
    jobs: ({ userId, discordId }) => roleSync(userId, discordId),
  },
  "discord.unlinked": {
    audit: ({ userId, discordId }) => ({
      ...own(userId, "account.discord_unlink", null),
      before: { discordId },
    }),
    jobs: ({ userId, discordId }) => roleSync(userId, discordId),
  },
  "discord.registered": {
    audit: ({ userId, discordId }) => own(userId, "account.discord_register", { discordId }),
  },
  "discord.settingsSaved": {
    audit: ({ actorId, change }) => ({
      actorId,
      action: "discord.settings_save",
      targetType: "settings",
      targetId: "discord",
      ...change,
    }),
  },
};

/**
 * The customer whose services an event may have made active or stopped (ordered and approved, added,
 * suspended, reactivated, terminated, deleted, ended by a cancellation or a refund), or null: their
 * Discord role follows (reactions.server.ts queues its sync when they have a linked account).
 */
export function serviceStateChangedFor(event: DomainEvent): string | null {
  switch (event.type) {
    case "order.approved":
      return event.order.userId;
    case "service.added":
    case "service.deleted":
    case "service.statusChanged":
    case "service.suspendedForExpiry":
    case "service.terminatedForExpiry":
    case "cancellation.refundApproved":
    case "cancellation.endedAtTerm":
      return event.service.userId;
    case "service.renewed":
      return event.reactivated ? event.service.userId : null;
    case "service.renewalRefunded":
      return event.suspended ? event.service.userId : null;
    default:
      return null;
  }
}
