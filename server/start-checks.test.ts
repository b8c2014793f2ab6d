import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "../app/config/env.server";
import { insecurePublicUrlWarning, isConfigError, listenHost } from "./start-checks";

describe("insecurePublicUrlWarning", () => {
  const production = (PUBLIC_URL: string) =>
    insecurePublicUrlWarning({ NODE_ENV: "production", PUBLIC_URL });

  it("warns about plain HTTP on a real host in production", () => {
    for (const url of [
      "http://shop.example",
      "http://shop.example:3000/",
      "http://203.0.113.7:3000",
      "http://[2001:db8::1]:3000",
      "http://localhost.evil.example",
      "http://127.example",
    ])
      expect(production(url), url).toMatch(/^PUBLIC_URL is http:\/\/.*HTTPS/);
  });

  it("is quiet over HTTPS, on this machine, and outside production", () => {
    for (const url of [
      "https://shop.example",
      "http://localhost:3000",
      "http://LOCALHOST:3000",
      "http://admin.localhost",
      "http://127.0.0.1:3510",
      "http://127.1.2.3",
      "http://[::1]:3000",
    ])
      expect(production(url), url).toBeNull();
    expect(
      insecurePublicUrlWarning({ NODE_ENV: "development", PUBLIC_URL: "http://shop.example" }),
    ).toBeNull();
  });
});

describe("listenHost", () => {
  it("listens on every interface in production and on loopback only otherwise", () => {
    expect(listenHost({ NODE_ENV: "production" })).toBeUndefined();
    expect(listenHost({ NODE_ENV: "development" })).toBe("127.0.0.1");
    expect(listenHost({ NODE_ENV: "test" })).toBe("127.0.0.1");
  });
});

describe("isConfigError", () => {
  it("knows a ConfigError by its name, whichever copy of the class made it", () => {
    expect(isConfigError(new ConfigError("x"))).toBe(true);
    class ConfigErrorFromTheBuild extends Error {
      override name = "ConfigError";
    }
    expect(isConfigError(new ConfigErrorFromTheBuild("x"))).toBe(true);
    expect(isConfigError(new Error("x"))).toBe(false);
    expect(isConfigError("ConfigError")).toBe(false);
  });
});

describe("NODE_ENV", () => {
  it("is production unless asked otherwise (only npm run dev asks for development)", () => {
    expect(parseEnv({}).NODE_ENV).toBe("production");
    expect(parseEnv({ NODE_ENV: "" }).NODE_ENV).toBe("production");
    expect(parseEnv({ NODE_ENV: "development" }).NODE_ENV).toBe("development");
  });
});
