import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv, readEnvEarly } from "./env.server";

describe("parseEnv", () => {
  it("has the documented defaults", () => {
    expect(parseEnv({})).toMatchObject({
      PORT: 3000,
      DATABASE_URL: "file:./data/hostfront.db",
      PUBLIC_URL: "http://localhost:3000",
      ENTRY_GATE: "on",
      WEB_CONCURRENCY: 1,
      NODE_ENV: "production",
      LOG_LEVEL: "info",
      BUILD_DIR: "build",
      FORM_RATE_LIMIT_PER_MINUTE: 60,
      LOGIN_IP_LIMIT_PER_MINUTE: 20,
      BODY_LIMIT_PUBLIC: 65536,
      BODY_LIMIT_CUSTOMER: 65536,
      BODY_LIMIT_ADMIN: 1048576,
      BODY_LIMIT_UPLOAD: 16777216,
      TRUST_PROXY: ["loopback"],
    });
  });

  it("links back to the port it serves on when no public address is set", () => {
    expect(parseEnv({ PORT: "3300" })).toMatchObject({
      PUBLIC_URL: "http://localhost:3300",
      MAIL_FROM: "Hostfront <no-reply@localhost>",
    });
    expect(parseEnv({ PORT: "3300", PUBLIC_URL: "https://play.example.ma" }).PUBLIC_URL).toBe(
      "https://play.example.ma",
    );
  });

  it("reads the request limits and the proxies to trust", () => {
    expect(
      parseEnv({
        FORM_RATE_LIMIT_PER_MINUTE: "5",
        BODY_LIMIT_PUBLIC: "16KiB",
        BODY_LIMIT_ADMIN: "2097152",
        BODY_LIMIT_UPLOAD: "20MiB",
        TRUST_PROXY: "1",
      }),
    ).toMatchObject({
      FORM_RATE_LIMIT_PER_MINUTE: 5,
      BODY_LIMIT_PUBLIC: 16384,
      BODY_LIMIT_ADMIN: 2097152,
      BODY_LIMIT_UPLOAD: 20971520,
      TRUST_PROXY: 1,
    });
  });

  it("logs nothing under the test runner unless a level is asked for", () => {
    expect(parseEnv({ NODE_ENV: "test" }).LOG_LEVEL).toBe("silent");
    expect(parseEnv({ NODE_ENV: "development" }).LOG_LEVEL).toBe("info");
    expect(parseEnv({ NODE_ENV: "test", LOG_LEVEL: "warn" }).LOG_LEVEL).toBe("warn");
  });

  it("reads the login limit, the log level and the build folder", () => {
    expect(
      parseEnv({
        LOGIN_IP_LIMIT_PER_MINUTE: "1000",
        LOG_LEVEL: "debug",
        BUILD_DIR: ".tmp/build-x",
      }),
    ).toMatchObject({
      LOGIN_IP_LIMIT_PER_MINUTE: 1000,
      LOG_LEVEL: "debug",
      BUILD_DIR: ".tmp/build-x",
    });
  });

  it("treats empty values as unset", () => {
    expect(parseEnv({ ADMIN_EMAIL: "", PORT: "" })).toMatchObject({ PORT: 3000 });
  });

  it("throws a ConfigError that names the variable and its wrong value", () => {
    expect(() => parseEnv({ PORT: "eighty" })).toThrow(ConfigError);
    expect(() => parseEnv({ TRUST_PROXY: "cloudflare" })).toThrow(/TRUST_PROXY: "cloudflare"/);
  });

  it.each([
    ["PORT", "eighty"],
    ["DATABASE_URL", "mysql://x"],
    ["ENTRY_GATE", "maybe"],
    ["AUTH_SECRET", "short"],
    ["WEB_CONCURRENCY", "0"],
    ["WEB_CONCURRENCY", "two"],
    ["FORM_RATE_LIMIT_PER_MINUTE", "0"],
    ["LOGIN_IP_LIMIT_PER_MINUTE", "0"],
    ["LOGIN_IP_LIMIT_PER_MINUTE", "twenty"],
    ["LOG_LEVEL", "loud"],
    ["NODE_ENV", "staging"],
    ["BODY_LIMIT_PUBLIC", "64 apples"],
    ["BODY_LIMIT_ADMIN", "100"],
    ["BODY_LIMIT_CUSTOMER", "1GiB"],
    ["BODY_LIMIT_UPLOAD", "65MiB"],
    ["TRUST_PROXY", "true"],
  ])("names %s when it is %j", (name, value) => {
    expect(() => parseEnv({ [name]: value })).toThrow(new RegExp(name));
  });

  it("reads the background worker's switch and times, and refuses wrong ones by name", () => {
    expect(parseEnv({})).toMatchObject({
      WORKER: "on",
      WORKER_POLL_MS: 1000,
      WORKER_LEASE_MS: 300_000,
      WORKER_BACKOFF_MS: 30_000,
      WORKER_CONCURRENCY: 2,
      WORKER_STOP_TIMEOUT_MS: 20_000,
    });
    expect(
      parseEnv({ WORKER: "off", WORKER_POLL_MS: "50", WORKER_LEASE_MS: "2000" }),
    ).toMatchObject({ WORKER: "off", WORKER_POLL_MS: 50, WORKER_LEASE_MS: 2000 });
    expect(() => parseEnv({ WORKER: "no" })).toThrow(/WORKER/);
    expect(() => parseEnv({ WORKER_POLL_MS: "fast" })).toThrow(/WORKER_POLL_MS/);
    expect(() => parseEnv({ WORKER_LEASE_MS: "10" })).toThrow(/WORKER_LEASE_MS/);
    expect(() => parseEnv({ WORKER_CONCURRENCY: "0" })).toThrow(/WORKER_CONCURRENCY/);
  });
});

describe("readEnvEarly", () => {
  it("reads settings through the schema, with its defaults", () => {
    expect(readEnvEarly(["LOG_LEVEL", "BUILD_DIR"], { LOG_LEVEL: "warn" })).toEqual({
      LOG_LEVEL: "warn",
      BUILD_DIR: "build",
    });
    expect(readEnvEarly(["LOG_LEVEL"], { NODE_ENV: "test" })).toEqual({ LOG_LEVEL: "silent" });
  });

  it("gives a wrong value its default, leaving the message to the start", () => {
    expect(readEnvEarly(["LOG_LEVEL", "NODE_ENV"], { LOG_LEVEL: "loud", PORT: "eighty" })).toEqual({
      LOG_LEVEL: "info",
      NODE_ENV: "production",
    });
  });
});
