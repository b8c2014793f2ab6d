import type { ActionResult } from "~/components/ui/result-message";
import type { StaffIntent } from "~/domain/staff/staff";

export type { StaffMember } from "~/domain/staff/staff";

/**
 * What the staff page's action answers: what it did or why it refused, about which form (`intent`) and
 * member (`userId`); `name` names them in the message; `values` is what the add form had typed.
 */
export interface StaffActionResult extends ActionResult {
  intent?: StaffIntent;
  userId?: string;
  name?: string;
}
