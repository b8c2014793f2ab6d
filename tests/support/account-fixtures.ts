import type { AppServices } from "~/context.server";
import { getCurrentSession, registerCustomer, signIn } from "~/domain/accounts/accounts.server";
import { readRows } from "./read-column";
import { cookieHeader } from "./request-context";

type Credentials = { email: string; password: string };

/** Registers a customer as the open sign-up form would, and returns their id. */
export async function registeredCustomer(
  app: AppServices,
  account: Credentials & { name: string },
): Promise<string> {
  const result = await registerCustomer(
    app,
    { ...account, confirmPassword: account.password },
    { registrationOpen: true },
  );
  if (!result.ok) throw new Error(result.error);
  return result.userId;
}

/** Signs in from `client` and returns the new session's Cookie header. */
export async function signedInCookie(
  app: AppServices,
  credentials: Credentials,
  client: { ip: string; userAgent?: string | null },
): Promise<string> {
  const result = await signIn(app, credentials, client);
  if (!result.ok) throw new Error(result.error);
  return cookieHeader(result.setCookies);
}

/**
 * Registers a customer and signs them in once from each address of `ips` (one browser each): their id,
 * email and, per address in order, the session's Cookie header and id.
 */
export async function signedInCustomer(
  app: AppServices,
  account: Credentials & { name: string },
  ips: string[],
) {
  const userId = await registeredCustomer(app, account);
  const sessions: { cookie: string; sessionId: string }[] = [];
  for (const ip of ips) {
    const cookie = await signedInCookie(
      app,
      { email: account.email, password: account.password },
      { ip },
    );
    const session = await getCurrentSession(app, cookie);
    if (!session) throw new Error("the new session is not found");
    sessions.push({ cookie, sessionId: session.sessionId });
  }
  return { userId, email: account.email, sessions };
}

/**
 * A customer signed in once from `home`, a known address of the account from then on: their id, email,
 * that address, and the session's Cookie header and id.
 */
export async function customerSignedInAt(
  app: AppServices,
  account: Credentials & { name: string },
  home: string,
) {
  const { userId, email, sessions } = await signedInCustomer(app, account, [home]);
  return { userId, email, home, ...sessions[0]! };
}

/** Whether each sign-in attempt of `email` from `ip` succeeded (1) or not (0), oldest first. */
export function loginAttempts(app: AppServices, email: string, ip: string) {
  return readRows(app.db, "login_attempts", ["succeeded"], { email, ip_address: ip }, "id");
}
