import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "~/config/env.server";
import { createServices, prepareDatabase, type AppServices } from "~/context.server";
import { getSettings } from "~/domain/settings/settings.server";
import { createTestDatabaseUrl, dialects, testEnv } from "../support/test-database";

// FIRST_START_TWO_FACTOR_ROLES: the staff roles a new install requires two-factor sign-in of, written
// into its settings at the first start only. Unset: Owner and Billing. The suite's own servers set
// "none" (tests/support/test-env.ts); these start fresh databases without it.
describe.each(dialects)("FIRST_START_TWO_FACTOR_ROLES [%s]", (dialect) => {
  const drops: (() => Promise<void>)[] = [];
  const opened: AppServices[] = [];
  afterAll(async () => {
    for (const services of opened) await services.database.destroy();
    for (const drop of drops) await drop();
  });

  /** A fresh database started (migrated, seeded) with FIRST_START_TWO_FACTOR_ROLES = `value`. */
  async function start(value: string | undefined, url?: string) {
    let databaseUrl = url;
    if (!databaseUrl) {
      const database = await createTestDatabaseUrl(dialect);
      drops.push(database.drop);
      databaseUrl = database.url;
    }
    const services = createServices(
      testEnv(databaseUrl, {
        FIRST_START_TWO_FACTOR_ROLES: parseEnv({ FIRST_START_TWO_FACTOR_ROLES: value })
          .FIRST_START_TWO_FACTOR_ROLES,
      }),
    );
    opened.push(services);
    await prepareDatabase(services);
    return {
      services,
      url: databaseUrl,
      roles: (await getSettings(services.db)).security.twoFactorRoles,
    };
  }

  it("requires it of Owner and Billing on a new install when unset", async () => {
    expect((await start(undefined)).roles).toEqual(["owner", "billing"]);
    // An empty value in a .env file counts as unset.
    expect((await start("")).roles).toEqual(["owner", "billing"]);
  });

  it('requires it of no role with "none", and of the roles it lists otherwise, each once', async () => {
    expect((await start("none")).roles).toEqual([]);
    expect((await start("support")).roles).toEqual(["support"]);
    expect((await start("technician,owner,technician")).roles).toEqual(["owner", "technician"]);
  });

  it("is read at the first start only: a later start keeps what the settings say", async () => {
    const first = await start("none");
    expect(first.roles).toEqual([]);
    expect((await start(undefined, first.url)).roles).toEqual([]);
    expect((await start("owner,billing,support", first.url)).roles).toEqual([]);
  });
});

describe("FIRST_START_TWO_FACTOR_ROLES that is not a list of roles", () => {
  it("stops the start with a configuration error naming the variable", () => {
    for (const value of ["admins", "owner, billing", "Owner", "none,owner", "owner,", ","]) {
      let thrown: unknown;
      try {
        parseEnv({ FIRST_START_TWO_FACTOR_ROLES: value });
      } catch (error) {
        thrown = error;
      }
      expect(thrown, value).toBeInstanceOf(ConfigError);
      expect((thrown as Error).message, value).toBe(
        "Invalid configuration:\n" +
          '  FIRST_START_TWO_FACTOR_ROLES: must be "none" or roles from owner, billing, support, technician, separated by commas',
      );
    }
  });
});
