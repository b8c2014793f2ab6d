import { describe, expect, it } from "vitest";
import { isPublicPage, pageScripts, PUBLIC_PAGE } from "./hydration";

const anonymous = { signedIn: false, inBrowser: false };
const customer = { signedIn: true, inBrowser: false };

describe("pageScripts", () => {
  it("hydrates a page whose routes say nothing, for everyone", () => {
    expect(pageScripts([undefined, {}, { other: 1 }], anonymous)).toBe("react");
    expect(pageScripts([], customer)).toBe("react");
  });

  it("serves a public page to an anonymous visitor with the enhance script only", () => {
    expect(pageScripts([undefined, undefined, PUBLIC_PAGE], anonymous)).toBe("enhance");
  });

  it("hydrates a public page for a signed-in visitor", () => {
    expect(pageScripts([undefined, PUBLIC_PAGE], customer)).toBe("react");
  });

  it("keeps React in a browser that already runs it, signed in or not", () => {
    expect(pageScripts([PUBLIC_PAGE], { signedIn: false, inBrowser: true })).toBe("react");
  });

  it("serves a page that asks for no scripts without any, whoever asks", () => {
    for (const visitor of [anonymous, customer, { signedIn: false, inBrowser: true }])
      expect(pageScripts([PUBLIC_PAGE, { hydrate: false }], visitor)).toBe("none");
  });

  it("ignores handles that are not objects", () => {
    expect(pageScripts([null, "x", 3], anonymous)).toBe("react");
  });
});

describe("isPublicPage", () => {
  it("is true when one of the page's routes is a public page", () => {
    expect(isPublicPage([undefined, undefined, PUBLIC_PAGE])).toBe(true);
    expect(isPublicPage([{ hydrate: "signed-in" }])).toBe(true);
  });

  it("is false for other pages and for handles that are not objects", () => {
    expect(isPublicPage([undefined, {}])).toBe(false);
    expect(isPublicPage([{ hydrate: false }, "signed-in", null])).toBe(false);
    expect(isPublicPage([])).toBe(false);
  });
});
