import { describe, expect, it } from "vitest";
import { pageHref } from "./pager";

describe("pageHref", () => {
  it("writes the filters that have a value, in order, then the page from page 2 on", () => {
    expect(pageHref({ q: "disk", kind: "", state: "paid" }, 1)).toBe("?q=disk&state=paid");
    expect(pageHref({ q: "disk", state: null }, 3)).toBe("?q=disk&page=3");
  });

  it("ends with the row opened beside the list, when there is one", () => {
    expect(pageHref({ state: "failed" }, 2, 41)).toBe("?state=failed&page=2&open=41");
    expect(pageHref({ state: undefined }, 1, 41)).toBe("?open=41");
  });

  it("is a lone question mark when there is nothing to say", () => {
    expect(pageHref({ q: undefined }, 1)).toBe("?");
    expect(pageHref({}, 1, undefined)).toBe("?");
  });
});
