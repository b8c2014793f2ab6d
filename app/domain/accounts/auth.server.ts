import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { betterAuth } from "better-auth";
import { APIError } from "better-auth/api";
import { admin, genericOAuth, twoFactor } from "better-auth/plugins";
import type { Kysely } from "kysely";
import type { DialectName } from "~/db/database.server";
import { DISCORD_CALLBACK_PATH, DISCORD_PROVIDER, discordUrls } from "~/domain/discord/discord";
import {
  ADMIN_SESSION_HOURS,
  MIN_PASSWORD_LENGTH,
  MAX_PASSWORD_LENGTH,
  USER_SESSION_DAYS,
} from "./accounts";
import { hashPassword, verifyPassword } from "./password-hash.server";
import { PASSWORD_RESET_LINK_SECONDS } from "./password-reset";
import { generateBackupCodes } from "./two-factor";

/**
 * What better-auth's reset flow hands back to the use-case that called it (password-reset.server.ts):
 * the token it made for a request, the account it reset. better-auth calls our hooks inside its own
 * request, outside any transaction of ours, and its HTTP handler is not mounted (ADR 0005), so the link
 * it builds leads nowhere: the hooks only note what they are given, and the use-case queues the mail
 * with a link to our own page, in its own transaction (ADR 0034).
 */
export interface PasswordResetCapture {
  requested?: { userId: string; token: string };
  reset?: { userId: string };
}

const passwordResetCapture = new AsyncLocalStorage<PasswordResetCapture>();

/** better-auth's identifier of a reset link's row: this prefix, then the token. */
export const RESET_IDENTIFIER_PREFIX = "reset-password:";

/** What the verifications table keeps of a reset link: the prefix and the token's SHA-256. */
export function storedResetIdentifier(identifier: string): string {
  const token = identifier.slice(RESET_IDENTIFIER_PREFIX.length);
  return `${RESET_IDENTIFIER_PREFIX}sha256:${createHash("sha256").update(token).digest("base64url")}`;
}

const hashedReset = { hash: async (identifier: string) => storedResetIdentifier(identifier) };

/** Runs `call` (a better-auth reset endpoint) and returns what its hooks noted, with its result. */
export async function capturingPasswordReset<T>(
  call: () => Promise<T>,
): Promise<{ result: T; captured: PasswordResetCapture }> {
  const captured: PasswordResetCapture = {};
  const result = await passwordResetCapture.run(captured, call);
  return { result, captured };
}

export interface AuthOptions {
  database: { db: Kysely<unknown>; type: DialectName };
  secret: string;
  baseURL: string;
  /** Looks up a user's role when a session is created, to give admins a shorter session. */
  roleOf: (userId: string) => Promise<string | undefined>;
  /** The Discord application (DISCORD_CLIENT_ID, DISCORD_CLIENT_SECRET, DISCORD_BASE_URL); unset: none. */
  discord?: { clientId: string; clientSecret: string; baseUrl: string };
}

/** Discord's user object (GET /users/@me), the fields we read. */
interface DiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  email?: string | null;
  verified?: boolean;
  avatar?: string | null;
}

/**
 * Discord as better-auth's generic OAuth provider rather than its built-in one, whose addresses are
 * written into it: ours come from DISCORD_BASE_URL, so a test or a trial reaches a stand-in (ADR 0065).
 * The code comes back to our own route (DISCORD_CALLBACK_PATH), which hands it to better-auth.
 */
function discordProvider(options: NonNullable<AuthOptions["discord"]>, baseURL: string) {
  const urls = discordUrls(options.baseUrl);
  return genericOAuth({
    config: [
      {
        providerId: DISCORD_PROVIDER,
        name: "Discord",
        clientId: options.clientId,
        clientSecret: options.clientSecret,
        authorizationUrl: urls.authorize,
        tokenUrl: urls.token,
        // Discord takes the client's credentials in the form's body (client_secret_post).
        authentication: "post",
        scopes: ["identify", "email"],
        pkce: true,
        redirectURI: new URL(DISCORD_CALLBACK_PATH, baseURL).toString(),
        // A new account only when the sign-in asked for one (registration open: our start route).
        disableImplicitSignUp: true,
        getUserInfo: async (tokens) => {
          const response = await fetch(urls.me, {
            headers: { authorization: `Bearer ${tokens.accessToken}` },
            signal: AbortSignal.timeout(10_000),
          });
          if (!response.ok) return null;
          const user = (await response.json()) as DiscordUser;
          return {
            id: user.id,
            name: user.global_name || user.username,
            email: user.email ?? undefined,
            emailVerified: user.verified === true,
          };
        },
      },
    ],
  });
}

/**
 * better-auth keeps sessions and credentials. We never mount its HTTP handler: every sign-up, sign-in
 * and sign-out goes through our own route actions, which validate, throttle and word the messages,
 * and call `auth.api` on the server (ADR 0005).
 */
