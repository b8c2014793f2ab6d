import type { Generated } from "kysely";
import type { Timestamp } from "./columns";

/** A category of the knowledge base (migration 0059, docs/knowledgebase.md). */
export interface KbCategoriesTable {
  id: Generated<number>;
  slug: string;
  /** JSON: one name per language ({"en": "...", "fr": "...", "ar": "..."}), "" where none. */
  names: Generated<string>;
  /** billing | technical | sales (a CHECK), null for any department. */
  department: string | null;
  position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** An article of the knowledge base, written per language. */
export interface KbArticlesTable {
  id: Generated<number>;
  category_id: number;
  slug: string;
  /** draft | published (a CHECK): only a published one is shown to visitors. */
  status: Generated<string>;
  position: Generated<number>;
  /** JSON: one title per language, "" where none. */
  titles: Generated<string>;
  /** JSON: one body per language (the small markup of knowledgebase.ts), "" where none. */
  bodies: Generated<string>;
  /** Every language's title, folded (searchFold): title matches are listed first. */
  search_titles: Generated<string>;
  /** Every language's title and body, folded: what a search looks in. */
  search_text: Generated<string>;
  /** Who wrote it; null for a seeded article, or a writer whose account is gone. */
  created_by: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** The knowledge base's tables, joined to the Database interface (app/db/schema.ts). */
export interface KnowledgeBaseTables {
  kb_categories: KbCategoriesTable;
  kb_articles: KbArticlesTable;
}
