import { z } from "./zod";

/**
 * An editor's "create" and "update" actions, to list among a form's intents: the same fields, checked
 * alike, the update with the id of the row it saves.
 *
 * `check` runs once every field has passed, unless `whenFieldsFail` is set: then it runs on the form
 * as far as it was read, so the admin sees its mistakes with the fields' (zod skips a refinement
 * after a failed field otherwise), and must itself read a failed field as what was typed.
 */
export function saveActions<Shape extends z.ZodRawShape>(
  fields: Shape,
  id: z.ZodType<number>,
  check: (value: z.output<z.ZodObject<Shape>>, ctx: z.RefinementCtx) => void,
  { whenFieldsFail = false }: { whenFieldsFail?: boolean } = {},
) {
  // Each action's value is the form's plus its intent (and id): TypeScript cannot see that of any Shape.
  const checkForm = z.superRefine(
    check as (value: unknown, ctx: z.RefinementCtx) => void,
    whenFieldsFail
      ? { when: (payload) => typeof payload.value === "object" && payload.value !== null }
      : undefined,
  );
  return [
    z.object({ intent: z.literal("create"), ...fields }).check(checkForm),
    z.object({ intent: z.literal("update"), id, ...fields }).check(checkForm),
  ] as const;
}

/** What an editor's form holds once its fields are read, before the action makes the item from it. */
export type SavedForm<Shape extends z.ZodRawShape> = z.output<z.ZodObject<Shape>>;

/** A create or an update as its action carries it: the item ready to save under `key`. */
type SaveAction<Key extends string, Item> =
  | ({ intent: "create" } & Record<Key, Item>)
  | ({ intent: "update"; id: number } & Record<Key, Item>);

/**
 * The transform of an editor's action schema: a create or an update carries the item made from its
 * form by `itemFrom`, under `key` ("product", "voucher"); any other intent (a row's) stays as parsed.
 */
function withSavedItem<Key extends string, Form, Item>(key: Key, itemFrom: (form: Form) => Item) {
  return <Action extends { intent: string }>(
    action: Action,
  ): SaveAction<Key, Item> | Exclude<Action, { intent: "create" | "update" }> => {
    // The schema's create and update are the form plus their intent (and id): `saveActions` above.
    const form = action as unknown as Form & { id: number };
    if (action.intent === "create")
      return { intent: "create", [key]: itemFrom(form) } as SaveAction<Key, Item>;
    if (action.intent === "update")
      return { intent: "update", id: form.id, [key]: itemFrom(form) } as SaveAction<Key, Item>;
    return action as Exclude<Action, { intent: "create" | "update" }>;
  };
}

/**
 * A list's row buttons (enable, delete, ...), to list among a form's intents: each its intent and the
 * `id` of the row it acts on.
 */
export function rowActions<const Intents extends readonly string[], Id extends z.ZodType>(
  id: Id,
  intents: Intents,
) {
  return intents.map((intent) => z.object({ intent: z.literal(intent), id })) as {
    [K in keyof Intents]: z.ZodObject<{ intent: z.ZodLiteral<Intents[K]>; id: Id }>;
  };
}

/**
 * An editor page's one action, by intent: its create and update (`saveActions`) and its rows' buttons
 * (`rowActions`), any other intent refused with `unknownAction`; a create or an update carries the item
 * `itemFrom` makes of its form, under `key` (`withSavedItem`).
 */
export function editorActionSchema<
  Key extends string,
  Form,
  Item,
  const Options extends readonly [z.core.$ZodTypeDiscriminable, ...z.core.$ZodTypeDiscriminable[]],
>(key: Key, itemFrom: (form: Form) => Item, unknownAction: string, options: Options) {
  const action = z.discriminatedUnion("intent", options, { error: unknownAction });
  const saved = withSavedItem(key, itemFrom);
  // Every option has its intent: TypeScript cannot see that of any Options.
  return action.transform((value) => saved(value as z.output<typeof action> & { intent: string }));
}

/**
 * What a post to an editor page did: the row it saved or acted on and what to say of it (one of the
 * page's `messages`, a catalogue key an intent), or the use-case's refusal as it came.
 */
export type EditorOutcome<Messages extends Record<string, string>, Refused> =
  { ok: true; id: number; message: Messages[keyof Messages] } | Refused;

/**
 * An editor action's outcome from its use-case's result: the row's `id` (or, for a create, the id read
 * from what it saved) and `message` when it worked, else the refusal as it came.
 */
export function editorOutcome<Result extends { ok: boolean }, const Message extends string>(
  result: Result,
  id: number | ((saved: Extract<Result, { ok: true }>) => number),
  message: Message,
): { ok: true; id: number; message: Message } | Exclude<Result, { ok: true }> {
  if (!result.ok) return result as Exclude<Result, { ok: true }>;
  const saved = result as Extract<Result, { ok: true }>;
  return { ok: true, id: typeof id === "number" ? id : id(saved), message };
}
