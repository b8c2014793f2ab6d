import type { AppServices } from "~/context.server";
import { registerCustomer, signIn } from "~/domain/accounts/accounts.server";
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
