import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import type { Column } from "~/components/data-table/data-table";
import {
  ListEditorPage,
  type EditorActionResult,
  type EditorProps,
  type ListEditorState,
} from "./list-editor-page";

interface Thing {
  id: number;
  name: string;
  on: boolean;
}
type Page = ListEditorState<Thing>;

const things: Thing[] = [
  { id: 3, name: "Ann", on: true },
  { id: 4, name: "Bob", on: false },
];
const columns: Column<Thing>[] = [{ id: "name", header: "Name", cell: (thing) => thing.name }];

/** The editor a page would draw: what it was given, written out. */
function Editor({ item, result, page }: EditorProps<Thing, Page>) {
  return (
    <p>
      editor of {item ? item.name : "a new thing"}, result {result?.message ?? "none"}, list of{" "}
      {page.editing === "new" ? "new" : "item"}
    </p>
  );
}

/** /things as the server renders it, with `page` as its loader's data. */
function render(page: Page, rows: Thing[] = things) {
  const Stub = createRoutesStub([
    {
      path: "/things",
      Component: () => (
        <ListEditorPage
          page={page}
          editor={Editor}
          header={<h1>Things</h1>}
          count={<p>2 things</p>}
          table={{ caption: "All things", columns, rows }}
          rowActions={{
            header: "Actions",
            className: "row-box",
            of: (thing) => ({
              action: "/things?page=2",
              id: thing.id,
              edit: { label: "Edit", accessibleName: `Edit ${thing.name}` },
              toggle: thing.on
                ? { intent: "hide", label: "Hide", accessibleName: `Hide ${thing.name}` }
                : { intent: "show", label: "Show", accessibleName: `Show ${thing.name}` },
              children: <span>more for {thing.name}</span>,
            }),
          }}
          empty="No things yet"
          notices={{ created: "Thing added", updated: "Thing saved", notFound: "No such thing" }}
        />
      ),
    },
  ]);
  return renderHtml(<Stub initialEntries={["/things"]} />);
}

const saved: EditorActionResult = {
  ok: false,
  intent: "save",
  message: "admin-catalogue.products.saveFailed",
};
const rowDone: EditorActionResult = {
  ok: true,
  intent: "row",
  id: "3",
  message: "admin-catalogue.products.hidden",
};

/** The text of a page, its tags taken out. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "|").replace(/\|+/g, "|");

describe("ListEditorPage's list", () => {
  it("draws the header, the count and the table, each row ending with its buttons", async () => {
    const html = await render({ editing: undefined, query: {} });
    expect(html).toMatch(/^<main class="grid min-w-0 gap-4"><h1>Things<\/h1><p>2 things<\/p>/);
    expect(html).toContain('<caption class="sr-only">All things</caption>');
    expect(textOf(html)).toContain("|Name|Actions|");
    // Edit opens the editor on the row's own address; the switch posts the row's intent and id.
    expect(html).toMatch(
      /<div class="row-box"><a aria-label="Edit Ann"[^>]*href="\/things\?edit=3"/,
    );
    expect(html).toMatch(
      /<form [^>]*action="\/things\?page=2" method="post"><input type="hidden" name="intent" value="hide"\/><input type="hidden" name="id" value="3"\/>/,
    );
    expect(html).toMatch(/aria-label="Hide Ann"[^>]*>Hide<\/button><\/form><span>more for Ann/);
    expect(html).toMatch(/name="intent" value="show"\/><input type="hidden" name="id" value="4"/);
    expect(html).toContain('aria-label="Show Bob"');
    expect(html).not.toContain("editor of");
  });

  it("says the empty text instead of the table when there is no row", async () => {
    const html = await render({ editing: undefined, query: {} }, []);
    expect(html).toContain("No things yet");
    expect(html).not.toContain("<table");
  });

  it("says what the last save did, until a row's button says something", async () => {
    expect(textOf(await render({ editing: undefined, query: { notice: "created" } }))).toContain(
      "|2 things|Thing added|",
    );
    expect(textOf(await render({ editing: undefined, query: { notice: "updated" } }))).toContain(
      "|2 things|Thing saved|",
    );
    const afterRow = await render({
      editing: undefined,
      query: { notice: "created" },
      result: rowDone,
    });
    expect(afterRow).not.toContain("Thing added");
    expect(textOf(afterRow)).toContain(
      "|2 things|Product hidden: it is no longer listed or orderable|",
    );
  });

  it("says so when the item asked for does not exist, and shows the list", async () => {
    const html = await render({ editing: null, query: {} });
    expect(textOf(html)).toContain("|2 things|No such thing|");
    expect(html).toContain('href="/things?edit=3"');
  });

  it("leaves a save's result to the editor: the list does not show it", async () => {
    const html = await render({ editing: undefined, query: {}, result: saved });
    expect(html).not.toContain("The product was not saved");
    expect(html).toContain('href="/things?edit=3"');
  });
});

describe("ListEditorPage's editor", () => {
  it("opens on a new item, with a save's result and not a row's", async () => {
    expect(await render({ editing: "new", query: {}, result: saved })).toBe(
      "<p>editor of a new thing, result admin-catalogue.products.saveFailed, list of new</p>",
    );
    expect(await render({ editing: "new", query: {}, result: rowDone })).toBe(
      "<p>editor of a new thing, result none, list of new</p>",
    );
  });

  it("opens on the item asked for", async () => {
    expect(await render({ editing: things[1], query: { notice: "created" } })).toBe(
      "<p>editor of Bob, result none, list of item</p>",
    );
  });
});
