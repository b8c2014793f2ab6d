import type { ReactNode } from "react";
import { CodeBlock } from "~/components/ui/code-block";
import { Link } from "~/components/ui/link";
import { articleBlocks, type Inline } from "~/domain/knowledgebase/article-markup";

/** A line's text, code spans and links; React escapes every text, so nothing typed becomes HTML. */
function InlineParts({ parts }: { parts: Inline[] }): ReactNode {
  return parts.map((part, index) =>
    part.kind === "code" ? (
      <code key={index} className="rounded bg-muted px-1 font-mono text-sm" dir="ltr">
        {part.text}
      </code>
    ) : part.kind === "link" ? (
      part.href.startsWith("/") ? (
        <Link key={index} to={part.href} className="text-primary underline underline-offset-4">
          {part.text}
        </Link>
      ) : (
        <a
          key={index}
          href={part.href}
          rel="noopener noreferrer nofollow"
          className="text-primary underline underline-offset-4 wrap-anywhere"
        >
          {part.text}
        </a>
      )
    ) : (
      <span key={index}>{part.text}</span>
    ),
  );
}

/** An article's body, from its small markup (app/domain/knowledgebase/article-markup.ts). */
export function ArticleBody({ body, codeLabel }: { body: string; codeLabel: string }) {
  return (
    <div className="grid gap-4 leading-relaxed wrap-anywhere" data-testid="kb-article-body">
      {articleBlocks(body).map((block, index) => {
        if (block.kind === "heading")
          return block.level === 2 ? (
            <h2 key={index} className="mt-4 text-2xl font-bold">
              <InlineParts parts={block.content} />
            </h2>
          ) : (
            <h3 key={index} className="mt-2 text-xl font-semibold">
              <InlineParts parts={block.content} />
            </h3>
          );
        if (block.kind === "list") {
          const List = block.ordered ? "ol" : "ul";
          return (
            <List
              key={index}
              className={`${block.ordered ? "list-decimal" : "list-disc"} space-y-2 ps-6`}
            >
              {block.items.map((item, i) => (
                <li key={i}>
                  <InlineParts parts={item} />
                </li>
              ))}
            </List>
          );
        }
        if (block.kind === "code")
          return (
            <CodeBlock key={index} label={codeLabel} className="rounded-md bg-muted p-3 text-sm">
              <code>{block.text}</code>
            </CodeBlock>
          );
        return (
          <p key={index}>
            <InlineParts parts={block.content} />
          </p>
        );
      })}
    </div>
  );
}
