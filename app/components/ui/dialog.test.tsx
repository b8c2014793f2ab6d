// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { useState } from "react";
import { hydrateRoot } from "react-dom/client";
import { renderToStaticMarkup, renderToString } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import {
  Dialog,
  DialogClose,
  DialogPanel,
  DialogShell,
  DialogTrigger,
  ModalDialog,
} from "./dialog";

// jsdom has the <dialog> element but not its showModal() and close(): enough of them for these tests (the
// top layer, the inert page and the focus moving in are the browser's, checked in tests/e2e).
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = vi.fn(function (this: HTMLDialogElement) {
    this.setAttribute("open", "");
  });
  HTMLDialogElement.prototype.close = vi.fn(function (this: HTMLDialogElement) {
    if (!this.open) return;
    this.removeAttribute("open");
    this.dispatchEvent(new Event("close"));
  });
});

afterEach(cleanup);

function Example({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
  return (
    <Dialog onOpenChange={onOpenChange}>
      <DialogTrigger>Open</DialogTrigger>
      <DialogPanel closeLabel="Close" title="Buy coins" description="How coins are bought.">
        <a href="/support">Ticket</a>
        <DialogClose>Cancel</DialogClose>
      </DialogPanel>
    </Dialog>
  );
}

const dialog = () => document.querySelector("dialog");

function open() {
  const trigger = screen.getByRole("button", { name: "Open" });
  trigger.focus();
  fireEvent.click(trigger);
  return trigger;
}

describe("Dialog", () => {
  it("is not in the page while closed, nor in the server's HTML", () => {
    render(<Example />);
    expect(dialog()).toBeNull();
    const trigger = screen.getByRole("button", { name: "Open" });
    expect(trigger.getAttribute("aria-haspopup")).toBe("dialog");
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    expect(renderToStaticMarkup(<Example />)).not.toContain("<dialog");
  });

  it("opens as a modal named by its title and described by its description", () => {
    render(<Example />);
    const trigger = open();
    const element = dialog()!;
    expect(element.showModal).toHaveBeenCalled();
    expect(element.open).toBe(true);
    // Outside the trigger's place in the page: a portal to the body.
    expect(element.parentElement).toBe(document.body);
    expect(document.getElementById(element.getAttribute("aria-labelledby")!)?.textContent).toBe(
      "Buy coins",
    );
    expect(document.getElementById(element.getAttribute("aria-describedby")!)?.textContent).toBe(
      "How coins are bought.",
    );
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(screen.getByRole("button", { name: "Close" })).toBeTruthy();
  });

  it("keeps the page behind from scrolling while it is open", () => {
    render(<Example />);
    open();
    expect(document.documentElement.style.overflow).toBe("hidden");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(document.documentElement.style.overflow).toBe("");
  });

  it("closes on Escape (the cancel event), giving the focus back to its trigger", () => {
    const onOpenChange = vi.fn();
    render(<Example onOpenChange={onOpenChange} />);
    const trigger = open();
    screen.getByRole("link", { name: "Ticket" }).focus();
    const cancel = new Event("cancel", { cancelable: true });
    act(() => void dialog()!.dispatchEvent(cancel));
    // React's state closes it, not the browser.
    expect(cancel.defaultPrevented).toBe(true);
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(trigger);
    expect(onOpenChange.mock.calls).toEqual([[true], [false]]);
  });

  it("closes with its close button and with a DialogClose", () => {
    render(<Example />);
    const trigger = open();
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(dialog()).toBeNull();
    expect(document.activeElement).toBe(trigger);
    open();
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    expect(dialog()).toBeNull();
  });

  it("closes on a click on the backdrop, not on a click inside it", () => {
    render(<Example />);
    open();
    vi.spyOn(dialog()!, "getBoundingClientRect").mockReturnValue(new DOMRect(100, 100, 400, 300));
    // Inside its box (its padding is the dialog itself too): stays open.
    fireEvent.pointerDown(dialog()!, { clientX: 110, clientY: 110 });
    fireEvent.click(dialog()!, { clientX: 110, clientY: 110 });
    fireEvent.click(screen.getByRole("link", { name: "Ticket" }));
    expect(dialog()).not.toBeNull();
    // Pressed inside, released outside (a text selection dragged out): stays open.
    fireEvent.pointerDown(dialog()!, { clientX: 110, clientY: 110 });
    fireEvent.click(dialog()!, { clientX: 20, clientY: 20 });
    expect(dialog()).not.toBeNull();
    // On the backdrop: closes.
    fireEvent.pointerDown(dialog()!, { clientX: 20, clientY: 20 });
    fireEvent.click(dialog()!, { clientX: 20, clientY: 20 });
    expect(dialog()).toBeNull();
  });

  it("follows its `open` when controlled, and asks `onOpenChange` to close", () => {
    const asked: boolean[] = [];
    function Controlled() {
      const [open, setOpen] = useState(true);
      return (
        <>
          <DialogShell
            open={open}
            onOpenChange={(next) => {
              asked.push(next);
              setOpen(next);
            }}
            trigger={<button type="button">Edit</button>}
            closeLabel="Close"
            title="Edit"
            description="Change the name."
            role="alertdialog"
          />
          <output>{open ? "open" : "closed"}</output>
        </>
      );
    }
    render(<Controlled />);
    expect(dialog()?.getAttribute("role")).toBe("alertdialog");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(asked).toEqual([false]);
    expect(screen.getByText("closed")).toBeTruthy();
    expect(dialog()).toBeNull();
    // The trigger (a button of the caller's) opens it again.
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    expect(dialog()).not.toBeNull();
  });

  it("stays open when a controlling parent keeps it open", () => {
    const onOpenChange = vi.fn();
    render(
      <Dialog open onOpenChange={onOpenChange}>
        <ModalDialog aria-label="Menu">
          <DialogClose>Shut</DialogClose>
        </ModalDialog>
      </Dialog>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Shut" }));
    expect(onOpenChange).toHaveBeenCalledWith(false);
    expect(dialog()?.getAttribute("aria-label")).toBe("Menu");
  });

  it("gives the focus to `returnFocus` when it is not opened by a DialogTrigger", () => {
    function Drawer() {
      const [open, setOpen] = useState(false);
      const [button, setButton] = useState<HTMLButtonElement | null>(null);
      return (
        <Dialog open={open} onOpenChange={setOpen}>
          <button type="button" ref={setButton} onClick={() => setOpen(true)}>
            Menu
          </button>
          <ModalDialog aria-label="Admin" returnFocus={{ current: button }}>
            <DialogClose>Shut</DialogClose>
          </ModalDialog>
        </Dialog>
      );
    }
    render(<Drawer />);
    // Clicked without taking the focus (as in Safari): nothing had it when it opened.
    fireEvent.click(screen.getByRole("button", { name: "Menu" }));
    expect(document.activeElement).toBe(document.body);
    screen.getByRole("button", { name: "Shut" }).focus();
    fireEvent.click(screen.getByRole("button", { name: "Shut" }));
    expect(document.activeElement).toBe(screen.getByRole("button", { name: "Menu" }));
  });
});

describe("a Dialog in the page (inPage)", () => {
  function InPage({ onOpenChange }: { onOpenChange?: (open: boolean) => void }) {
    return (
      <Dialog inPage onOpenChange={onOpenChange}>
        <DialogTrigger>Open</DialogTrigger>
        <DialogPanel closeLabel="Close" title="Buy coins" description="How coins are bought.">
          <DialogClose asChild>
            <a href="/support">Ticket</a>
          </DialogClose>
        </DialogPanel>
      </Dialog>
    );
  }

  it("is in the server's HTML, closed, and its buttons open and close it without a script", () => {
    const html = renderToStaticMarkup(<InPage />);
    const id = /<dialog [^>]*\bid="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    expect(html).toMatch(/<dialog [^>]*popover="auto"[^>]*closedby="any"/);
    expect(html).not.toMatch(/<dialog [^>]*\sopen[\s=>]/);
    const trigger = /<button [^>]*>Open</.exec(html)?.[0] ?? "";
    for (const attribute of [
      'type="button"',
      `commandfor="${id}"`,
      'command="show-modal"',
      'aria-haspopup="dialog"',
    ])
      expect(trigger).toContain(attribute);
    // (React writes the attribute's name as the prop's, popoverTarget; HTML's names know no case.)
    expect(trigger).toMatch(new RegExp(`\\bpopovertarget="${id}"`, "i"));
    expect(trigger).not.toContain("aria-expanded");
    const close = /<button [^>]*aria-label="Close"/.exec(html)?.[0] ?? "";
    expect(close).toContain(`commandfor="${id}" command="close"`);
    expect(close).toMatch(/\bpopovertargetaction="hide"/i);
    // A link that closes it leaves the page: no command on it.
    expect(/<a [^>]*>Ticket/.exec(html)?.[0]).not.toContain("commandfor");
  });

  it("opens and closes with React's state in its place in the page, and stays there closed", () => {
    const onOpenChange = vi.fn();
    render(<InPage onOpenChange={onOpenChange} />);
    const element = dialog()!;
    expect(element.open).toBe(false);
    const trigger = open();
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(element.showModal).toHaveBeenCalled();
    expect(element.open).toBe(true);
    expect(element.parentElement).not.toBe(document.body);
    expect(document.documentElement.style.overflow).toBe("hidden");
    fireEvent.click(screen.getByRole("button", { name: "Close" }));
    expect(dialog()).toBe(element);
    expect(element.open).toBe(false);
    expect(document.activeElement).toBe(trigger);
    expect(document.documentElement.style.overflow).toBe("");
    expect(onOpenChange.mock.calls).toEqual([[true], [false]]);
  });

  it("stays open when the browser's late `close` of its last closing arrives after it opened again", () => {
    render(<InPage />);
    const element = dialog()!;
    const trigger = open();
    act(() => void element.dispatchEvent(new Event("cancel", { cancelable: true })));
    expect(element.open).toBe(false);
    fireEvent.click(trigger);
    expect(element.open).toBe(true);
    // The browser queues `close` when the element closes: Escape then a quick Enter can open it again first.
    act(() => void element.dispatchEvent(new Event("close")));
    expect(element.open).toBe(true);
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
  });

  it("prevents the browser's own command once React runs, so the dialog opens once", () => {
    render(<InPage />);
    const trigger = screen.getByRole("button", { name: "Open" });
    const click = new MouseEvent("click", { bubbles: true, cancelable: true });
    act(() => void trigger.dispatchEvent(click));
    expect(click.defaultPrevented).toBe(true);
    expect(dialog()!.open).toBe(true);
  });

  it("opened before React ran, it is open as React arrives; Escape then closes it as any other", async () => {
    const onOpenChange = vi.fn();
    const container = document.createElement("div");
    document.body.append(container);
    container.innerHTML = renderToString(<InPage onOpenChange={onOpenChange} />);
    // The browser's command, before the scripts: shown modal, the focus inside.
    const element = container.querySelector("dialog")!;
    element.setAttribute("open", "");
    screen.getByRole("link", { name: "Ticket" }).focus();
    // React's development build reports the attribute the browser added (its production build does not
    // look): silenced here, where it is the point.
    const report = vi.spyOn(console, "error").mockImplementation(() => {});
    const root = await act(async () =>
      hydrateRoot(container, <InPage onOpenChange={onOpenChange} />),
    );
    report.mockRestore();
    expect(onOpenChange.mock.calls).toEqual([[true]]);
    const trigger = screen.getByRole("button", { name: "Open" });
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(document.documentElement.style.overflow).toBe("hidden");
    act(() => void element.dispatchEvent(new Event("cancel", { cancelable: true })));
    expect(element.open).toBe(false);
    expect(document.activeElement).toBe(trigger);
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    act(() => root.unmount());
    container.remove();
  });
});
