import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { createElement, type ReactElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import * as lucide from "lucide-react";
import { describe, expect, it } from "vitest";
import { ServerIcon } from "./lucide-icon.server";

type IconComponent = { render: (props: object, ref: unknown) => ReactElement<{ icon: object }> };

/** Every icon app/ imports from lucide-react, by name. */
function iconsTheAppUses(): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (/\.tsx?$/.test(entry.name)) {
        const source = readFileSync(file, "utf8");
        for (const match of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"lucide-react"/g))
          for (const name of match[1]!.split(","))
            if (name.trim() && !name.includes("type ")) names.add(name.trim().split(" as ")[0]!);
      }
    }
  };
  walk(path.resolve(import.meta.dirname, ".."));
  // Types (LucideIcon, LucideProps) are imported without `type` at times: no render function.
  // ServerIcon's own module imports lucide's `Icon`, which is not an icon.
  names.delete("Icon");
  return [...names].filter(
    (name) => typeof (lucide as Record<string, { render?: unknown }>)[name]?.render === "function",
  );
}

/** An icon drawn by lucide, and the same icon drawn through ServerIcon (twice: drawn, then kept). */
function both(name: string, props: Record<string, unknown>, wrap = (node: ReactNode) => node) {
  const Original = (lucide as unknown as Record<string, IconComponent>)[name]!;
  // What lucide's icon hands its Icon: the icon's data and the props.
  const inner = Original.render(props, null);
  const theirs = renderToStaticMarkup(wrap(createElement(Original as never, props)));
  const ours = [0, 1].map(() =>
    renderToStaticMarkup(wrap(createElement(ServerIcon, inner.props as never))),
  );
  return { theirs, ours };
}

const PROPS: Record<string, unknown>[] = [
  {},
  { className: "size-4" },
  { className: "size-4 text-primary", "aria-hidden": true },
  { className: "size-5", "aria-hidden": "true" },
  { "aria-label": "Notifications" },
  { size: 16 },
  { size: "1.5em", strokeWidth: 1.5 },
  { absoluteStrokeWidth: true, size: 32 },
  { color: "red", width: 20, height: 10 },
  { nonScalingStroke: true },
  { role: "img", "data-state": "open", id: "icon-1", focusable: false },
  { children: "Server", "aria-label": "Server" },
  // Not kept (drawn by lucide each time): a child element, a handler, a style object.
  { children: createElement("title", null, "Server") },
  { onClick: () => {} },
  { style: { color: "blue" } },
];

describe("ServerIcon", () => {
  const names = iconsTheAppUses();

  it("is where the server build's icons draw: lucide's icons import its Icon as vite.config.ts expects", () => {
    // iconsKeptOnTheServer redirects this very import; a lucide-react that moves it would leave the
    // server drawing with lucide's own Icon again, at the old cost, without a word.
    const root = path.resolve(import.meta.dirname, "../..");
    const createIcon = readFileSync(
      path.join(root, "node_modules/lucide-react/dist/esm/createLucideIcon.mjs"),
      "utf8",
    );
    expect(createIcon).toMatch(/import Icon from '\.\/Icon\.mjs';/);
    expect(readFileSync(path.join(root, "vite.config.ts"), "utf8")).toContain(
      "./app/lib/lucide-icon.server.tsx",
    );
  });

  it("draws every icon the app uses exactly as lucide does, with any props, kept or not", () => {
    expect(names.length).toBeGreaterThan(30);
    for (const name of names) {
      for (const props of PROPS) {
        const { theirs, ours } = both(name, props);
        expect(theirs, name).toMatch(/^<svg [^>]*>.*<\/svg>$/);
        expect(ours[0], `${name} ${JSON.stringify(props)}`).toBe(theirs);
        expect(ours[1], `${name} ${JSON.stringify(props)} kept`).toBe(theirs);
      }
    }
  });

  it("follows a LucideProvider's values, keeping each set apart", () => {
    for (const values of [
      {},
      { size: 20 },
      { strokeWidth: 1, className: "icon" },
      { color: "green" },
    ]) {
      const wrap = (node: ReactNode) =>
        createElement(lucide.LucideProvider, { ...values, children: node });
      for (const props of PROPS.slice(0, 4)) {
        const { theirs, ours } = both("ServerIcon", props, wrap);
        expect(ours, JSON.stringify([values, props])).toEqual([theirs, theirs]);
      }
    }
  });
});
