/**
 * What a person types before React has hydrated the page, kept through hydration.
 *
 * The server's HTML is a working page from its first paint (ADR 13), so on a slow phone a customer may
 * start typing while the page's script is still arriving. React 19 keeps what was typed into an
 * `<input>`, but hydrating a `<textarea>` or a `<select>` writes the server's value back over it
 * (react-dom's initTextarea sets `value` from the default; a select's options are re-selected), so a
 * ticket message or a list of locations typed early was lost, or, caught between a select-all and the
 * typing, mixed with the old text.
 *
 * `watchTypedValues` is called before hydrating: it notes every field already changed (its value no longer
 * its default: typed while the script was downloading) and every field the person changes from then on. `restore`,
 * called once React has committed the hydrated page, puts back each noted value React overwrote, through
 * the native setter and an `input` event, so a field React controls sees the change as if typed now.
 */
type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

const CHECKABLE = new Set(["checkbox", "radio"]);

function isField(target: EventTarget | null): target is Field {
  if (!target || typeof target !== "object" || !("tagName" in target)) return false;
  const tag = (target as Element).tagName;
  return tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT";
}

function isCheckable(field: Field): field is HTMLInputElement {
  return field.tagName === "INPUT" && CHECKABLE.has((field as HTMLInputElement).type);
}

interface Typed {
  value: string;
  checked: boolean;
}

/** Whether a field's value is no longer the one its HTML gave it. */
function isChanged(field: Field): boolean {
  if (field.tagName === "SELECT")
    return Array.from((field as HTMLSelectElement).options).some(
      (option) => option.selected !== option.defaultSelected,
    );
  if (isCheckable(field)) return field.checked !== field.defaultChecked;
  return field.value !== (field as HTMLInputElement | HTMLTextAreaElement).defaultValue;
}

function read(field: Field): Typed {
  return { value: field.value, checked: isCheckable(field) ? field.checked : false };
}

/** Sets a field through its prototype's setter: a framework that wraps `value` then notices the change. */
function write(field: Field, typed: Typed) {
  const prototype = Object.getPrototypeOf(field) as object;
  const property = isCheckable(field) ? "checked" : "value";
  const setter = Object.getOwnPropertyDescriptor(prototype, property)?.set;
  const next = isCheckable(field) ? typed.checked : typed.value;
  if (setter) setter.call(field, next);
  else (field as unknown as Record<string, unknown>)[property] = next;
  field.dispatchEvent(
    new Event(isCheckable(field) || field.tagName === "SELECT" ? "change" : "input", {
      bubbles: true,
    }),
  );
}

export interface TypedValues {
  /** Puts back what React's hydration overwrote, then stops watching. Returns how many it restored. */
  restore(): number;
}

export function watchTypedValues(root: Document): TypedValues {
  const typed = new Map<Field, Typed>();
  for (const field of root.querySelectorAll<Field>("input, textarea, select"))
    if (isChanged(field)) typed.set(field, read(field));
  const note = (event: Event) => {
    if (isField(event.target)) typed.set(event.target, read(event.target));
  };
  // Hydration runs in slices between the person's keys. A text field React has already written back to
  // its default, typed into again before the page is committed, would have the new key noted on the
  // default, and the earlier text lost: before the key lands, the noted text is put back, so the key
  // follows it.
  const beforeKey = (event: Event) => {
    const field = event.target;
    if (!isField(field) || field.tagName === "SELECT" || isCheckable(field)) return;
    const noted = typed.get(field);
    const text = field as HTMLInputElement | HTMLTextAreaElement;
    if (noted && text.value !== noted.value && text.value === text.defaultValue) {
      text.value = noted.value;
      text.setSelectionRange(noted.value.length, noted.value.length);
    }
  };
  root.addEventListener("beforeinput", beforeKey, true);
  root.addEventListener("input", note, true);
  root.addEventListener("change", note, true);
  return {
    restore() {
      root.removeEventListener("beforeinput", beforeKey, true);
      root.removeEventListener("input", note, true);
      root.removeEventListener("change", note, true);
      let restored = 0;
      for (const [field, value] of typed) {
        if (!field.isConnected) continue;
        const now = read(field);
        if (now.value === value.value && now.checked === value.checked) continue;
        write(field, value);
        restored += 1;
      }
      typed.clear();
      return restored;
    },
  };
}
