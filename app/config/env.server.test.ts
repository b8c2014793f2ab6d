import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env.server";

describe("parseEnv", () => {
  it("has the documented defaults", () => {
    expect(parseEnv({})).toMatchObject({
      PORT: 3000,
      DATABASE_URL: "file:./data/hostfront.db",
      PUBLIC_URL: "http://localhost:3000",
      ENTRY_GATE: "on",
      WEB_CONCURRENCY: 1,
    });
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ ADMIN_EMAIL: "", PORT: "" })).toMatchObject({ PORT: 3000 });
  });

  it("names the variable that is wrong", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(/PORT/);
    expect(() => parseEnv({ DATABASE_URL: "mysql://x" })).toThrow(/DATABASE_URL/);
    expect(() => parseEnv({ ENTRY_GATE: "maybe" })).toThrow(/ENTRY_GATE/);
    expect(() => parseEnv({ AUTH_SECRET: "short" })).toThrow(/AUTH_SECRET/);
    expect(() => parseEnv({ WEB_CONCURRENCY: "0" })).toThrow(/WEB_CONCURRENCY/);
    expect(() => parseEnv({ WEB_CONCURRENCY: "two" })).toThrow(/WEB_CONCURRENCY/);
  });
});
