// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuTrigger,
} from "./dropdown-menu";

afterEach(cleanup);

function Example({
  onOpenChange,
  onSelect,
}: {
  onOpenChange?: (open: boolean) => void;
  onSelect?: () => void;
}) {
  return (
    <DropdownMenu onOpenChange={onOpenChange}>
      <DropdownMenuTrigger>Account</DropdownMenuTrigger>
      <DropdownMenuContent align="end">
        <DropdownMenuLabel>admin@example.com</DropdownMenuLabel>
        <DropdownMenuItem asChild>
          <a href="/admin/settings">Settings</a>
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={onSelect}>Logout</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

/** The attribute's value in a tag of server HTML (React writes some names as their props: popoverTarget). */
function attribute(tag: string, name: string) {
  return new RegExp(`\\s${name}="([^"]*)"`, "i").exec(tag)?.[1];
}

describe("DropdownMenu as the server sends it (before any script runs)", () => {
  const html = renderToStaticMarkup(<Example />);
  const trigger = /<button [^>]*>/.exec(html)?.[0] ?? "";
  const menu = /<div [^>]*role="menu"[^>]*>/.exec(html)?.[0] ?? "";

  it("is a popover in the page, which its trigger opens and the browser closes", () => {
    const id = attribute(menu, "id");
    expect(id).toBeTruthy();
    expect(attribute(menu, "popover")).toBe("auto");
    expect(attribute(trigger, "popovertarget")).toBe(id);
    expect(attribute(trigger, "aria-haspopup")).toBe("menu");
    expect(attribute(menu, "aria-labelledby")).toBe(attribute(trigger, "id"));
    // Its items are there to choose, before a script.
    expect(html).toContain('href="/admin/settings"');
    expect(html).toContain("Logout");
  });

  it("leaves aria-expanded to the browser until React runs", () => {
    expect(trigger).not.toContain("aria-expanded");
    expect(trigger).not.toContain("aria-controls");
  });

  it("is placed under its trigger by CSS alone, on the side `align` names", () => {
    const anchor = /anchor-name:\s*([^;"]+)/.exec(trigger)?.[1];
    expect(anchor).toMatch(/^--menu-[\w-]+$/);
    expect(menu).toContain(`position-anchor:${anchor}`);
    expect(attribute(menu, "class")).toContain("menu-popover");
    expect(attribute(menu, "data-align")).toBe("end");
  });
});

// jsdom has no popovers: these run the path of a browser without them, where React shows and hides the
// menu itself (the popover's own path is the browser's, tested in tests/e2e).
describe("DropdownMenu in a browser without popovers", () => {
  const menu = () => document.querySelector<HTMLElement>('[role="menu"]')!;

  it("says it is closed, opens on a click and tells onOpenChange", () => {
    const onOpenChange = vi.fn();
    render(<Example onOpenChange={onOpenChange} />);
    const trigger = screen.getByRole("button", { name: "Account" });
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
    expect(menu().hidden).toBe(true);
    fireEvent.click(trigger, { detail: 1 });
    expect(trigger.getAttribute("aria-expanded")).toBe("true");
    expect(trigger.getAttribute("aria-controls")).toBe(menu().id);
    expect(menu().hidden).toBe(false);
    // Opened with a pointer, the menu itself takes the focus.
    expect(document.activeElement).toBe(menu());
    expect(onOpenChange.mock.calls).toEqual([[true]]);
  });

  it("opens from the keyboard on its first item (ArrowUp: the last), and Escape gives the focus back", () => {
    render(<Example />);
    const trigger = screen.getByRole("button", { name: "Account" });
    trigger.focus();
    fireEvent.keyDown(trigger, { key: "ArrowDown" });
    expect(document.activeElement?.textContent).toBe("Settings");
    fireEvent.keyDown(document.activeElement!, { key: "ArrowDown" });
    expect(document.activeElement?.textContent).toBe("Logout");
    fireEvent.keyDown(document.activeElement!, { key: "Home" });
    expect(document.activeElement?.textContent).toBe("Settings");
    fireEvent.keyDown(document.activeElement!, { key: "Escape" });
    expect(menu().hidden).toBe(true);
    expect(document.activeElement).toBe(trigger);
    fireEvent.keyDown(trigger, { key: "ArrowUp" });
    expect(document.activeElement?.textContent).toBe("Logout");
  });

  it("closes when an item is chosen, and on a press outside", () => {
    const onSelect = vi.fn();
    render(<Example onSelect={onSelect} />);
    const trigger = screen.getByRole("button", { name: "Account" });
    fireEvent.click(trigger, { detail: 1 });
    fireEvent.click(screen.getByRole("menuitem", { name: "Logout" }));
    expect(onSelect).toHaveBeenCalledOnce();
    expect(menu().hidden).toBe(true);
    fireEvent.click(trigger, { detail: 1 });
    act(() => void document.body.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true })));
    expect(menu().hidden).toBe(true);
    expect(trigger.getAttribute("aria-expanded")).toBe("false");
  });
});
