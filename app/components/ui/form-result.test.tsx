// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import type { ReactNode } from "react";
import {
  createMemoryRouter,
  Form,
  Outlet,
  redirect,
  RouterProvider,
  useActionData,
} from "react-router";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FormAlert } from "./form-card";
import { revealFormResult } from "./form-result";
import { StatusMessage } from "./status-message";
import { useRevealFormResults } from "./use-reveal-form-results";

// jsdom lays nothing out: an element has boxes unless it is hidden or folded in a closed <details>
// (what the browser would not draw), and scrolling is recorded rather than done.
const scrolled = vi.fn();
let reducedMotion = false;
beforeEach(() => {
  scrolled.mockClear();
  reducedMotion = false;
  vi.spyOn(HTMLElement.prototype, "getClientRects").mockImplementation(function (
    this: HTMLElement,
  ) {
    const hidden = this.closest("[hidden]") ?? this.closest("details:not([open]) > :not(summary)");
    return (hidden ? [] : [new DOMRect(0, 0, 10, 10)]) as unknown as DOMRectList;
  });
  HTMLElement.prototype.scrollIntoView = function (this: HTMLElement, options) {
    scrolled(this, options);
  };
  window.matchMedia = ((query: string) => ({
    matches: query === "(prefers-reduced-motion: reduce)" && reducedMotion,
  })) as typeof window.matchMedia;
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

function Invalid({ name, label }: { name: string; label: string }) {
  return (
    <label>
      {label}
      <input name={name} aria-invalid="true" />
    </label>
  );
}

describe("revealFormResult", () => {
  it("scrolls a form's outcome into the middle of the screen and focuses it", () => {
    render(
      <main>
        <StatusMessage ok>Thank you: an admin will check your payment.</StatusMessage>
        <button type="submit">I have paid</button>
      </main>,
    );
    const status = screen.getByRole("status");
    expect(revealFormResult(document)).toBe(status);
    expect(document.activeElement).toBe(status);
    expect(scrolled).toHaveBeenCalledWith(status, { block: "center", behavior: "smooth" });
  });

  it("jumps without the smooth scroll for a reader who asked for reduced motion", () => {
    reducedMotion = true;
    render(<FormAlert>Wrong email or password.</FormAlert>);
    const alert = screen.getByRole("alert");
    revealFormResult(document);
    expect(document.activeElement).toBe(alert);
    expect(scrolled).toHaveBeenCalledWith(alert, { block: "center", behavior: "auto" });
  });

  it("takes the error summary above the fields before the first refused field", () => {
    render(
      <form>
        <StatusMessage ok={false}>The product was not saved</StatusMessage>
        <Invalid name="name" label="Name" />
      </form>,
    );
    expect(revealFormResult(document)).toBe(screen.getByRole("status"));
  });

  it("takes the outcome by the button before a refused field above it", () => {
    render(
      <form>
        <Invalid name="hostname" label="Server name" />
        <FormAlert>Your order was not placed: check the server name.</FormAlert>
        <button type="submit">Place the order</button>
      </form>,
    );
    expect(revealFormResult(document)).toBe(screen.getByRole("alert"));
  });

  it("focuses the first refused field when no summary says it, or the first choice of a group", () => {
    const { unmount } = render(
      <form>
        <input name="ok" />
        <Invalid name="payerAccount" label="Phone number or account that paid" />
        <Invalid name="paidOn" label="Date paid" />
      </form>,
    );
    revealFormResult(document);
    expect(document.activeElement).toBe(screen.getByLabelText("Phone number or account that paid"));
    unmount();
    render(
      <fieldset aria-invalid="true">
        <legend>Payment method</legend>
        <input type="radio" name="methodId" aria-label="Inwi Money" />
        <input type="radio" name="methodId" aria-label="cashPlus" />
      </fieldset>,
    );
    revealFormResult(document);
    expect(document.activeElement).toBe(screen.getByLabelText("Inwi Money"));
  });

  it("passes over what is not shown, and looks only inside an open dialog", () => {
    render(
      <>
        <details>
          <summary>Change what you sent</summary>
          <StatusMessage ok={false}>Folded away</StatusMessage>
        </details>
        <StatusMessage ok>On the page</StatusMessage>
        <dialog open>
          <FormAlert>In the dialog</FormAlert>
        </dialog>
      </>,
    );
    expect(revealFormResult(document)?.textContent).toBe("In the dialog");
    document.querySelector("dialog")!.removeAttribute("open");
    expect(revealFormResult(document)?.textContent).toBe("On the page");
  });

  it("does nothing on a page with no outcome", () => {
    render(<button type="submit">Save</button>);
    expect(revealFormResult(document)).toBeNull();
    expect(scrolled).not.toHaveBeenCalled();
  });
});

describe("useRevealFormResults", () => {
  function Root() {
    useRevealFormResults();
    return <Outlet />;
  }
  function Page({ children }: { children?: ReactNode }) {
    const result = useActionData<{ text: string }>();
    return (
      <main>
        {result ? <StatusMessage ok>{result.text}</StatusMessage> : null}
        {children}
        <Form method="post">
          <input name="answer" defaultValue="stay" />
          <button type="submit">Send</button>
        </Form>
        <Form method="get">
          <input name="q" defaultValue="x" />
          <button type="submit">Search</button>
        </Form>
      </main>
    );
  }
  function renderApp() {
    const router = createMemoryRouter(
      [
        {
          path: "/",
          Component: Root,
          children: [
            {
              path: "top-up",
              Component: Page,
              action: async ({ request }) => {
                const answer = (await request.formData()).get("answer");
                return answer === "leave" ? redirect("/done") : { text: "Thank you" };
              },
            },
            {
              path: "done",
              Component: () => <StatusMessage ok>Saved elsewhere</StatusMessage>,
            },
          ],
        },
      ],
      { initialEntries: ["/top-up"] },
    );
    render(<RouterProvider router={router} />);
    return router;
  }

  it("reveals the answer of a form the page stays on", async () => {
    renderApp();
    const send = screen.getByRole("button", { name: "Send" });
    send.focus();
    await act(async () => fireEvent.click(send));
    const status = await screen.findByRole("status");
    await vi.waitFor(() => expect(document.activeElement).toBe(status));
    expect(status).toHaveProperty("textContent", "Thank you");
    expect(scrolled).toHaveBeenCalledWith(status, expect.anything());
  });

  it("leaves a redirect to another page, and a search, alone", async () => {
    const router = renderApp();
    const search = screen.getByRole("button", { name: "Search" });
    search.focus();
    await act(async () => fireEvent.click(search));
    await vi.waitFor(() => expect(router.state.location.search).toBe("?q=x"));
    expect(scrolled).not.toHaveBeenCalled();

    fireEvent.change(screen.getByDisplayValue("stay"), { target: { value: "leave" } });
    await act(async () => fireEvent.click(screen.getByRole("button", { name: "Send" })));
    await screen.findByText("Saved elsewhere");
    await vi.waitFor(() => expect(router.state.navigation.state).toBe("idle"));
    expect(scrolled).not.toHaveBeenCalled();
  });
});
