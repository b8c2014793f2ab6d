import { describe, expect, it } from "vitest";
import { parseAcceptLanguage, pickLocale } from "./locales";

describe("pickLocale", () => {
  const base = { userLocale: null, cookie: null, acceptLanguage: null, siteDefault: "en" };

  it("falls back to the site default", () => {
    expect(pickLocale(base)).toBe("en");
    expect(pickLocale({ ...base, siteDefault: "xx" })).toBe("en");
  });

  it("takes ?lang, then the saved choice, then the cookie, then Accept-Language", () => {
    const all = {
      ...base,
      queryLocale: "ar",
      userLocale: "fr",
      cookie: "hostfront_lang=en",
      acceptLanguage: "fr",
    };
    expect(pickLocale(all)).toBe("ar");
    expect(pickLocale({ ...all, queryLocale: null })).toBe("fr");
    expect(pickLocale({ ...all, queryLocale: null, userLocale: null })).toBe("en");
    expect(pickLocale({ ...all, queryLocale: null, userLocale: null, cookie: null })).toBe("fr");
    expect(pickLocale({ ...base, acceptLanguage: "de-DE, ar-MA;q=0.8" })).toBe("ar");
    expect(pickLocale({ ...base, siteDefault: "fr" })).toBe("fr");
  });

  it("ignores languages we do not ship", () => {
    expect(
      pickLocale({
        ...base,
        userLocale: "de",
        cookie: "hostfront_lang=zz",
        acceptLanguage: "de-DE,de;q=0.9",
      }),
    ).toBe("en");
  });
});

describe("parseAcceptLanguage", () => {
  it("orders by quality and drops q=0", () => {
    expect(parseAcceptLanguage("fr-CA,fr;q=0.9,en;q=0.5,ar;q=0")).toEqual(["fr", "fr", "en"]);
    expect(parseAcceptLanguage("en;q=0.2, ar")).toEqual(["ar", "en"]);
    expect(parseAcceptLanguage(null)).toEqual([]);
  });
});
