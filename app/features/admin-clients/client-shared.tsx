import type { DirectoryUser } from "~/domain/accounts/user-admin";
import type { ActionResult } from "~/components/ui/result-message";

export type ClientRow = DirectoryUser;

export interface ClientActionResult extends ActionResult {
  intent: "coins" | "update" | "delete" | "complete-deletion";
  userId?: string;
}
