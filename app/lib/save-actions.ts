import { z } from "./zod";

/**
 * An editor's "create" and "update" actions, to list among a form's intents: the same fields, checked
 * alike, the update with the id of the row it saves.
 */
export function saveActions<Shape extends z.ZodRawShape>(
  fields: Shape,
  id: z.ZodType<number>,
  check: (value: z.output<z.ZodObject<Shape>>, ctx: z.RefinementCtx) => void,
) {
  // Each action's value is the form's plus its intent (and id): TypeScript cannot see that of any Shape.
  const checkForm = check as (value: unknown, ctx: z.RefinementCtx) => void;
  return [
    z.object({ intent: z.literal("create"), ...fields }).superRefine(checkForm),
    z.object({ intent: z.literal("update"), id, ...fields }).superRefine(checkForm),
  ] as const;
}
