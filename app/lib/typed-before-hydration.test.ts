// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { watchTypedValues } from "./typed-before-hydration";

function page(html: string) {
  document.body.innerHTML = html;
  return {
    textarea: document.querySelector("textarea")!,
    select: document.querySelector("select")!,
    box: document.querySelector<HTMLInputElement>("input[type=checkbox]")!,
  };
}

/** What react-dom's hydration does to uncontrolled fields: the server's values written back. */
function hydrateOver(fields: ReturnType<typeof page>) {
  fields.textarea.value = fields.textarea.defaultValue;
  for (const option of fields.select.options) option.selected = option.defaultSelected;
  fields.box.checked = fields.box.defaultChecked;
}

const HTML = `<form>
  <textarea>Frankfurt</textarea>
  <select><option value="billing" selected>Billing</option><option value="technical">Technical</option></select>
  <input type="checkbox" />
</form>`;

describe("watchTypedValues", () => {
  it("hands back what was typed before it started and while it watched", () => {
    const fields = page(HTML);
    fields.textarea.value = "Frankfurt\nCasablanca"; // typed while the script was on its way
    const typed = watchTypedValues(document);
    fields.select.value = "technical";
    fields.select.dispatchEvent(new Event("change", { bubbles: true }));
    fields.box.checked = true;
    fields.box.dispatchEvent(new Event("change", { bubbles: true }));
    const events: string[] = [];
    document.addEventListener("input", (event) =>
      events.push(`input:${(event.target as Element).tagName}`),
    );
    document.addEventListener("change", (event) =>
      events.push(`change:${(event.target as Element).tagName}`),
    );

    hydrateOver(fields);
    expect(typed.restore()).toBe(3);
    expect(fields.textarea.value).toBe("Frankfurt\nCasablanca");
    expect(fields.select.value).toBe("technical");
    expect(fields.box.checked).toBe(true);
    // Each one announced, so a field React controls takes the value into its state.
    expect(events.sort()).toEqual(["change:INPUT", "change:SELECT", "input:TEXTAREA"]);
  });

  it("puts the text back before a key typed into a field hydration has already reset", () => {
    const fields = page(HTML);
    const typed = watchTypedValues(document);
    fields.textarea.value = "Frankfurt\nCasa";
    fields.textarea.dispatchEvent(new Event("input", { bubbles: true }));
    hydrateOver(fields); // this field's part of the page hydrated, the page not yet committed
    fields.textarea.dispatchEvent(new InputEvent("beforeinput", { bubbles: true, data: "b" }));
    expect(fields.textarea.value).toBe("Frankfurt\nCasa");
    expect(fields.textarea.selectionStart).toBe("Frankfurt\nCasa".length);
    // The key lands after it (the browser's part), and is noted with it.
    fields.textarea.value += "b";
    fields.textarea.dispatchEvent(new Event("input", { bubbles: true }));
    expect(typed.restore()).toBe(0);
    expect(fields.textarea.value).toBe("Frankfurt\nCasab");
  });

  it("leaves alone a page nobody typed into, a value hydration kept, and a field no longer there", () => {
    const fields = page(HTML);
    const typed = watchTypedValues(document);
    hydrateOver(fields);
    expect(typed.restore()).toBe(0);
    expect(fields.textarea.value).toBe("Frankfurt");

    const kept = page(HTML);
    kept.textarea.value = "Casablanca";
    const watching = watchTypedValues(document);
    expect(watching.restore()).toBe(0); // hydration did not touch it
    kept.textarea.value = "changed later";
    kept.textarea.dispatchEvent(new Event("input", { bubbles: true }));
    expect(watching.restore()).toBe(0); // stopped watching after the first restore

    const gone = page(HTML);
    gone.textarea.value = "typed";
    const afterRemoval = watchTypedValues(document);
    gone.textarea.remove();
    expect(afterRemoval.restore()).toBe(0);
  });
});
