import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { ClientLink, clientPath } from "./client-link";

describe("ClientLink", () => {
  it("leads to the client's admin page, the id written safely into the path", () => {
    expect(clientPath("aB3xYz09")).toBe("/admin/clients/aB3xYz09");
    expect(clientPath("a/b?c")).toBe("/admin/clients/a%2Fb%3Fc");
  });

  it("is the name as a link in the name's own direction", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <ClientLink userId="aB3xYz09" className="font-semibold">
          يوسف Benali
        </ClientLink>
      </MemoryRouter>,
    );
    expect(html).toBe(
      '<a class="text-primary hover:underline font-semibold" dir="auto" href="/admin/clients/aB3xYz09" data-discover="true">يوسف Benali</a>',
    );
  });
});
