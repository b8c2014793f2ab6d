import type { Kysely } from "kysely";
import type { Database } from "~/db/schema";
import { inTransaction } from "~/db/transaction";
import {
  clientHeaders,
  getCurrentSession,
  type AccountDeps,
} from "~/domain/accounts/accounts.server";
import { record } from "~/domain/events/events.server";
import { DISCORD_PROVIDER, refusalOf, type DiscordLinkView, type DiscordRefusal } from "./discord";

// Signing in with Discord and linking a Discord account (docs/discord.md, ADR 0065). better-auth runs
// the OAuth flow (its state, PKCE, the code's exchange, the accounts' rows) through `auth.api`; its HTTP
// handler is not mounted (ADR 0005), so our routes start the flow and hand the code back to it, and
// these use-cases read where it would have sent the browser to know what happened.

/** Where better-auth sends the browser at the end of each flow: how we recognise its outcome. */
const SIGNED_IN_URL = "/dashboard";
const REGISTERED_URL = "/dashboard?discord=registered";
const LINKED_URL = "/dashboard/account?discord=linked";
const SIGN_IN_ERROR_URL = "/login";
const LINK_ERROR_URL = "/dashboard/account";

export interface DiscordClient {
  ip: string;
  userAgent?: string | null;
  cookie?: string | null;
}

/** Where to send the browser (Discord's authorize page), with the state cookie better-auth set. */
export interface DiscordStart {
  url: string;
  setCookies: string[];
}

/**
 * Starts a sign-in: the address of Discord's authorize page, with better-auth's state (kept in the
 * verifications table, bound to a signed cookie) and PKCE challenge. A new account may be made from it
 * only while registration is open (`registrationOpen`, read when the flow starts).
 */
export async function startDiscordSignIn(
  deps: AccountDeps,
  { registrationOpen, client }: { registrationOpen: boolean; client: DiscordClient },
): Promise<DiscordStart> {
  const { headers, response } = await deps.auth.api.signInSocial({
    body: {
      provider: DISCORD_PROVIDER,
      callbackURL: SIGNED_IN_URL,
      newUserCallbackURL: REGISTERED_URL,
      errorCallbackURL: SIGN_IN_ERROR_URL,
      requestSignUp: registrationOpen,
      disableRedirect: true,
    },
    headers: clientHeaders(client),
    returnHeaders: true,
  });
  if (!("url" in response) || !response.url) throw new Error("better-auth gave no Discord address");
  return { url: response.url, setCookies: headers.getSetCookie() };
}

/** Starts linking a Discord account to the signed-in account whose session cookie `client` carries. */
export async function startDiscordLink(
  deps: AccountDeps,
  { client }: { client: DiscordClient },
): Promise<DiscordStart> {
  const { headers, response } = await deps.auth.api.linkSocialAccount({
    body: {
      provider: DISCORD_PROVIDER,
      callbackURL: LINKED_URL,
      errorCallbackURL: LINK_ERROR_URL,
      disableRedirect: true,
    },
    headers: clientHeaders(client),
    returnHeaders: true,
  });
  return { url: response.url, setCookies: headers.getSetCookie() };
}

export type DiscordCallbackResult =
  /** Signed in to the account the Discord account is linked to, or to the one just made from it. */
  | { ok: true; kind: "signedIn" | "registered"; userId: string; setCookies: string[] }
  /** Linked to the signed-in account. */
  | { ok: true; kind: "linked"; userId: string }
  /** Refused: said on the sign-in page, or on the account tab for a link. */
  | { ok: false; on: "login" | "account"; refusal: DiscordRefusal };

/** The Set-Cookie headers' name=value pairs as one Cookie header. */
function cookieHeaderOf(setCookies: string[]): string {
  return setCookies.map((cookie) => cookie.split(";")[0]).join("; ");
}

/**
 * Discord sent the browser back (`query`: its code and state, or its error): better-auth checks the
 * state against its cookie, exchanges the code (once: Discord refuses a code used twice), reads the
 * Discord user and signs in, makes the account or links, as the flow's state says. Then ours: a staff
 * account or one with two-factor sign-in does not sign in with Discord (its session is ended at once,
 * ADR 0065); a new account takes the page's language; a link is recorded (audited, the role synced).
 */
