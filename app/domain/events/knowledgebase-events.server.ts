import type { KbArticle, KbCategory } from "~/domain/knowledgebase/knowledgebase";
import type { ReactionTable } from "./reaction.server";
import { auditSaved, type Saved } from "./saved.server";

/** The staff's changes to the knowledge base, on /admin/knowledgebase (docs/knowledgebase.md). */
export type KnowledgeBaseEvent =
  /** A category written (no `before`) or changed: its slug, names, department or place. */
  | ({ type: "kbCategory.saved" } & Saved<KbCategory>)
  /** An empty category deleted (`category` as it was). */
  | { type: "kbCategory.deleted"; actorId: string; category: KbCategory }
  /** An article written or changed: its texts, slug, category, state (draft, published) or place. */
  | ({ type: "kbArticle.saved" } & Saved<KbArticle>)
  /** An article deleted for good (`article` as it was). */
  | { type: "kbArticle.deleted"; actorId: string; article: KbArticle };

/** What the audit log keeps of an article: all it says, not who wrote it nor its times. */
function articleView(article: KbArticle) {
  const { authorName: _a, createdAt: _c, updatedAt: _u, ...kept } = article;
  return kept;
}

const savedCategory = auditSaved("kb_category", (category: KbCategory) => category);
const savedArticle = auditSaved("kb_article", articleView);

/** What follows a change to the knowledge base: its audit entry (the public pages read it live). */
export const knowledgeBaseReactions: ReactionTable<KnowledgeBaseEvent> = {
  "kbCategory.saved": {
    audit: (event) =>
      savedCategory(event, event.before ? "kb_category.update" : "kb_category.create"),
  },
  "kbCategory.deleted": {
    audit: ({ actorId, category }) => ({
      actorId,
      action: "kb_category.delete",
      targetType: "kb_category",
      targetId: category.id,
      before: category,
    }),
  },
  "kbArticle.saved": {
    audit: (event) => savedArticle(event, event.before ? "kb_article.update" : "kb_article.create"),
  },
  "kbArticle.deleted": {
    audit: ({ actorId, article }) => ({
      actorId,
      action: "kb_article.delete",
      targetType: "kb_article",
      targetId: article.id,
      before: articleView(article),
    }),
  },
};
