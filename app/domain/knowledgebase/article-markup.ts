// The small markup an article's body is written in (docs/knowledgebase.md), read into blocks the page
// draws with React, which escapes every text: nothing in a body ever reaches the page as HTML. What
// it knows:
//
//   ## Heading, ### Smaller heading
//   - item (or * item), 1. numbered item
//   ``` on a line of its own opens and closes a block of code, kept as typed
//   `code`, [a link](https://example.com) or [a link](/knowledgebase/...) inside a line
//   a blank line between paragraphs
//
// Anything else is text, shown as typed: a `<script>` is the word "<script>" on the page.

export type Inline =
  | { kind: "text"; text: string }
  | { kind: "code"; text: string }
  | { kind: "link"; text: string; href: string };

export type Block =
  | { kind: "heading"; level: 2 | 3; content: Inline[] }
  | { kind: "paragraph"; content: Inline[] }
  | { kind: "list"; ordered: boolean; items: Inline[][] }
  | { kind: "code"; text: string };

/**
 * An address a link may lead to: the web (http, https), a mail address, or a page of the site ("/…",
 * not "//host", which leaves it). A `javascript:` or `data:` one is no link: it stays text.
 */
export function safeHref(href: string): string | null {
  const trimmed = href.trim();
  if (/^https?:\/\/[^\s]+$/i.test(trimmed)) return trimmed;
  if (/^mailto:[^\s]+@[^\s]+$/i.test(trimmed)) return trimmed;
  if (/^\/(?![/\\])[^\s]*$/.test(trimmed)) return trimmed;
  return null;
}

const INLINE = /`([^`]+)`|\[([^\]]+)\]\(([^()\s]+)\)/g;

/** A line's code spans and links; the rest is text. */
export function inlineOf(line: string): Inline[] {
  const parts: Inline[] = [];
  let last = 0;
  const text = (value: string) => {
    if (!value) return;
    const previous = parts.at(-1);
    if (previous?.kind === "text") previous.text += value;
    else parts.push({ kind: "text", text: value });
  };
  for (const match of line.matchAll(INLINE)) {
    text(line.slice(last, match.index));
    const [whole, code, label, href] = match;
    if (code !== undefined) parts.push({ kind: "code", text: code });
    else {
      const safe = safeHref(href!);
      if (safe) parts.push({ kind: "link", text: label!, href: safe });
      else text(whole);
    }
    last = match.index + whole.length;
  }
  text(line.slice(last));
  return parts;
}

const ORDERED = /^\d{1,3}[.)]\s+/;
const BULLET = /^[-*]\s+/;

/** A body read into blocks, in order. */
export function articleBlocks(body: string): Block[] {
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let list: { ordered: boolean; items: string[] } | null = null;
  let code: string[] | null = null;
  const close = () => {
    if (paragraph.length)
      blocks.push({ kind: "paragraph", content: inlineOf(paragraph.join(" ")) });
    if (list) blocks.push({ kind: "list", ordered: list.ordered, items: list.items.map(inlineOf) });
    paragraph = [];
    list = null;
  };
  for (const raw of body.replace(/\r\n?/g, "\n").split("\n")) {
    if (code) {
      if (raw.trim().startsWith("```")) {
        blocks.push({ kind: "code", text: code.join("\n") });
        code = null;
      } else code.push(raw);
      continue;
    }
    const line = raw.trim();
    if (line.startsWith("```")) {
      close();
      code = [];
    } else if (!line) {
      close();
    } else if (/^#{2,3}\s/.test(line)) {
      close();
      const level = line.startsWith("###") ? 3 : 2;
      const heading = line.replace(/^#{2,3}\s+/, "");
      if (heading) blocks.push({ kind: "heading", level, content: inlineOf(heading) });
    } else if (BULLET.test(line) || ORDERED.test(line)) {
      const ordered = ORDERED.test(line);
      if (paragraph.length || (list && list.ordered !== ordered)) close();
      list ??= { ordered, items: [] };
      list.items.push(line.replace(ordered ? ORDERED : BULLET, ""));
    } else if (list) {
      // A line under a list item carries it on.
      list.items[list.items.length - 1] += ` ${line}`;
    } else {
      paragraph.push(line);
    }
  }
  // A code block never closed keeps what it holds.
  if (code) blocks.push({ kind: "code", text: code.join("\n") });
  close();
  return blocks;
}

/** A body's first words as plain text (a search result's excerpt, the page's description). */
export function plainExcerpt(body: string, length = 160): string {
  const text = articleBlocks(body)
    .filter((block) => block.kind !== "code" && block.kind !== "heading")
    .flatMap((block) =>
      block.kind === "list" ? block.items.flat() : block.kind === "paragraph" ? block.content : [],
    )
    .map((part) => part.text)
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}