export async function finishDiscord(
  deps: AccountDeps,
  {
    query,
    client,
    locale,
    now = new Date(),
  }: {
    query: Record<string, string>;
    client: DiscordClient;
    locale?: string;
    now?: Date;
  },
): Promise<DiscordCallbackResult> {
  const signedInBefore = await getCurrentSession(deps, client.cookie ?? null);
  const fallback = signedInBefore ? ("account" as const) : ("login" as const);
  let response: Response;
  try {
    response = await deps.auth.api.callbackOAuth({
      method: "GET",
      params: { id: DISCORD_PROVIDER },
      query,
      headers: clientHeaders(client),
      asResponse: true,
    });
  } catch {
    return { ok: false, on: fallback, refusal: "failed" };
  }
  const location = response.headers.get("location");
  if (!location) return { ok: false, on: fallback, refusal: "failed" };
  const target = new URL(location, "http://site.invalid");
  const error = target.searchParams.get("error");
  if (error !== null || !target.pathname.startsWith("/dashboard")) {
    const on =
      target.pathname === LINK_ERROR_URL
        ? "account"
        : target.pathname === "/login"
          ? "login"
          : fallback;
    return { ok: false, on, refusal: refusalOf(error) };
  }
  if (target.searchParams.get("discord") === "linked") {
    if (!signedInBefore) return { ok: false, on: "login", refusal: "failed" };
    const userId = signedInBefore.user.id;
    const discordId = await linkedDiscordId(deps.db, userId);
    if (!discordId) return { ok: false, on: "account", refusal: "failed" };
    await inTransaction(deps.db, (trx) =>
      record(trx, { type: "discord.linked", userId, discordId }, now),
    );
    return { ok: true, kind: "linked", userId };
  }
  const setCookies = response.headers.getSetCookie();
  const session = await getCurrentSession(deps, cookieHeaderOf(setCookies));
  if (!session) return { ok: false, on: "login", refusal: "failed" };
  const { user } = session;
  // Staff and accounts with two-factor sign-in give their password (and code): a Discord account is
  // not a second factor, so it cannot stand in for both.
  if (user.role !== "user" || user.twoFactorEnabled) {
    await deps.db.deleteFrom("sessions").where("id", "=", session.sessionId).execute();
    return { ok: false, on: "login", refusal: "passwordRequired" };
  }
  const registered = target.searchParams.get("discord") === "registered";
  if (registered) {
    const discordId = (await linkedDiscordId(deps.db, user.id)) ?? "";
    await inTransaction(deps.db, async (trx) => {
      if (locale)
        await trx.updateTable("users").set({ locale }).where("id", "=", user.id).execute();
      await record(trx, { type: "discord.registered", userId: user.id, discordId }, now);
    });
  }
  return { ok: true, kind: registered ? "registered" : "signedIn", userId: user.id, setCookies };
}

/** The Discord id linked to the account, or null. */
export async function linkedDiscordId(
  db: Kysely<Database>,
  userId: string,
): Promise<string | null> {
  const row = await db
    .selectFrom("accounts")
    .select("account_id")
    .where("user_id", "=", userId)
    .where("provider_id", "=", DISCORD_PROVIDER)
    .executeTakeFirst();
  return row?.account_id ?? null;
}

/** What the account tab shows: whether Discord is offered, linked, and whether it may be unlinked. */
export async function loadDiscordLink(
  db: Kysely<Database>,
  { userId, available }: { userId: string; available: boolean },
): Promise<DiscordLinkView> {
  const rows = await db
    .selectFrom("accounts")
    .select(["provider_id", "account_id", "password", "created_at"])
    .where("user_id", "=", userId)
    .execute();
  const discord = rows.find((row) => row.provider_id === DISCORD_PROVIDER);
  return {
    available: available || discord !== undefined,
    linked: discord
      ? { discordId: discord.account_id, linkedAt: new Date(discord.created_at).toISOString() }
      : null,
    hasPassword: rows.some((row) => row.provider_id === "credential" && row.password),
  };
}

export type UnlinkDiscordResult =
  | { ok: true }
  | { ok: false; kind: "notFound"; error: "discord.account.errors.notLinked" }
  | { ok: false; kind: "conflict"; error: "discord.account.errors.onlyWayIn" };

/**
 * Unlinks the account's Discord account, audited, and the role taken back on Discord (a job). Refused
 * when the account has no password: Discord is then its only way in (docs/discord.md).
 */
export async function unlinkDiscord(
  db: Kysely<Database>,
  { userId, now = new Date() }: { userId: string; now?: Date },
): Promise<UnlinkDiscordResult> {
  return inTransaction(db, async (trx) => {
    const rows = await trx
      .selectFrom("accounts")
      .select(["id", "provider_id", "account_id", "password"])
      .where("user_id", "=", userId)
      .execute();
    const discord = rows.find((row) => row.provider_id === DISCORD_PROVIDER);
    if (!discord)
      return { ok: false, kind: "notFound", error: "discord.account.errors.notLinked" } as const;
    if (!rows.some((row) => row.provider_id === "credential" && row.password))
      return { ok: false, kind: "conflict", error: "discord.account.errors.onlyWayIn" } as const;
    await trx.deleteFrom("accounts").where("id", "=", discord.id).execute();
    await record(trx, { type: "discord.unlinked", userId, discordId: discord.account_id }, now);
    return { ok: true } as const;
  });
}
