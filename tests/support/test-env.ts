import { parseEnv, type Env } from "~/config/env.server";

export const TEST_ADMIN = { email: "admin@hostfront.test", password: "Adm1n-test-password-42" };

/** The settings of a test's services: a test database, the test admin, a fixed secret. */
export function testEnv(databaseUrl: string, overrides: Partial<Env> = {}): Env {
  return {
    ...parseEnv({ NODE_ENV: "test", DATABASE_URL: databaseUrl }),
    AUTH_SECRET: "test-secret-0123456789abcdef0123456789abcdef",
    ADMIN_EMAIL: TEST_ADMIN.email,
    ADMIN_PASSWORD: TEST_ADMIN.password,
    // The suite's admin signs in with a password alone, as most tests are about something else; the
    // tests of the two-factor requirement turn it on (or start without this).
    FIRST_START_TWO_FACTOR_ROLES: "none",
    ...overrides,
  };
}

/**
 * The system clock, remembering what it last said: a test gives it to the services (`clock`) and reads
 * the moment the server used, instead of reading the clock itself (which may have passed midnight).
 */
export function recordingClock() {
  let last: Date | undefined;
  const clock = () => (last = new Date());
  return Object.assign(clock, {
    last(): Date {
      if (!last) throw new Error("the clock was not read");
      return last;
    },
  });
}
