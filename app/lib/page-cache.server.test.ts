import { describe, expect, it } from "vitest";
import { createPageCache, pageCacheKey } from "./page-cache.server";

const parts = { url: "http://localhost/about", locale: "en", bot: false, year: 2026 };

describe("pageCacheKey", () => {
  it("differs when anything the render reads differs", () => {
    const base = pageCacheKey({
      ...parts,
      loaderData: { root: { user: null }, page: { price: 500 } },
    });
    expect(base).not.toBeNull();
    const variants = [
      { ...parts, url: "http://localhost/about?lang=fr" },
      { ...parts, locale: "fr" },
      { ...parts, bot: true },
      { ...parts, year: 2027 },
    ].map((other) =>
      pageCacheKey({ ...other, loaderData: { root: { user: null }, page: { price: 500 } } }),
    );
    variants.push(
      pageCacheKey({ ...parts, loaderData: { root: { user: null }, page: { price: 600 } } }),
    );
    for (const key of variants) expect(key).not.toBe(base);
    expect(new Set(variants).size).toBe(variants.length);
    // The same data again makes the same key.
    expect(
      pageCacheKey({ ...parts, loaderData: { root: { user: null }, page: { price: 500 } } }),
    ).toBe(base);
  });

  it("refuses data it cannot write out whole, so such pages are rendered every time", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const loaderData of [
      { page: { later: Promise.resolve(1) } },
      { page: { later: { then: () => {} } } },
      { page: { fn: () => 1 } },
      { page: { map: new Map([[1, 2]]) } },
      { page: { set: new Set([1]) } },
      { page: { big: 10n } },
      { page: { sym: Symbol("x") } },
      cyclic,
    ])
      expect(pageCacheKey({ ...parts, loaderData })).toBeNull();
  });
});

describe("createPageCache", () => {
  it("gives the page back with the new response's nonce in every place of the old one", () => {
    const cache = createPageCache({ maxEntries: 10, maxAgeMs: 1000 });
    cache.set("k", '<script nonce="AAA=="></script><link nonce="AAA==">', "AAA==");
    expect(cache.get("k", "BBB==")).toBe('<script nonce="BBB=="></script><link nonce="BBB==">');
    expect(cache.get("other", "BBB==")).toBeUndefined();
  });

  it("keeps nothing rendered without a nonce", () => {
    const cache = createPageCache({ maxEntries: 10, maxAgeMs: 1000 });
    cache.set("k", "<p>page</p>", "");
    expect(cache.get("k", "BBB==")).toBeUndefined();
  });

  it("forgets the least recently used page beyond its size", () => {
    const cache = createPageCache({ maxEntries: 2, maxAgeMs: 1000 });
    cache.set("a", "A", "n");
    cache.set("b", "B", "n");
    expect(cache.get("a", "n")).toBe("A"); // a is now the most recently used
    cache.set("c", "C", "n");
    expect(cache.size).toBe(2);
    expect(cache.get("b", "n")).toBeUndefined();
    expect(cache.get("a", "n")).toBe("A");
    expect(cache.get("c", "n")).toBe("C");
  });

  it("forgets a page older than its age limit", () => {
    let clock = 0;
    const cache = createPageCache({ maxEntries: 10, maxAgeMs: 1000, now: () => clock });
    cache.set("k", "page", "n");
    clock = 1000;
    expect(cache.get("k", "n")).toBe("page");
    clock = 1001;
    expect(cache.get("k", "n")).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
