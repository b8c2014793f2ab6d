import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "~/lib/zod";
import { parseByteSize } from "./byte-size";
import { defaultMailFrom, parseMailFrom, parseSmtpUrl } from "./mail-settings";
import { parseTrustProxy } from "./trust-proxy.server";

/** A body size limit: bytes, or KiB / MiB (docs/security.md). */
const bodyLimit = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value, ctx) => {
      const bytes = parseByteSize(value);
      if (bytes === null || bytes < 1024 || bytes > 64 * 1024 ** 2) {
        ctx.addIssue({
          code: "custom",
          message: "must be a size between 1KiB and 64MiB, e.g. 65536, 64KiB or 1MiB",
        });
        return z.NEVER;
      }
      return bytes;
    });

/** A text setting read by one of the parsers of this folder, its message shown when it is refused. */
const checked = (
  parse: (value: string) => { ok: true; value: string } | { ok: false; message: string },
) =>
  z.string().transform((value, ctx) => {
    const parsed = parse(value);
    if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: parsed.message });
      return z.NEVER;
    }
    return parsed.value;
  });

const envSchema = z.object({
  // Production unless asked otherwise: only `npm run dev` asks for development (Vite's middleware).
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .default("file:./data/hostfront.db")
    .refine((value) => /^(file:|postgres:\/\/|postgresql:\/\/)/.test(value), {
      message: "must start with file: (SQLite) or postgres:// (PostgreSQL)",
    }),
  AUTH_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  // Unset: http://localhost:<PORT>, the address the server answers on (withDerivedDefaults).
  PUBLIC_URL: z.url().optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(6, "must be at least 6 characters").optional(),
  // The staff roles a new install requires two-factor sign-in of, written into its settings at the first
  // start only (an owner changes them on /admin/settings): a comma-separated list of roles, or "none".
  // Unset: owner and billing (docs/staff.md).
  FIRST_START_TWO_FACTOR_ROLES: z
    .string()
    .regex(
      /^(none|(owner|billing|support|technician)(,(owner|billing|support|technician))*)$/,
      'must be "none" or roles from owner, billing, support, technician, separated by commas',
    )
    .optional(),
  ENTRY_GATE: z.enum(["on", "off"]).default("on"),
  // Unset: info, or silent under the test runner (NODE_ENV=test), see withDerivedDefaults.
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).optional(),
  // Where `npm run build` wrote the site (react-router.config.ts reads it at build time, before this runs).
  BUILD_DIR: z.string().default("build"),
  // Server processes in production (node:cluster); one per core uses the machine. Development runs one.
  WEB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(1),
  // Request limits and the client address they count by (docs/security.md).
  FORM_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(60),
  // Sign-in attempts a minute from one address before login is throttled (spec: 20; tests raise it).
  LOGIN_IP_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(20),
  BODY_LIMIT_PUBLIC: bodyLimit("64KiB"),
  BODY_LIMIT_CUSTOMER: bodyLimit("64KiB"),
  BODY_LIMIT_ADMIN: bodyLimit("1MiB"),
  // Posts that carry files (the top-up proofs: three of 5 MiB, and the form around them).
  BODY_LIMIT_UPLOAD: bodyLimit("16MiB"),
  // The background worker (docs/automation.md): on in every server process unless turned off here;
  // `npm run worker` runs a process that only works. Times in milliseconds, so tests run in seconds.
  WORKER: z.enum(["on", "off"]).default("on"),
  WORKER_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  WORKER_LEASE_MS: z.coerce.number().int().min(500).max(86_400_000).default(300_000),
  WORKER_BACKOFF_MS: z.coerce.number().int().min(10).max(86_400_000).default(30_000),
  WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  WORKER_STOP_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).default(20_000),
  // The game panel (docs/provisioning.md): one call's limit, how often a server being installed
  // is looked at, and how long an install may take before it is a failure.
  PANEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  PANEL_POLL_MS: z.coerce.number().int().min(10).max(600_000).default(15_000),
  PANEL_INSTALL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(86_400_000).default(3_600_000),
  // Outgoing mail (docs/mail.md). Unset: messages are kept in the outbox and shown at /admin/mail.
  SMTP_URL: checked(parseSmtpUrl).optional(),
  // The sender; unset: "Hostfront <no-reply@" + PUBLIC_URL's host + ">" (withDerivedDefaults).
  MAIL_FROM: checked(parseMailFrom).optional(),
  // How many campaign messages the worker sends a minute (docs/mail.md#campaigns): mail providers
  // throttle or refuse a sender that suddenly sends thousands.
  CAMPAIGN_MAILS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(60),
  // Sign in with Discord (docs/discord.md): the OAuth application's id and secret; unset, no Discord
  // button appears. The base address is Discord's; tests and a trial point it at a stand-in.
  DISCORD_CLIENT_ID: z.string().min(1).optional(),
  DISCORD_CLIENT_SECRET: z.string().min(1).optional(),
  DISCORD_BASE_URL: z.url().default("https://discord.com"),
  // A monitor's key to /healthz?deep=1 (sent as "Authorization: Bearer <token>"); admins need none.
  HEALTHZ_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  TRUST_PROXY: z
    .string()
    .default("loopback")
    .transform((value, ctx) => {
      const parsed = parseTrustProxy(value);
      if (!parsed.ok) {
        ctx.addIssue({ code: "custom", message: parsed.message });
        return z.NEVER;
      }
      return parsed.value;
    }),
});