export function createAuth(options: AuthOptions) {
  return betterAuth({
    database: options.database,
    secret: options.secret,
    baseURL: options.baseURL,
    // The TOTP issuer an authenticator app shows beside the account.
    appName: "Hostfront",
    telemetry: { enabled: false },
    logger: { disabled: true },
    emailAndPassword: {
      enabled: true,
      autoSignIn: false,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: MAX_PASSWORD_LENGTH,
      password: {
        hash: hashPassword,
        verify: ({ hash, password }) => verifyPassword(hash, password),
      },
      // The reset flow is better-auth's (a token valid for an hour, used once, every session ended);
      // the mail and the page it links to are ours (password-reset.server.ts, ADR 0034).
      resetPasswordTokenExpiresIn: PASSWORD_RESET_LINK_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const capture = passwordResetCapture.getStore();
        if (capture) capture.requested = { userId: user.id, token };
      },
      onPasswordReset: async ({ user }) => {
        const capture = passwordResetCapture.getStore();
        if (capture) capture.reset = { userId: user.id };
      },
    },
    session: {
      modelName: "sessions",
      expiresIn: USER_SESSION_DAYS * 24 * 60 * 60,
      // A session's lifetime is fixed at login (30 days, or 12 hours for an admin); it is not extended.
      disableSessionRefresh: true,
      fields: {
        userId: "user_id",
        expiresAt: "expires_at",
        ipAddress: "ip_address",
        userAgent: "user_agent",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
    },
    user: {
      modelName: "users",
      fields: { emailVerified: "email_verified", createdAt: "created_at", updatedAt: "updated_at" },
    },
    account: {
      modelName: "accounts",
      // A Discord account joins one of ours only when its owner links it from their account tab
      // (signed in): a sign-in never links it to the account that has its address, nor makes a second
      // account for that address (docs/discord.md). The address on Discord may differ from the login.
      accountLinking: { disableImplicitLinking: true, allowDifferentEmails: true },
      fields: {
        userId: "user_id",
        accountId: "account_id",
        providerId: "provider_id",
        accessToken: "access_token",
        refreshToken: "refresh_token",
        idToken: "id_token",
        accessTokenExpiresAt: "access_token_expires_at",
        refreshTokenExpiresAt: "refresh_token_expires_at",
        createdAt: "created_at",
        updatedAt: "updated_at",
      },
    },
    verification: {
      modelName: "verifications",
      fields: { expiresAt: "expires_at", createdAt: "created_at", updatedAt: "updated_at" },
      // A reset link's token opens the account for an hour: the row keeps only its hash, so that a copy
      // of the table (a backup, a read through another hole) opens nothing. The prefix stays readable,
      // for a reset to end every other link of its account (password-reset.server.ts).
      storeIdentifier: { default: "plain", overrides: { [RESET_IDENTIFIER_PREFIX]: hashedReset } },
    },
    advanced: {
      useSecureCookies: options.baseURL.startsWith("https://"),
      defaultCookieAttributes: { sameSite: "lax", httpOnly: true },
      cookiePrefix: "hostfront",
      // Sessions keep the client's whole address, as login_attempts do: by default better-auth keeps
      // only an IPv6 address's /64 prefix, which makes every session from ::1 read "0000:…:0000" on
      // /admin/security.
      ipAddress: { ipv6Subnet: 128 },
    },
    databaseHooks: {
      user: {
        create: {
          // An account made from a Discord sign-in needs an address Discord has verified: an
          // unverified one could be someone else's (docs/discord.md).
          before: async (user, context) => {
            if (context?.params?.id === DISCORD_PROVIDER && user.emailVerified !== true)
              throw new APIError("FORBIDDEN", {
                code: "discord_email_unverified",
                message: "Discord has not verified this address",
              });
            return { data: user };
          },
        },
      },
      session: {
        create: {
          before: async (session) => {
            const role = await options.roleOf(session.userId);
            if (role !== "admin") return { data: session };
            const expiresAt = new Date(Date.now() + ADMIN_SESSION_HOURS * 60 * 60 * 1000);
            return { data: { ...session, expiresAt } };
          },
        },
      },
    },
    plugins: [
      admin({
        defaultRole: "user",
        adminRoles: ["admin"],
        schema: {
          user: { fields: { banReason: "ban_reason", banExpires: "ban_expires" } },
          session: { fields: { impersonatedBy: "impersonated_by" } },
        },
      }),
      // Two-factor sign-in (migration 0031). The plugin encrypts the TOTP secret and the backup
      // codes with a key derived from `secret` (AUTH_SECRET or data/auth-secret) before they are stored.
      twoFactor({
        // Codes without look-alike characters (two-factor.ts); the plugin stores and checks them.
        backupCodeOptions: { customBackupCodesGenerate: () => generateBackupCodes() },
        schema: {
          user: { fields: { twoFactorEnabled: "two_factor_enabled" } },
          twoFactor: {
            modelName: "two_factors",
            fields: {
              userId: "user_id",
              backupCodes: "backup_codes",
              failedVerificationCount: "failed_verification_count",
              lockedUntil: "locked_until",
            },
          },
        },
      }),
      ...(options.discord ? [discordProvider(options.discord, options.baseURL)] : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
