import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import {
  actionsColumn,
  amountColumn,
  badgeColumn,
  column,
  customerColumn,
  noteColumn,
  sortableColumn,
} from "./column-presets";
import { byId, DataTable, type Column } from "./data-table";

interface Row {
  id: number;
  name: string;
  email: string;
  server: string;
  cents: number;
  active: boolean;
}

const rows: Row[] = [
  { id: 1, name: "Ann", email: "ann@example.test", server: "Alpha", cents: 250, active: true },
  { id: 2, name: "Bob", email: "bob@example.test", server: "", cents: -75, active: false },
];

/** The classes of a `phone: "scroll"` table's cell: a card's cell on a phone, a table cell from 768 px. */
const SCROLL_CELL =
  "grid min-w-0 content-start gap-1 wrap-anywhere md:table-cell md:px-3 md:py-2 md:wrap-normal";
/** A phone card's label, over the value. */
const label = (text: string) =>
  `<span class="font-sans text-xs font-normal text-muted-foreground md:hidden">${text}</span>`;

/** The header cell and each row's cell of one column, as the table renders them. */
function render(column: Column<Row>, phone: "cards" | "scroll" = "cards") {
  const html = renderToStaticMarkup(
    <DataTable columns={[column]} rows={rows} rowKey={byId} phone={phone} />,
  );
  const header = /<th [^>]*>(.*?)<\/th>/.exec(html);
  const cells = [...html.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((match) => match[0]);
  return { header: header?.[0] ?? "", cells };
}

describe("column", () => {
  it("names the header and each card's label, and passes the options on", () => {
    const { header, cells } = render(
      column("name", "Name", (row) => <span>{row.name}</span>, {
        wide: true,
        present: (row) => row.active,
        className: "font-mono",
        headerClassName: "md:text-end",
      }),
    );
    expect(header).toContain('class="px-3 py-2 text-start font-semibold md:text-end"');
    expect(header).toContain(">Name</th>");
    expect(cells[0]).toContain("col-span-2 font-mono");
    expect(cells[0]).toContain(
      '<span class="font-sans text-xs font-normal text-muted-foreground md:hidden">Name</span><span>Ann</span>',
    );
    // A row with nothing there: the empty cell shown from 768 px on only.
    expect(cells[1]).toBe('<td class="hidden md:table-cell"></td>');
  });
});

describe("noteColumn and customerColumn", () => {
  it("writes the value with its note under it, the note's direction auto unless given", () => {
    const { header, cells } = render(
      noteColumn("server", "Service", (row) => [row.name, row.server]),
      "scroll",
    );
    expect(header).toContain(">Service</th>");
    // On a phone card the header, a text, labels the value.
    expect(cells[0]).toBe(
      `<td class="${SCROLL_CELL}">${label("Service")}Ann<div class="text-xs text-muted-foreground" dir="auto">Alpha</div></td>`,
    );
  });

  it("writes the customer's email left to right under the name, with no phone label of its own", () => {
    const customer = customerColumn<Row>("Customer", (row) => [row.name, row.email]);
    expect(customer.id).toBe("customer");
    expect(customer.label).toBeUndefined();
    const { cells } = render(customer, "scroll");
    expect(cells[1]).toBe(
      `<td class="${SCROLL_CELL}">${label("Customer")}Bob<div class="text-xs text-muted-foreground" dir="ltr">bob@example.test</div></td>`,
    );
  });
});

describe("amountColumn", () => {
  it("sets figures at the end, in a monospace font, left to right", () => {
    const { header, cells } = render(amountColumn("amount", "Amount", (row) => `${row.cents}`));
    expect(header).toContain('class="px-3 py-2 text-start font-semibold md:text-end"');
    expect(cells[0]).toContain("font-mono md:text-end md:whitespace-nowrap");
    expect(cells[0]).toContain('<span dir="ltr">250</span>');
  });

  it("adds the classes a row asks for", () => {
    const { cells } = render(
      amountColumn(
        "amount",
        "Amount",
        (row) => `${row.cents}`,
        (row) => (row.cents > 0 ? "text-green-700" : "text-destructive"),
      ),
    );
    expect(cells[0]).toContain("font-mono md:text-end md:whitespace-nowrap text-green-700");
    expect(cells[1]).toContain("font-mono md:text-end md:whitespace-nowrap text-destructive");
  });
});

describe("badgeColumn", () => {
  const badge = (row: Row) => ({
    tone: row.active ? ("green" as const) : ("grey" as const),
    text: row.active ? "Active" : "Off",
  });

  it("shows a bare badge in a scroll table, labelled on a phone card by its header", () => {
    const { cells } = render(badgeColumn("status", "Status", badge), "scroll");
    expect(cells[0]).toMatch(
      /^<td class="[^"]*md:px-3 md:py-2 md:wrap-normal"><span class="font-sans text-xs font-normal text-muted-foreground md:hidden">Status<\/span><span class="[^"]*bg-green-100[^"]*">Active<\/span><\/td>$/,
    );
  });

  it("labels the card and wraps the badge in a span on a cards table", () => {
    const status = badgeColumn("status", "Status", badge, { label: true });
    expect(status.label).toBe("Status");
    const { cells } = render(status);
    expect(cells[1]).toMatch(
      /<span class="font-sans text-xs font-normal text-muted-foreground md:hidden">Status<\/span><span><span class="[^"]*bg-slate-100[^"]*">Off<\/span><\/span><\/td>$/,
    );
  });
});

