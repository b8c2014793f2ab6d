import type { DirectoryUser } from "~/domain/accounts/user-admin";
import type { ActionResult } from "~/components/ui/result-message";
import type { ProofAnswer } from "~/components/ui/fresh-proof-field";

export type ClientRow = DirectoryUser;

export interface ClientActionResult extends ActionResult, ProofAnswer {
  intent: "coins" | "update" | "delete" | "complete-deletion";
  userId?: string;
}
