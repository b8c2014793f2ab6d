import cluster from "node:cluster";
import type { Kysely } from "kysely";
import { createContext, RouterContextProvider } from "react-router";
import { ConfigError, getEnv, type Env } from "~/config/env.server";
import { staffRoleOf, type StaffRole } from "~/domain/staff/permissions";
import { createDatabase, type DatabaseHandle } from "~/db/database.server";
import { migrateToLatest } from "~/db/migrate.server";
import type { Database } from "~/db/schema";
import { ensureFirstAdmin, getCurrentSession } from "~/domain/accounts/accounts.server";
import { createAuth, type Auth } from "~/domain/accounts/auth.server";
import { seedCatalogue } from "~/domain/catalogue/catalogue.server";
import { seedVouchers } from "~/domain/orders/orders.server";
import { seedAnnouncements } from "~/domain/announcements/announcements.server";
import { seedPaymentMethods } from "~/domain/payments/payment-methods.server";
import { seedCannedReplies } from "~/domain/tickets/canned-replies.server";
import { seedKnowledgeBase } from "~/domain/knowledgebase/knowledgebase.server";
import { keepMailUnsent } from "~/domain/mail/outbox-mode.server";
import type { Settings } from "~/domain/settings/settings";
import { getSettings, seedSettings } from "~/domain/settings/settings.server";
import { installedProviders } from "~/domain/payments/online-providers.server";
import type { PaymentProvider, ProviderCode } from "~/domain/payments/providers/provider";
import { readPanelAddress } from "~/domain/provisioning/panel-connection.server";
import { presentSession, type PresentedSession } from "~/domain/staff/view-as.server";
import { pickLocale, type Locale } from "~/i18n/locales";
import { sharedI18n } from "~/i18n/shared-i18n.server";
import type { Translator } from "~/i18n/translator";
import { logger } from "~/lib/logger.server";

/** What one server process holds for its whole life. */
export interface AppServices {
  env: Env;
  database: DatabaseHandle;
  db: Kysely<Database>;
  auth: Auth;
  settings: SettingsCache;
  /** Attempts a minute from one address before login is throttled (LOGIN_IP_LIMIT_PER_MINUTE). */
  loginIpLimit: number;
  /**
   * Outgoing mail reaches people (SMTP_URL is set). Without it messages are kept in the outbox, and
   * nothing that needs a link by mail is offered or asked: self-service reset, verified addresses, an
   * address change confirmed by link (docs/mail.md). Decided here once, for every page.
   */
  mailEnabled: boolean;
  /**
   * What a request calls now, where a route hands the moment to the domain (a file named after the
   * day): the system clock, or a test's, which can then tell which day the server saw.
   */
  clock: () => Date;
  /** The online payment providers' clients (docs/online-payments.md): a test gives scripted ones. */
  paymentProviders: Record<ProviderCode, PaymentProvider>;
}

export interface SettingsCache {
  get(): Promise<Settings>;
  /**
   * The connected game panel's address, or null: the footer's game-panel link follows it on every page,
   * so it is kept here with the settings rather than read for each request (saving the connection
   * invalidates it as a settings write does).
   */
  panelUrl(): Promise<string | null>;
  /** After a write: forget here and tell the other server processes. */
  invalidate(): void;
  /** Another server process wrote: forget here only. */
  forget(): void;
}

/** The message a server process sends its siblings (through the cluster primary) after a settings write. */
export const SETTINGS_CHANGED_MESSAGE = "hostfront:settings-changed";

function createSettingsCache(db: Kysely<Database>): SettingsCache {
  // A write through invalidate() is seen at once by this process and, with several server processes
  // (WEB_CONCURRENCY), by the others as soon as the cluster primary relays the message. The short expiry
  // only matters for writes made outside the server (the admin CLI).
  let cached: { value: Promise<Settings>; at: number } | undefined;
  let panel: { value: Promise<string | null>; at: number } | undefined;
  return {
    get() {
      if (!cached || Date.now() - cached.at > 5000) {
        const value = getSettings(db);
        cached = { value, at: Date.now() };
        value.catch(() => (cached = undefined));
      }
      return cached.value;
    },
    panelUrl() {
      if (!panel || Date.now() - panel.at > 5000) {
        const value = readPanelAddress(db);
        panel = { value, at: Date.now() };
        value.catch(() => (panel = undefined));
      }
      return panel.value;
    },
    invalidate() {
      cached = undefined;
      panel = undefined;
      if (cluster.isWorker) process.send?.(SETTINGS_CHANGED_MESSAGE);
    },
    forget() {
      cached = undefined;
      panel = undefined;
    },
  };
}

export function createServices(
  env: Env,
  options: { loginIpLimit?: number; clock?: () => Date } = {},
): AppServices {
  const database = createDatabase(env.DATABASE_URL, {
    onConnectionError: (error) =>
      logger.warn(
        { err: error },
        "the database dropped a connection; the next query opens another",
      ),
  });
  const { db } = database;
  const auth = createAuth({
    database: database.authDatabase,
    secret: env.AUTH_SECRET,
    baseURL: env.PUBLIC_URL,
    discord:
      env.DISCORD_CLIENT_ID && env.DISCORD_CLIENT_SECRET
        ? {
            clientId: env.DISCORD_CLIENT_ID,
            clientSecret: env.DISCORD_CLIENT_SECRET,
            baseUrl: env.DISCORD_BASE_URL,
          }
        : undefined,
    roleOf: async (userId) =>
      (await db.selectFrom("users").select("role").where("id", "=", userId).executeTakeFirst())
        ?.role,
  });
  return {
    env,
    database,
    db,
    auth,
    settings: createSettingsCache(db),
    loginIpLimit: options.loginIpLimit ?? env.LOGIN_IP_LIMIT_PER_MINUTE,
    mailEnabled: Boolean(env.SMTP_URL),
    clock: options.clock ?? (() => new Date()),
    paymentProviders: installedProviders(),
  };
}

