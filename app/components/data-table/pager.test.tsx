import { describe, expect, it } from "vitest";
import { NamespacesUsed } from "~/i18n/namespaces-used";
import { renderHtml } from "../../../tests/support/render-html";
import { Pager, pageHref } from "./pager";

/** The pager as the server renders it, and the namespaces whose catalogues the page then carries. */
async function render(labels?: { previous: string; next: string }) {
  const used = new Set<string>();
  const html = await renderHtml(
    <NamespacesUsed.Provider value={used}>
      <Pager page={2} hasMore href={(page) => `?page=${page}`} labels={labels} />
    </NamespacesUsed.Provider>,
  );
  return { html, used: [...used] };
}

describe("Pager", () => {
  it("says the admin panel's words when given none, and the page then carries the admin catalogue", async () => {
    const { html, used } = await render();
    expect(html).toContain('aria-label="Pages"');
    expect(html).toContain('href="?page=1"');
    expect(html).toContain('href="?page=3"');
    expect(used).toEqual(["admin"]);
  });

  it("with its own words, puts no admin text into a customer's page", async () => {
    const { html, used } = await render({ previous: "‹", next: "›" });
    expect(html).toContain(">‹</a>");
    expect(html).toContain(">›</a>");
    expect(used).toEqual([]);
  });
});

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
