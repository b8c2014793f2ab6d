// Discord (docs/discord.md): signing in with a Discord account, and the "client" role on the company's
// Discord server while a customer has an active service. Pure rules, safe in the browser.

/** better-auth's provider id, and the `accounts.provider_id` of a linked Discord account. */
export const DISCORD_PROVIDER = "discord";

/** Where Discord sends the browser back with its code (our route, not better-auth's handler). */
export const DISCORD_CALLBACK_PATH = "/auth/discord/callback";

/** The route the "Sign in with Discord" buttons post to. */
export const DISCORD_START_PATH = "/auth/discord";

/** Discord's addresses under its base (https://discord.com, or a stand-in's in tests). */
export function discordUrls(base: string) {
  const root = base.replace(/\/+$/, "");
  return {
    authorize: `${root}/oauth2/authorize`,
    token: `${root}/api/oauth2/token`,
    me: `${root}/api/users/@me`,
    memberRole: (guildId: string, userId: string, roleId: string) =>
      `${root}/api/guilds/${guildId}/members/${userId}/roles/${roleId}`,
  };
}

/** A Discord id (a snowflake): digits only, 17 to 20 of them today; up to 20 accepted. */
export function isSnowflake(value: string): boolean {
  return /^\d{1,20}$/.test(value);
}

/**
 * Whether a customer holds the role: while at least one of their services is active. A suspended or
 * terminated one (for any reason: expired, cancelled, an admin's) does not count.
 */
export function wantsClientRole(statuses: readonly string[]): boolean {
  return statuses.includes("active");
}

/**
 * Why a Discord sign-in or link was refused, as the pages say it (discord namespace). The codes are
 * better-auth's callback errors (and ours), grouped into what the person can do about it.
 */
export const DISCORD_REFUSALS = [
  /** The address is another account's, not linked to this Discord account: sign in, then link. */
  "emailTaken",
  /** Registration is closed and no account is linked to this Discord account. */
  "registrationClosed",
  /** Discord has no verified address for this account: a new account cannot be made from it. */
  "emailUnverified",
  /** This Discord account is linked to another of our accounts already. */
  "linkedElsewhere",
  /** A staff account, or one with two-factor sign-in: it signs in with its password (and code). */
  "passwordRequired",
  /** The person said no on Discord, or came back without a code. */
  "cancelled",
  /** Anything else: an expired or replayed state, Discord unreachable, a code refused. */
  "failed",
] as const;
export type DiscordRefusal = (typeof DISCORD_REFUSALS)[number];

export function isDiscordRefusal(value: unknown): value is DiscordRefusal {
  return typeof value === "string" && (DISCORD_REFUSALS as readonly string[]).includes(value);
}

/** better-auth's error code (in the error redirect's `error` parameter) as what we tell the person. */
export function refusalOf(code: string | null): DiscordRefusal {
  switch (code) {
    case "account_not_linked":
      return "emailTaken";
    case "signup_disabled":
      return "registrationClosed";
    case "discord_email_unverified":
    case "email_not_found":
    case "unable_to_link_account":
      return "emailUnverified";
    case "account_already_linked_to_different_user":
      return "linkedElsewhere";
    case "access_denied":
    case "no_code":
      return "cancelled";
    default:
      return "failed";
  }
}

/** Catalogue keys (discord namespace) of each refusal. */
export const DISCORD_REFUSAL_MESSAGES = {
  emailTaken: "discord.refusals.emailTaken",
  registrationClosed: "discord.refusals.registrationClosed",
  emailUnverified: "discord.refusals.emailUnverified",
  linkedElsewhere: "discord.refusals.linkedElsewhere",
  passwordRequired: "discord.refusals.passwordRequired",
  cancelled: "discord.refusals.cancelled",
  failed: "discord.refusals.failed",
} as const satisfies Record<DiscordRefusal, string>;

/** What the account tab shows of a linked Discord account. */
export interface DiscordLinkView {
  /** The Discord application is configured (env): without it the card is not shown. */
  available: boolean;
  linked: { discordId: string; linkedAt: string } | null;
  /** The account has a password: only then may Discord be unlinked (it is not the only way in). */
  hasPassword: boolean;
}

/** What the admin page shows of the role's settings: never the token, its last four characters only. */
export interface DiscordRoleSettingsView {
  guildId: string;
  roleId: string;
  tokenLast4: string | null;
  updatedAt: string | null;
}

/** What the audit log keeps of a save of the role's settings: never the token, its last four only. */
export interface DiscordRoleSettingsRef {
  guildId: string;
  roleId: string;
  tokenLast4: string | null;
}

/** The worker's job that gives or takes back one customer's role on Discord. */
export const DISCORD_ROLE_JOB = "discord.role-sync";
/** The nightly run that queues a role sync for every customer with a linked Discord account. */
export const DISCORD_RECONCILE_JOB = "discord.reconcile";
