import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { byId, DataTable, type Column } from "./data-table";

interface Row {
  id: number;
  name: string;
  cents: number;
}

const rows: Row[] = [{ id: 1, name: "Ann", cents: 250 }];

function html(columns: Column<Row>[], phone?: "cards" | "scroll") {
  return renderToStaticMarkup(
    <DataTable caption="Rows" columns={columns} rows={rows} rowKey={byId} phone={phone} />,
  );
}

describe("DataTable on a phone", () => {
  it("asks its page for no width, whatever its look: a wide table scrolls inside its box", () => {
    for (const phone of ["cards", "scroll"] as const) {
      const box = /^<div class="([^"]*)">/.exec(html([], phone))?.[1] ?? "";
      expect(box.split(" "), phone).toContain("contain-inline-size");
      expect(box.split(" "), phone).toContain("md:overflow-x-auto");
    }
  });

  it("is cards below 768 px in both looks; the scroll look is 40rem wide from 768 px on", () => {
    for (const phone of ["cards", "scroll"] as const) {
      const markup = html([{ id: "name", header: "Name", cell: (row) => row.name }], phone);
      expect(markup, phone).toContain('<table class="block w-full text-sm md:table');
      expect(markup, phone).toContain('<thead class="hidden');
      expect(markup, phone).toMatch(/<tr class="grid grid-cols-2 [^"]*md:table-row/);
    }
    expect(html([], "scroll")).toContain("md:min-w-[40rem]");
    expect(html([], "cards")).not.toContain("min-w-[40rem]");
  });

  it("labels a scroll table's card with a text header, never a cards table's column without a label", () => {
    const name: Column<Row> = { id: "name", header: "Name", cell: (row) => row.name };
    const hidden =
      '<span class="font-sans text-xs font-normal text-muted-foreground md:hidden">Name</span>';
    expect(html([name], "scroll")).toContain(`${hidden}Ann</td>`);
    expect(html([name], "cards")).not.toContain(hidden);
    // A header that is not a text (a sort link) gives no label.
    expect(html([{ ...name, header: <a href="?sort=name">Name</a> }], "scroll")).not.toContain(
      hidden,
    );
  });

  it("puts a value's direction on a span, so the label keeps the page's", () => {
    const markup = html(
      [{ id: "amount", header: "Amount", dir: "ltr", cell: (row) => `+${row.cents}` }],
      "scroll",
    );
    expect(markup).toContain(
      '<span class="font-sans text-xs font-normal text-muted-foreground md:hidden">Amount</span><span dir="ltr" class="justify-self-start">+250</span></td>',
    );
    expect(markup).not.toContain('<td dir="ltr"');
  });

  it("puts a `first` cell first in the card on a phone only", () => {
    const markup = html([
      { id: "name", header: "Name", label: "Name", cell: (row) => row.name },
      { id: "actions", header: "Actions", first: true, cell: () => "buttons" },
    ]);
    expect(markup).toMatch(/<td class="[^"]*order-first md:order-none[^"]*">buttons<\/td>/);
  });
});