type ParsedEnv = Omit<z.infer<typeof envSchema>, "LOG_LEVEL" | "MAIL_FROM" | "PUBLIC_URL"> & {
  LOG_LEVEL: NonNullable<z.infer<typeof envSchema>["LOG_LEVEL"]>;
  MAIL_FROM: string;
  PUBLIC_URL: string;
};

export type Env = ParsedEnv & { AUTH_SECRET: string };

export class ConfigError extends Error {
  // Named, so server/index.ts recognises one thrown from inside the server build (another copy of this class).
  override name = "ConfigError";
}

/** Empty strings count as unset, so `ADMIN_EMAIL=` in a .env file does not fail validation. */
function withoutEmpty(source: NodeJS.ProcessEnv) {
  return Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
}

/** Defaults that depend on another setting. */
function withDerivedDefaults(parsed: z.infer<typeof envSchema>): ParsedEnv {
  // The links the site writes (mail, redirects) lead back to this server when nothing else is said.
  const publicUrl = parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`;
  return {
    ...parsed,
    PUBLIC_URL: publicUrl,
    LOG_LEVEL: parsed.LOG_LEVEL ?? (parsed.NODE_ENV === "test" ? "silent" : "info"),
    MAIL_FROM: parsed.MAIL_FROM ?? defaultMailFrom(publicUrl),
  };
}

export function parseEnv(source: NodeJS.ProcessEnv): ParsedEnv {
  const result = envSchema.safeParse(withoutEmpty(source));
  if (!result.success) {
    const lines = result.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return withDerivedDefaults(result.data);
}

/**
 * The settings a module needs while it loads (the logger's level), before server/index.ts has called
 * getEnv(): read through the same schema, without getEnv()'s side effects (loading .env, making
 * AUTH_SECRET). A wrong value gets its default here, so the module still loads and getEnv() at start
 * then stops the server with the message that names it.
 */
export function readEnvEarly<K extends keyof ParsedEnv>(
  keys: readonly K[],
  source: NodeJS.ProcessEnv = process.env,
): Pick<ParsedEnv, K> {
  const valid = Object.fromEntries(
    Object.entries(withoutEmpty(source)).filter(
      ([name, value]) =>
        name in envSchema.shape &&
        envSchema.shape[name as keyof typeof envSchema.shape].safeParse(value).success,
    ),
  );
  const parsed = parseEnv(valid);
  return Object.fromEntries(keys.map((key) => [key, parsed[key]])) as Pick<ParsedEnv, K>;
}

/**
 * AUTH_SECRET signs session cookies. When it is not configured we generate one on first start and
 * keep it next to the database, so sessions survive restarts without anyone writing a secret down.
 */
function resolveAuthSecret(parsed: ParsedEnv, dataDir: string): string {
  if (parsed.AUTH_SECRET) return parsed.AUTH_SECRET;
  const file = path.join(dataDir, "auth-secret");
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString("hex");
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

let cached: Env | undefined;

export function getEnv(): Env {
  if (cached) return cached;
  // A .env file is optional; variables already set in the environment win over it.
  if (existsSync(".env")) process.loadEnvFile(".env");
  const parsed = parseEnv(process.env);
  cached = { ...parsed, AUTH_SECRET: resolveAuthSecret(parsed, path.resolve("data")) };
  return cached;
}
