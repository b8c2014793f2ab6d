import { renderToStaticMarkup } from "react-dom/server";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { DataTable } from "~/components/data-table/data-table";
import { ClientLink, clientColumn, clientPath } from "./client-link";

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

  it("makes the queues' customer column: the name as a link, the email under it left to right", () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <DataTable
          phone="scroll"
          columns={[
            clientColumn<{ id: number; who: string }>("Customer", (row) => ({
              userId: row.who,
              name: "Nadia",
              email: "nadia@example.com",
            })),
          ]}
          rows={[{ id: 1, who: "u1" }]}
          rowKey={(row) => row.id}
        />
      </MemoryRouter>,
    );
    expect(html).toContain(
      '<th scope="col" class="px-3 py-2 text-start font-semibold">Customer</th>',
    );
    expect(html).toContain(
      // On a phone the row is a card: the cell says its header, then the name and the email, which
      // wraps at its "@" and its dots rather than anywhere.
      '<td class="grid min-w-0 content-start gap-1 wrap-anywhere md:table-cell md:px-3 md:py-2 md:wrap-normal"><span class="font-sans text-xs font-normal text-muted-foreground md:hidden">Customer</span><a class="font-medium text-primary hover:underline" dir="auto" href="/admin/clients/u1" data-discover="true">Nadia</a><div class="text-xs text-muted-foreground" dir="ltr"><span dir="ltr" class="wrap-break-word">nadia@<wbr/>example<wbr/>.com</span></div></td>',
    );
  });
});
