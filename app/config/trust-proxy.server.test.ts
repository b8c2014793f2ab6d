import express from "express";
import { describe, expect, it } from "vitest";
import { parseTrustProxy, type TrustProxy } from "./trust-proxy.server";

function parsed(raw: string): TrustProxy {
  const result = parseTrustProxy(raw);
  if (!result.ok) throw new Error(result.message);
  return result.value;
}

/** Express's own reading of the value: is the hop at `address` (index `hop` from the socket) trusted? */
function trusts(value: TrustProxy, address: string, hop = 0): boolean {
  const app = express();
  app.set("trust proxy", value);
  return (app.get("trust proxy fn") as (address: string, hop: number) => boolean)(address, hop);
}

describe("TRUST_PROXY", () => {
  it("reads names, addresses, ranges, hop counts and none", () => {
    expect(parsed("loopback")).toEqual(["loopback"]);
    expect(parsed(" loopback, 173.245.48.0/20 ,2400:cb00::/32, 10.0.0.7 ")).toEqual([
      "loopback",
      "173.245.48.0/20",
      "2400:cb00::/32",
      "10.0.0.7",
    ]);
    expect(parsed("linklocal,uniquelocal")).toEqual(["linklocal", "uniquelocal"]);
    expect(parsed("1")).toBe(1);
    expect(parsed("2")).toBe(2);
    expect(parsed("0")).toBe(false);
    expect(parsed("none")).toBe(false);
  });

  it("refuses what is not an address, a range, a name or a hop count, saying what it takes", () => {
    for (const raw of [
      "",
      " , ",
      "localhost",
      "10.0.0.256",
      "10.0.0.0/33",
      "::1/129",
      "10.0.0.0/8/8",
      "10.0.0.0/",
      "/8",
      "fe80::1%eth0",
      "loopback;10.0.0.1",
      "-1",
      "1.5",
      "11",
    ]) {
      const result = parseTrustProxy(raw);
      expect(result.ok, JSON.stringify(raw)).toBe(false);
    }
    const wrong = parseTrustProxy("loopback, cloudflare");
    expect(!wrong.ok && wrong.message).toMatch(/"cloudflare" is not an address/);
  });

  it("refuses trusting every proxy, which would let anyone choose their address", () => {
    for (const raw of ["true", "TRUE", "all", "*"]) {
      const result = parseTrustProxy(raw);
      expect(!result.ok && result.message, raw).toMatch(/any visitor/);
    }
  });

  it("gives Express values it accepts and reads as meant", () => {
    expect(trusts(parsed("loopback"), "127.0.0.1")).toBe(true);
    expect(trusts(parsed("loopback"), "::1")).toBe(true);
    expect(trusts(parsed("loopback"), "203.0.113.9")).toBe(false);
    expect(trusts(parsed("173.245.48.0/20"), "173.245.50.1")).toBe(true);
    expect(trusts(parsed("173.245.48.0/20"), "173.245.64.1")).toBe(false);
    expect(trusts(parsed("2400:cb00::/32"), "2400:cb00:1::5")).toBe(true);
    expect(trusts(parsed("1"), "203.0.113.9", 0)).toBe(true);
    expect(trusts(parsed("1"), "203.0.113.9", 1)).toBe(false);
    expect(trusts(parsed("none"), "127.0.0.1")).toBe(false);
    expect(trusts(parsed("0"), "127.0.0.1")).toBe(false);
  });
});
