import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { renderHtml } from "../../../tests/support/render-html";
import { EditorPage, editorRow, useEditorForm } from "./editor-page";
import type { EditorActionResult } from "./list-editor-page";

interface Thing {
  id: number;
  name: string;
}

/** A thing's editor at /things, as the server renders it: a name and a switch, side by side. */
function render({
  item,
  result,
  action,
}: {
  item?: Thing;
  result?: EditorActionResult;
  action?: string;
}) {
  function ThingEditor() {
    const form = useEditorForm(
      "thing",
      { item, result },
      item ? { name: item.name, shown: "on" } : { shown: "" },
    );
    return (
      <EditorPage
        form={form}
        back={{ to: "/things", label: "Back to things" }}
        header={<h1>{item ? `Edit ${item.name}` : "New thing"}</h1>}
        notes={item ? <p>Used twice</p> : null}
        action={action}
        labels={{ create: "Add", save: "Save", cancel: "Cancel" }}
        fields={[
          editorRow(2, [
            { kind: "input", name: "name", label: "Name", hint: "Who it is" },
            { kind: "switch", name: "shown", label: "Shown" },
          ]),
        ]}
        after={<form id="after" />}
      >
        <p>{form.error("name") || "no error"}</p>
      </EditorPage>
    );
  }
  const Stub = createRoutesStub([{ path: "/things", Component: ThingEditor }]);
  return renderHtml(<Stub initialEntries={["/things"]} />);
}

const refused: EditorActionResult = {
  ok: false,
  intent: "save",
  message: "admin-catalogue.products.saveFailed",
  fieldErrors: { name: "admin-catalogue.products.errors.nameTooLong" },
  fieldErrorValues: { name: { max: 80 } },
  values: { name: "Typed name", shown: "on" },
};

/** The text of a page, its tags taken out. */
const textOf = (html: string) => html.replace(/<[^>]+>/g, "|").replace(/\|+/g, "|");

describe("EditorPage", () => {
  it("creates a new item: back link, header, fields empty, then Add and Cancel", async () => {
    const html = await render({});
    expect(textOf(html)).toMatch(
      /^\|Back to things\|New thing\|Name\|Who it is\|Shown\|no error\|Add\|Cancel\|$/,
    );
    expect(html).toMatch(/^<main class="grid min-w-0 gap-4"><a [^>]*href="\/things"/);
    expect(html).toContain('<input type="hidden" name="intent" value="create"/>');
    expect(html).not.toContain('name="id"');
    // The form posts to the page's own address unless told otherwise.
    expect(html).toMatch(/<form [^>]*action="\/things" method="post"/);
    expect(html).toMatch(
      /<input [^>]*id="thing-name"[^>]*aria-describedby="thing-name-hint"[^>]*value=""/,
    );
    expect(html).not.toMatch(/<input [^>]*checked=""[^>]*name="shown"|name="shown"[^>]*checked=""/);
    expect(html).toContain('<div class="grid items-start gap-4 sm:grid-cols-2">');
    expect(html).toMatch(/<a [^>]*href="\/things"[^>]*>Cancel<\/a>/);
    expect(html).toMatch(/<\/form><\/div><\/div><form id="after"><\/form><\/main>$/);
  });

  it("updates an item: its id, its notes and what it holds, then Save", async () => {
    const html = await render({ item: { id: 7, name: "Ann" }, action: "/things?page=2" });
    expect(textOf(html)).toContain("|Edit Ann|Used twice|");
    expect(textOf(html)).toContain("|no error|Save|Cancel|");
    expect(html).toContain(
      '<input type="hidden" name="intent" value="update"/><input type="hidden" name="id" value="7"/>',
    );
    expect(html).toMatch(/<form [^>]*action="\/things\?page=2" method="post"/);
    expect(html).toMatch(/id="thing-name"[^>]*value="Ann"/);
    expect(html).toMatch(
      /<input [^>]*checked=""[^>]*id="thing-shown"|id="thing-shown"[^>]*checked=""/,
    );
  });

  it("after a refused save says why and shows what was typed, each error with its values", async () => {
    const html = await render({ item: { id: 7, name: "Ann" }, result: refused });
    expect(textOf(html)).toMatch(
      /^\|Back to things\|Edit Ann\|The product was not saved\|Used twice\|/,
    );
    expect(html).toMatch(/id="thing-name"[^>]*value="Typed name"/);
    expect(html).toMatch(/aria-describedby="thing-name-hint thing-name-error"/);
    // The hint is named before the error, and the form's `error` says the same to what else it holds.
    const tooLong = "The name can be at most 80 characters long";
    expect(textOf(html)).toContain(`|Name|Who it is|${tooLong}|Shown|${tooLong}|Save|`);
  });
});
