import type { ActionResult } from "~/components/ui/result-message";

export interface ClientRow {
  id: string;
  name: string;
  email: string;
  role: string;
  coinBalanceCents: number;
  activeServices: number;
  orders: number;
  createdAt: string;
}

export interface ClientActionResult extends ActionResult {
  intent: "coins" | "update" | "delete";
  userId?: string;
}
