import { idField } from "~/lib/id-field";
import { idParam } from "~/lib/query-params";
import { z } from "~/lib/zod";
import { PLAN_CHANGE_DIRECTIONS } from "./plan-change";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The page's service, from its address (`/dashboard/services/:id/plan`). */
export const planServiceIdSchema = idField("services.errors.notFound");

/** The page's query: the plan whose confirmation it shows (`?to=`); one that does not parse is none. */
export const planChangeQuerySchema = z.object({ to: idParam });

/**
 * The confirmed change: the plan, the form's key (a double click changes once), and what the
 * confirmation showed, which must still be the amount and the way of the change.
 */
export const changePlanSchema = z.object({
  intent: z.literal("change-plan"),
  toProductId: idField("services.planChange.errors.notAllowed"),
  idempotencyKey: z.string().trim().min(16).max(100),
  shownAmount: z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  shownDirection: z.enum(PLAN_CHANGE_DIRECTIONS),
});
export type ChangePlanForm = z.infer<typeof changePlanSchema>;
