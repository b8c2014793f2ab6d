// @vitest-environment jsdom
import { Suspense, type ReactNode } from "react";
import { afterEach, describe, expect, it, vi } from "vitest";

// The browser build hydrates with Preact (ADR 42): here too, so what is tested is what a phone runs.
// preact/compat has no use(): the shim's (app/lib/use-shim.ts), as in the browser build.
vi.mock("react", async () => ({ ...(await import("preact/compat")), use: undefined }));
vi.mock("react/jsx-runtime", async () => await import("preact/compat/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", async () => await import("preact/compat/jsx-dev-runtime"));
vi.mock("react-dom/client", async () => await import("preact/compat/client"));

const { hydrateRoot } = await import("react-dom/client");
const { afterLaterPieces, HydrateLater } = await import("./hydrate-later");

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

const clicked: string[] = [];

function Piece({ name, children }: { name: string; children: ReactNode }) {
  return (
    <section id={name} onClick={() => clicked.push(name)}>
      {children}
    </section>
  );
}

/** The pieces that answer a click: those hydrated so far. */
function hydratedIn(container: HTMLElement): string[] {
  clicked.length = 0;
  for (const section of container.querySelectorAll("section")) section.click();
  return [...clicked];
}

afterEach(() => document.body.replaceChildren());

describe("HydrateLater", () => {
  it("hydrates each piece in a task of its own, keeping the server's nodes", async () => {
    const html = '<main><section id="a">one</section><section id="b">two</section></main>';
    const container = document.createElement("div");
    container.innerHTML = html;
    document.body.append(container);
    const [a, b] = container.querySelectorAll("section");

    hydrateRoot(
      container,
      // One boundary above both, as on a page: each piece must still resume on its own turn.
      <Suspense fallback={null}>
        <main>
          <HydrateLater piece="a">
            <Piece name="a">one</Piece>
          </HydrateLater>
          <HydrateLater piece="b">
            <Piece name="b">two</Piece>
          </HydrateLater>
        </main>
      </Suspense>,
    );
    const done = afterLaterPieces();

    expect(hydratedIn(container)).toEqual([]);
    // The first turn's timer is set a microtask after hydrate() returns, so after this test's first one.
    await nextTask();
    await nextTask();
    expect(hydratedIn(container)).toEqual(["a"]);
    await nextTask();
    expect(hydratedIn(container)).toEqual(["a", "b"]);
    await done;
    const [nowA, nowB] = container.querySelectorAll("section");
    expect(nowA).toBe(a);
    expect(nowB).toBe(b);
    expect(container.innerHTML).toBe(html);
  });
});
