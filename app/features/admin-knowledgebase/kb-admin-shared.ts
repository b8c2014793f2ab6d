import type { ActionResult } from "~/components/ui/result-message";

export type { KbArticle, KbCategory } from "~/domain/knowledgebase/knowledgebase";

/** The intents of /admin/knowledgebase's forms. */
export type KbIntent =
  | "category-create"
  | "category-update"
  | "category-delete"
  | "article-create"
  | "article-update"
  | "article-delete";

/**
 * What the page's action answers: what it did or why it refused, about which form (`intent`) and row
 * (`id`); `name` names the category or article in the message; `values` is what the editor had typed.
 */
export interface KbActionResult extends ActionResult {
  intent?: KbIntent;
  id?: number;
  name?: string;
}
