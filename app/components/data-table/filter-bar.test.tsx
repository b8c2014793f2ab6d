import { renderToStaticMarkup } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { choicesOf } from "~/components/ui/form-card";
import { renderHtml } from "../../../tests/support/render-html";
import { FilterBar, FilterFields, filterId, listFilters, type FilterSpec } from "./filter-bar";

interface Query {
  who?: string;
  targetType?: string;
  show: "all" | "unread";
  from?: string;
  page: number;
}

const fields: FilterSpec<Query>[] = [
  { kind: "search", name: "who", label: "Who", dir: "ltr", maxLength: 50, placeholder: "Email" },
  {
    kind: "select",
    name: "targetType",
    label: "Target",
    anyLabel: "Any target",
    options: choicesOf(["user", "order"], (type) => type.toUpperCase()),
  },
  {
    kind: "select",
    name: "show",
    label: "Show",
    id: "own-show",
    options: choicesOf(["all", "unread"], (show) => show),
    anyValue: "all",
  },
  { kind: "date", name: "from", label: "From", className: "sm:col-span-2" },
];

const none: Query = { show: "all", page: 1 };

/**
 * The bar as the server renders it, inside a router (it is a react-router Form) and a language (its
 * button and link say the kit's words unless `labels` name them).
 */
async function render(
  query: Query,
  labels: {
    applyLabel?: string;
    clearLabel?: string;
    wideColumns?: string;
    className?: string;
  } = {},
  locale: "en" | "fr" = "en",
) {
  const Stub = createRoutesStub([
    {
      path: "/list",
      Component: () => (
        <FilterBar
          filters={listFilters(query, "t", fields)}
          label="Filter"
          className="sm:grid-cols-2"
          {...labels}
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/list"]} />, locale);
}

describe("listFilters", () => {
  it("is filtered when a field holds a value other than its any-value", () => {
    expect(listFilters(none, "t", fields).filtered).toBe(false);
    expect(listFilters({ ...none, who: "" }, "t", fields).filtered).toBe(false);
    expect(listFilters({ ...none, who: "ann" }, "t", fields).filtered).toBe(true);
    expect(listFilters({ ...none, show: "unread" }, "t", fields).filtered).toBe(true);
    expect(listFilters({ ...none, from: "2026-01-01" }, "t", fields).filtered).toBe(true);
  });

  it("keeps the set filters in the fields' order in a page's address", () => {
    const filters = listFilters({ ...none, from: "2026-01-01", who: "a b" }, "t", fields);
    expect(filters.href(1)).toBe("?who=a+b&show=all&from=2026-01-01");
    expect(filters.href(3)).toBe("?who=a+b&show=all&from=2026-01-01&page=3");
    expect(listFilters({ page: 1 } as Query, "t", fields.slice(0, 2)).href(2)).toBe("?page=2");
  });

  it("takes only names of the query's text keys", () => {
    // @ts-expect-error: "page" is a number, not a filter
    listFilters(none, "t", [{ kind: "search", name: "page", label: "Page" }]);
    // @ts-expect-error: no such key
    listFilters(none, "t", [{ kind: "date", name: "to", label: "To" }]);
  });
});

describe("filterId", () => {
  it("is the prefix and the name in kebab case unless the field has its own", () => {
    expect(filterId("log", { name: "actor" })).toBe("log-actor");
    expect(filterId("log", { name: "targetType" })).toBe("log-target-type");
    expect(filterId("voucher", { name: "q", id: "voucher-search" })).toBe("voucher-search");
  });
});

describe("FilterBar", () => {
  it("fills each control from the query, with its id, and offers no clear link unfiltered", async () => {
    const html = await render(none);
    expect(html).toContain('<label class="text-sm font-medium" for="t-who">Who</label>');
    expect(html).toMatch(
      /<input class="[^"]*" id="t-who" type="search" dir="ltr" maxLength="50" placeholder="Email" name="who" value=""\/>/,
    );
    expect(html).toContain('<select id="t-target-type" name="targetType" class=');
    expect(html).toContain('<option value="" selected="">Any target</option>');
    expect(html).toContain('<option value="user">USER</option>');
    expect(html).toContain('<select id="own-show" name="show"');
    expect(html).toContain('<option value="all" selected="">all</option>');
    expect(html).toContain('<div class="grid gap-1 sm:col-span-2"><label');
    expect(html).toMatch(/id="t-from" type="date" name="from" value=""\/>/);
    expect(html).toContain('role="search" aria-label="Filter"');
    expect(html).toContain(">Apply</button>");
    expect(html).not.toContain("Clear");
  });

  it("shows what is filtered and the clear link", async () => {
    const html = await render({ who: "ann", targetType: "order", show: "unread", page: 1 });
    expect(html).toContain('name="who" value="ann"/>');
    expect(html).toContain('<option value="order" selected="">ORDER</option>');
    expect(html).toContain('<option value="unread" selected="">unread</option>');
    expect(html).toMatch(/<a [^>]*href="\/list"[^>]*>Clear<\/a>/);
  });

  it("says the kit's words in the page's language, or the page's own", async () => {
    const filtered = { who: "ann", show: "all", page: 1 } as const;
    const french = await render(filtered, {}, "fr");
    expect(french).toContain(">Appliquer</button>");
    expect(french).toMatch(/<a [^>]*>Effacer<\/a>/);
    const own = await render(filtered, { applyLabel: "Search", clearLabel: "Clear filters" });
    expect(own).toContain(">Search</button>");
    expect(own).toMatch(/<a [^>]*>Clear filters<\/a>/);
  });

  it("lays a wide bar out in one row from 1024 px, two fields abreast and the buttons apart below", async () => {
    const html = await render(none, {
      wideColumns: "lg:grid-cols-[repeat(4,minmax(0,1fr))_auto]",
      className: undefined,
    });
    expect(html).toContain(
      'class="grid gap-3 rounded-lg border bg-background p-3 sm:grid-cols-2 lg:grid-cols-[repeat(4,minmax(0,1fr))_auto] lg:items-end"',
    );
    expect(html).toContain('<div class="flex gap-2 sm:col-span-2 lg:col-span-1"><button');
  });
});

describe("FilterFields", () => {
  it("draws the bar's fields alone, for a search form of the page's own", () => {
    const html = renderToStaticMarkup(
      <FilterFields
        filters={listFilters<Query>({ who: "ann", show: "unread", page: 1 }, "t", fields)}
      />,
    );
    expect(html).toMatch(
      /^<div class="grid gap-1"><label class="text-sm font-medium" for="t-who">/,
    );
    expect(html).toContain('name="who" value="ann"/>');
    expect(html).toContain('<option value="unread" selected="">unread</option>');
    expect(html).toContain('<div class="grid gap-1 sm:col-span-2"><label');
    expect(html).not.toContain("<form");
    expect(html).not.toContain("<button");
  });
});
