import { randomInt } from "node:crypto";
import { MAX_PASSWORD_LENGTH, MIN_PASSWORD_LENGTH } from "~/domain/accounts/accounts";
import { generatePassword, isCommonPassword } from "~/domain/accounts/accounts.server";
import { hashPassword } from "~/domain/accounts/password-hash.server";
import type { ImportUser } from "./dataset-types";

// Passwords: hashed before the transaction (Argon2id takes tens of milliseconds each).

type PasswordPlan =
  | { kind: "keep"; mustChange: false }
  | { kind: "keep"; mustChange: true; why: "short" | "common" }
  | { kind: "oneTime"; why: "admin" | "noPassword" };

/**
 * The old app stored passwords in plain text and printed the seed admin's to the browser console, so an
 * admin's old password is treated as public: it is not kept at all, and the admin gets a one-time
 * password (as `npm run admin -- create` gives). A customer keeps theirs, hashed; a short or common one
 * must be replaced at first login.
 */
export function passwordPlan(user: Pick<ImportUser, "role" | "password">): PasswordPlan {
  if (user.role === "admin") return { kind: "oneTime", why: "admin" };
  const password = user.password;
  if (password === null || password.length > MAX_PASSWORD_LENGTH)
    return { kind: "oneTime", why: "noPassword" };
  if (password.length < MIN_PASSWORD_LENGTH)
    return { kind: "keep", mustChange: true, why: "short" };
  if (isCommonPassword(password)) return { kind: "keep", mustChange: true, why: "common" };
  return { kind: "keep", mustChange: false };
}

export interface Credential {
  hash: string;
  oneTimePassword: string | null;
}

export async function prepareCredentials(users: ImportUser[], dryRun: boolean) {
  const credentials = new Map<string, Credential>();
  const queue = [...users];
  const worker = async () => {
    for (let user = queue.shift(); user; user = queue.shift()) {
      const plan = passwordPlan(user);
      const oneTimePassword = plan.kind === "oneTime" && !dryRun ? generatePassword() : null;
      // A dry run writes nothing that lasts, so it skips the slow hashing.
      const hash = dryRun ? "" : await hashPassword(oneTimePassword ?? user.password!);
      credentials.set(user.email, { hash, oneTimePassword });
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return credentials;
}

/** Thrown when an account appeared or went away between hashing and the transaction. */
export class StaleCredentials extends Error {}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** An id like the ones better-auth gives (32 letters and digits). */
export function authId(): string {
  let id = "";
  for (let i = 0; i < 32; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}
