import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

// The auth secret signs the session cookies and is the key better-auth derives the encryption of the
// two-factor secrets and backup codes from. Without AUTH_SECRET, env.server.ts generates one
// into data/auth-secret. A database restored without the secret it was written with signs everyone out
// and, worse, holds second factors nobody can read: `npm run backup` keeps the secret beside its copy
// and `npm run restore` puts it back (README, "Backup and restore").

/** Where env.server.ts keeps the generated secret: `data/auth-secret` under the working folder. */
export function authSecretFile(dataDir = path.resolve("data")): string {
  return path.join(dataDir, "auth-secret");
}

/** The secret a backup was made with: beside the backup, named after it. */
export function backupSecretFile(backupFile: string): string {
  return `${backupFile}.auth-secret`;
}

/** A secret file's content, as env.server.ts reads it (trimmed), or null when there is none. */
export function readSecretFile(file: string): string | null {
  if (!existsSync(file)) return null;
  return readFileSync(file, "utf8").trim() || null;
}

/**
 * Writes `secret` readable and writable by its owner only (mode 600), whatever the umask and whatever
 * the modes of a file it replaces: written under another name with that mode, then renamed over.
 */
export function writeSecretFile(file: string, secret: string): void {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const staging = `${file}.${process.pid}.writing`;
  writeFileSync(staging, secret, { mode: 0o600 });
  chmodSync(staging, 0o600);
  renameSync(staging, file);
}

export type BackupSecretOutcome =
  /** The secret came from AUTH_SECRET: the operator keeps it, the backup cannot. */
  { kind: "environment" } | { kind: "written"; file: string };

/**
 * After a backup: the secret the database was written with, in `<backup>.auth-secret` (mode 600), unless
 * AUTH_SECRET comes from the environment, which a backup cannot read back on another machine.
 */
export function saveSecretWithBackup(
  backupFile: string,
  secret: { value: string; fromEnvironment: boolean },
): BackupSecretOutcome {
  if (secret.fromEnvironment) return { kind: "environment" };
  const file = backupSecretFile(backupFile);
  writeSecretFile(file, secret.value);
  return { kind: "written", file };
}

/** What a restore does with the secret saved beside the backup, decided before anything changes. */
export type SecretRestorePlan =
  /** An older backup, or one made with AUTH_SECRET: nothing to put back. */
  | { kind: "notInBackup"; environment: boolean; target: string }
  /** AUTH_SECRET is set and is the backup's: nothing to do. */
  | { kind: "environmentMatches" }
  /** AUTH_SECRET is set and is not the backup's: refused unless `keep`. */
  | { kind: "environmentDiffers"; backupFile: string; keep: boolean }
  /** data/auth-secret already holds the backup's secret. */
  | { kind: "same"; target: string }
  /** No secret here yet: the backup's is written. */
  | { kind: "write"; target: string; secret: string }
  /** Another secret is here: refused unless `replace` (the old one is kept aside) or `keep`. */
  | {
      kind: "differs";
      target: string;
      backupFile: string;
      secret: string;
      choice: "replace" | "keep" | null;
    };

export function planSecretRestore(input: {
  backupFile: string;
  /** AUTH_SECRET as the environment (or .env) sets it; undefined when unset or empty. */
  environmentSecret: string | undefined;
  dataDir?: string;
  replace: boolean;
  keep: boolean;
}): SecretRestorePlan {
  const backupFile = backupSecretFile(input.backupFile);
  const saved = readSecretFile(backupFile);
  if (!saved)
    return {
      kind: "notInBackup",
      environment: Boolean(input.environmentSecret),
      target: authSecretFile(input.dataDir),
    };
  if (input.environmentSecret)
    return input.environmentSecret === saved
      ? { kind: "environmentMatches" }
      : { kind: "environmentDiffers", backupFile, keep: input.keep };
  const target = authSecretFile(input.dataDir);
  const current = readSecretFile(target);
  if (current === saved) return { kind: "same", target };
  if (current === null) return { kind: "write", target, secret: saved };
  return {
    kind: "differs",
    target,
    backupFile,
    secret: saved,
    choice: input.replace ? "replace" : input.keep ? "keep" : null,
  };
}

/** A plan that must not go on: the message that says why and what to do. */
export function secretRestoreRefusal(plan: SecretRestorePlan): string | null {
  if (plan.kind === "environmentDiffers" && !plan.keep)
    return [
      `AUTH_SECRET in the environment is not the secret this backup was made with (${plan.backupFile}).`,
      "Set AUTH_SECRET to that file's content and run the restore again, or add --keep-secret to restore",
      "with the current secret: every session of the backup then ends and its two-factor secrets cannot be read.",
    ].join("\n");
  if (plan.kind === "differs" && plan.choice === null)
    return [
      `${plan.target} holds another secret than the one this backup was made with (${plan.backupFile}).`,
      "Add --replace-secret to put the backup's in its place (the current one is kept beside it), or",
      "--keep-secret to keep the current one: every session of the backup then ends and its two-factor",
      "secrets cannot be read.",
    ].join("\n");
  return null;
}

/**
 * Carries the plan out (after the database is restored) and says what was done. A replaced secret is
 * kept as `auth-secret.replaced-<time>` (mode 600): it may be the only key to data written since.
 */
export function applySecretRestore(plan: SecretRestorePlan, now = new Date()): string {
  const lost =
    "sessions made before the backup end, and second factors stored in it cannot be read: reset them with `npm run admin -- reset-2fa <email>`.";
  switch (plan.kind) {
    case "notInBackup":
      return plan.environment
        ? "The backup carries no auth secret: AUTH_SECRET from the environment is used; it must be the one the backup was made with."
        : `No auth secret beside the backup: ${plan.target} is left as it is. Sessions and second factors work only if it is the secret the backup was made with.`;
    case "environmentMatches":
      return "AUTH_SECRET from the environment is the secret the backup was made with.";
    case "environmentDiffers":
      return `Kept AUTH_SECRET from the environment (--keep-secret): ${lost}`;
    case "same":
      return `${plan.target} already holds the backup's auth secret.`;
    case "write":
      writeSecretFile(plan.target, plan.secret);
      return `Restored the auth secret to ${plan.target} (mode 600).`;
    case "differs": {
      if (plan.choice !== "replace")
        return `Kept the current ${plan.target} (--keep-secret): ${lost}`;
      const aside = `${plan.target}.replaced-${now.toISOString().replace(/[:.]/g, "-")}`;
      writeSecretFile(aside, readSecretFile(plan.target) ?? "");
      writeSecretFile(plan.target, plan.secret);
      return `Replaced ${plan.target} with the backup's auth secret (mode 600); the previous one is kept in ${aside}.`;
    }
  }
}