describe("actionsColumn", () => {
  it("is the actions column, its name shown or for screen readers only", () => {
    const shown = actionsColumn<Row>("Actions", (row) => <button type="button">{row.name}</button>);
    expect(shown.id).toBe("actions");
    expect(render(shown).header).toContain(">Actions</th>");
    expect(render(shown).cells[0]).toContain('<button type="button">Ann</button>');

    const hidden = actionsColumn<Row>("Actions", () => null, { hideName: true, wide: true });
    expect(render(hidden).header).toContain('<span class="sr-only">Actions</span>');
    expect(render(hidden).cells[0]).toContain("col-span-2");
  });

  it("comes first in a phone card, with no label, and in its place from 768 px", () => {
    const actions = actionsColumn<Row>("Actions", (row) => (
      <button type="button">{row.name}</button>
    ));
    expect(actions.first).toBe(true);
    for (const phone of ["cards", "scroll"] as const) {
      const { cells } = render(actions, phone);
      expect(cells[0]).toContain("order-first md:order-none");
      expect(cells[0]).not.toContain("md:hidden");
    }
  });
});

describe("byId", () => {
  it("keys a row by its id", () => {
    expect(byId({ id: 7 })).toBe(7);
    expect(byId({ id: "s1" })).toBe("s1");
  });
});

describe("sortableColumn", () => {
  const name = column<Row>("name", "Name", (row) => <span>{row.name}</span>);
  /** The header cell of `name` made sortable, inside a router (its header is a link). */
  const header = (active: boolean, dir: "asc" | "desc", first: "asc" | "desc" = "asc") => {
    const sorted = sortableColumn(name, {
      active,
      dir,
      first,
      href: (next) => `?sort=name&dir=${next}`,
    });
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <DataTable columns={[sorted]} rows={rows} rowKey={byId} phone="cards" />
      </MemoryRouter>,
    );
    return /<th [^>]*>(.*?)<\/th>/.exec(html)?.[0] ?? "";
  };

  it("links an unsorted column to its first direction, with no arrow and no aria-sort", () => {
    const html = header(false, "desc");
    expect(html).not.toContain("aria-sort");
    expect(html).toContain('href="/?sort=name&amp;dir=asc"');
    expect(html).toContain('class="inline-flex items-center gap-1 hover:text-foreground"');
    expect(html).not.toContain("<svg");
    expect(header(false, "asc", "desc")).toContain("dir=desc");
  });

  it("turns the sort column round, showing its direction", () => {
    const up = header(true, "asc");
    expect(up).toContain('aria-sort="ascending"');
    expect(up).toContain("dir=desc");
    expect(up).toContain("lucide-arrow-up");
    const down = header(true, "desc");
    expect(down).toContain('aria-sort="descending"');
    expect(down).toContain("dir=asc");
    expect(down).toContain("lucide-arrow-down");
  });
});
