import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { byId, type Column } from "./data-table";
import { listFilters } from "./filter-bar";
import { FilteredListPage } from "./list-page";

interface Query {
  q?: string;
  page: number;
}
interface Row {
  id: number;
  name: string;
}

const columns: Column<Row>[] = [{ id: "name", header: "Name", cell: (row) => row.name }];

/** A filtered list page as the server renders it, inside a router (its filter bar is a Form). */
async function render(
  query: Query,
  rows: Row[],
  texts: { noMatch?: string; matching?: string } = { noMatch: "No match", matching: "2 match" },
) {
  const Stub = createRoutesStub([
    {
      path: "/things",
      Component: () => (
        <FilteredListPage
          heading={{ title: "Things", intro: "All the things." }}
          filters={listFilters(query, "thing", [{ kind: "search", name: "q", label: "Search" }])}
          filterBar={{ label: "Filter things", className: "sm:grid-cols-2" }}
          table={{ columns, rows, rowKey: byId }}
          empty="No things"
          hasMore
          {...texts}
        >
          <p>Saved.</p>
        </FilteredListPage>
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/things"]} />);
}

describe("FilteredListPage", () => {
  it("draws the heading, the bar, the table named by the title and the pager", async () => {
    const html = await render({ page: 1 }, [{ id: 1, name: "Ann" }]);
    expect(html).toMatch(
      /^<main class="grid min-w-0 gap-4"><div class="grid gap-1"><h1 class="text-2xl font-bold wrap-anywhere">Things<\/h1><p class="text-sm text-muted-foreground">All the things.<\/p><\/div><form [^>]*role="search" aria-label="Filter things" class="[^"]* sm:grid-cols-2"/,
    );
    expect(html).toContain('id="thing-q" type="search" name="q" value=""/>');
    expect(html).toContain("</form><p>Saved.</p><div");
    expect(html).toContain('<caption class="sr-only">Things</caption>');
    expect(html).not.toContain("2 match");
    expect(html).toMatch(/<a class="text-primary hover:underline" href="\?page=2">Next ›<\/a>/);
  });

  it("says the empty text while nothing is filtered", async () => {
    const html = await render({ page: 1 }, []);
    expect(html).toContain('<p class="text-muted-foreground">No things</p>');
    expect(html).not.toContain("<table");
  });

  it("says no match and how many match while a filter is on, and pages with it kept", async () => {
    const html = await render({ q: "zed", page: 2 }, []);
    expect(html).toContain(
      '<p>Saved.</p><p class="text-sm text-muted-foreground">2 match</p><p class="text-muted-foreground">No match</p>',
    );
    expect(html).toMatch(/href="\?q=zed">‹ Previous<\/a>/);
    expect(html).toMatch(/href="\?q=zed&amp;page=3">Next ›<\/a>/);
  });

  it("keeps the empty text, and says no count, for a list that has no words for them", async () => {
    const html = await render({ q: "zed", page: 1 }, [], {});
    expect(html).toContain('<p>Saved.</p><p class="text-muted-foreground">No things</p>');
  });
});
