import { describe, expect, it } from "vitest";
import { isCrossSiteRequest, refusedAsCrossSite } from "./same-origin";

describe("isCrossSiteRequest", () => {
  const host = { host: "shop.example:3000" };

  it("never blocks reads", () => {
    expect(isCrossSiteRequest("GET", { ...host, "sec-fetch-site": "cross-site" })).toBe(false);
  });

  it("blocks a cross-site POST by Fetch Metadata or Origin", () => {
    expect(isCrossSiteRequest("POST", { ...host, "sec-fetch-site": "cross-site" })).toBe(true);
    expect(isCrossSiteRequest("POST", { ...host, origin: "https://evil.example" })).toBe(true);
    expect(isCrossSiteRequest("POST", { ...host, origin: "null" })).toBe(true);
  });

  it("trusts Fetch Metadata over an Origin of null (a same-origin form under no-referrer)", () => {
    expect(
      isCrossSiteRequest("POST", { ...host, origin: "null", "sec-fetch-site": "same-origin" }),
    ).toBe(false);
    expect(
      isCrossSiteRequest("POST", { ...host, origin: "null", "sec-fetch-site": "same-site" }),
    ).toBe(true);
  });

  it("lets a same-origin POST through", () => {
    expect(
      isCrossSiteRequest("POST", {
        ...host,
        origin: "http://shop.example:3000",
        "sec-fetch-site": "same-origin",
      }),
    ).toBe(false);
    expect(isCrossSiteRequest("POST", host)).toBe(false);
  });
});

describe("refusedAsCrossSite", () => {
  const crossSite = {
    host: "shop.example",
    "sec-fetch-site": "cross-site",
    origin: "https://paypal.com",
  };

  it("lets a payment provider's notification through, whatever it says of its origin", () => {
    expect(refusedAsCrossSite("POST", "/hooks/payments/paypal", crossSite)).toBe(false);
    expect(refusedAsCrossSite("POST", "/hooks/payments/youcanpay", { host: "shop.example" })).toBe(
      false,
    );
  });

  it("still refuses every other cross-site post, a look-alike path included", () => {
    expect(refusedAsCrossSite("POST", "/dashboard/top-up", crossSite)).toBe(true);
    expect(refusedAsCrossSite("POST", "/hooksx/payments/paypal", crossSite)).toBe(true);
    expect(refusedAsCrossSite("POST", "/top-up/hooks/payments/paypal", crossSite)).toBe(true);
  });
});

describe("the one-click unsubscribe address (RFC 8058)", () => {
  const crossSite = { host: "shop.example:3000", "sec-fetch-site": "cross-site" };

  it("takes a provider's cross-site post at exactly /unsubscribe, nowhere else", () => {
    expect(refusedAsCrossSite("POST", "/unsubscribe", crossSite)).toBe(false);
    for (const path of ["/unsubscribe/x", "/unsubscribes", "/newsletter", "/admin/unsubscribe"])
      expect(refusedAsCrossSite("POST", path, crossSite), path).toBe(true);
  });
});
