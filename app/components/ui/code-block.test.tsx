import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { CodeBlock } from "./code-block";

describe("CodeBlock", () => {
  it("is a named, focusable region, so a keyboard can scroll a long stack trace", () => {
    const html = renderToStaticMarkup(
      <CodeBlock label="Last error of job 7" className="max-h-40">
        Error: boom
      </CodeBlock>,
    );
    expect(html).toContain('tabindex="0"');
    expect(html).toContain('role="region"');
    expect(html).toContain('aria-label="Last error of job 7"');
    expect(html).toContain('dir="ltr"');
    expect(html).toMatch(/class="[^"]*overflow-auto[^"]*max-h-40/);
  });
});