/** FIRST_START_TWO_FACTOR_ROLES read: the roles it names, none for "none", the default when unset. */
function firstStartTwoFactorRoles(env: Env): StaffRole[] | undefined {
  const value = env.FIRST_START_TWO_FACTOR_ROLES;
  if (value === undefined) return undefined;
  return value === "none" ? [] : [...new Set(value.split(",").map((role) => staffRoleOf(role)!))];
}

/** Migrate, seed what is missing, and make sure an admin exists. Safe to run at every start. */
export async function prepareDatabase(services: AppServices): Promise<void> {
  await migrateToLatest(services.db);
  await seedSettings(services.db, { twoFactorRoles: firstStartTwoFactorRoles(services.env) });
  await seedCatalogue(services.db);
  await seedVouchers(services.db);
  await seedAnnouncements(services.db);
  await seedPaymentMethods(services.db);
  await seedCannedReplies(services.db);
  await seedKnowledgeBase(services.db);
  const admin = await ensureFirstAdmin(services, {
    email: services.env.ADMIN_EMAIL,
    password: services.env.ADMIN_PASSWORD,
  });
  if (admin?.status === "refused") {
    // Stops the start, naming the variable, like any other wrong setting.
    throw new ConfigError(`Invalid configuration:\n  ADMIN_PASSWORD: ${admin.reason}`);
  }
  if (admin?.status === "created" && admin.generatedPassword) {
    // Printed once, to the server's own log and never to a browser; it must be changed at first login.
    logger.warn(
      `Created the first admin ${admin.email} with the one-time password ${admin.generatedPassword} (change it at first login)`,
    );
  } else if (admin) {
    logger.info(`First admin ready: ${admin.email} (${admin.status})`);
  }
}

let booted: Promise<AppServices> | undefined;

export function bootServices(): Promise<AppServices> {
  booted ??= (async () => {
    const services = createServices(getEnv());
    // Without SMTP_URL this process keeps the mail it queues, unwritten and without send jobs.
    keepMailUnsent(!services.mailEnabled);
    await prepareDatabase(services);
    process.on("message", (message) => {
      if (message === SETTINGS_CHANGED_MESSAGE) services.settings.forget();
    });
    return services;
  })();
  return booted;
}

/** A translator for responses made before React Router runs (refusals in server/app.ts). */
export async function translatorFor(
  services: AppServices,
  request: { cookie: string | null; acceptLanguage: string | null },
) {
  const settings = await services.settings.get();
  const locale = pickLocale({
    userLocale: null,
    cookie: request.cookie,
    acceptLanguage: request.acceptLanguage,
    siteDefault: settings.general.defaultLocale,
  });
  return (await sharedI18n(locale)).getFixedT(null, "common");
}

/** What every loader and action reads through requestContext(context) (built once per request). */
export interface RequestContext {
  services: AppServices;
  /**
   * The signed-in session, as the pages see it: while a member of the staff views the site as a customer
   * (app/domain/staff/view-as.server.ts), `user` is the customer and `viewer` the member of the staff.
   */
  session: PresentedSession | null;
  settings: Settings;
  locale: Locale;
  /** The request's translator: loaders use it for page titles, entry.server to render. */
  i18n: Translator;
  cspNonce: string;
  clientIp: string;
}

export async function createRequestContext(
  services: AppServices,
  request: { cookie: string | null; acceptLanguage: string | null; queryLocale?: string | null },
  extra: { cspNonce: string; clientIp: string },
): Promise<RequestContext> {
  const [current, settings] = await Promise.all([
    getCurrentSession(services, request.cookie),
    services.settings.get(),
  ]);
  const session = await presentSession(services.db, current);
  const locale = pickLocale({
    queryLocale: request.queryLocale,
    // The person reading: a member of the staff viewing as a customer reads in their own language.
    userLocale: (session?.viewer ?? session?.user)?.locale ?? null,
    cookie: request.cookie,
    acceptLanguage: request.acceptLanguage,
    siteDefault: settings.general.defaultLocale,
  });
  const i18n = await sharedI18n(locale);
  return { services, session, settings, locale, i18n, ...extra };
}

/**
 * The request context's key in React Router's context (its middleware context, ADR 18). server/app.ts builds the
 * request context before React Router runs (the maintenance gate and the private-responses rule read
 * it) and hands it over under this key.
 */
const requestContextKey = createContext<RequestContext>();

/** What getLoadContext returns: React Router's context holding the request's. */
export function routerContextFor(context: RequestContext): RouterContextProvider {
  const provider = new RouterContextProvider();
  provider.set(requestContextKey, context);
  return provider;
}

/** The request's context inside a loader, an action or entry.server: `requestContext(context).session`. */
export function requestContext(context: Readonly<RouterContextProvider>): RequestContext {
  return context.get(requestContextKey);
}

/**
 * A route middleware's change to the request's context, seen by every loader and action after it (the
 * read-only view's database, app/http/view-as-gate.server.ts).
 */
export function replaceRequestContext(
  provider: Readonly<RouterContextProvider>,
  context: RequestContext,
) {
  provider.set(requestContextKey, context);
}
