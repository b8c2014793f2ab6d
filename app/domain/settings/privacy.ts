import type { Settings } from "./settings";

// The privacy page (/privacy, ADR 19): which text a reader gets, and how a text becomes the page.

type Language = keyof Settings["privacy"];

/**
 * The admin's text for a reader of `locale`: their own in that language, else their English one (French
 * and Arabic fall back to English), with the language it is written in. Null when the admin wrote none:
 * the page then shows the built-in text of the catalogues, in the reader's language.
 */
export function privacyTextFor(
  stored: Settings["privacy"],
  locale: string,
): { text: string; lang: Language } | null {
  const own = locale === "fr" || locale === "ar" || locale === "en" ? locale : "en";
  if (stored[own].trim()) return { text: stored[own], lang: own };
  if (stored.en.trim()) return { text: stored.en, lang: "en" };
  return null;
}

export type PrivacyBlock =
  | { kind: "heading"; text: string }
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: string[] };

/**
 * A privacy text as the page shows it. The format is the least an admin needs to write one, in a plain
 * textarea, in any language: a line starting with "## " is a heading, lines starting with "- " are a
 * list, other lines run together into a paragraph, and a blank line ends one. Nothing in it is HTML: the
 * page renders each block as text, so whatever is typed shows as typed.
 */
export function privacyBlocks(text: string): PrivacyBlock[] {
  const blocks: PrivacyBlock[] = [];
  let paragraph: string[] = [];
  let list: string[] | null = null;
  const close = () => {
    if (paragraph.length) blocks.push({ kind: "paragraph", text: paragraph.join(" ") });
    if (list) blocks.push({ kind: "list", items: list });
    paragraph = [];
    list = null;
  };
  for (const raw of text.replace(/\r\n?/g, "\n").split("\n")) {
    const line = raw.trim();
    if (!line) {
      close();
    } else if (line.startsWith("## ")) {
      close();
      const heading = line.slice(3).trim();
      if (heading) blocks.push({ kind: "heading", text: heading });
    } else if (line.startsWith("- ")) {
      if (paragraph.length) close();
      const item = line.slice(2).trim();
      if (item) (list ??= []).push(item);
    } else if (list) {
      // A line under a list item carries it on.
      list[list.length - 1] += ` ${line}`;
    } else {
      paragraph.push(line);
    }
  }
  close();
  return blocks;
}
