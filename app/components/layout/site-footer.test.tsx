import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { defaultSettings } from "~/domain/settings/settings";
import { renderHtml } from "../../../tests/support/render-html";
import { SiteFooter } from "./site-footer";

describe("the footer", () => {
  it("writes the server's year, not the clock of whoever renders it", async () => {
    const { general, links, theme, features } = defaultSettings();
    const Stub = createRoutesStub([
      {
        path: "/",
        Component: () => (
          <SiteFooter
            user={null}
            settings={{ general, links, theme, features }}
            locale="en"
            year={2031}
          />
        ),
      },
    ]);
    // A year the real clock is not in: a footer that read the clock would hydrate to another one.
    const html = await renderHtml(<Stub initialEntries={["/"]} />);
    expect(html).toContain(`© 2031 ${general.siteName}`);
  });
});
