// @vitest-environment jsdom
import { renderToStaticMarkup } from "react-dom/server";
import { UNSAFE_FrameworkContext } from "react-router";
import { describe, expect, it, vi } from "vitest";
import { startRuntimePrefetch } from "./runtime-prefetch.enhance";
import { RuntimePrefetch } from "./runtime-prefetch";

type Framework = NonNullable<React.ContextType<typeof UNSAFE_FrameworkContext>>;

// The part of React Router's manifest the prefetch reads: a route, its parent and the root.
const manifest = {
  url: "/assets/manifest-1.js",
  version: "1",
  entry: { module: "/assets/entry.client.js", imports: ["/assets/runtime.js", "/assets/kit.js"] },
  routes: {
    root: { id: "root", module: "/assets/root.js", imports: ["/assets/runtime.js"] },
    "routes/site-layout": {
      id: "routes/site-layout",
      parentId: "root",
      module: "/assets/site-layout.js",
      imports: ["/assets/vendor.js"],
    },
    "routes/dashboard": {
      id: "routes/dashboard",
      parentId: "routes/site-layout",
      module: "/assets/dashboard.js",
      imports: ["/assets/invoice-list.js"],
    },
    "routes/admin": { id: "routes/admin", parentId: "root", module: "/assets/admin.js" },
  },
} as unknown as Framework["manifest"];

// The dashboard's files in the order the prefetch lists them: the manifest, the entry, then each route
// from the root down with its imports, each file once.
const DASHBOARD_FILES = [
  "/assets/manifest-1.js",
  "/assets/entry.client.js",
  "/assets/runtime.js",
  "/assets/kit.js",
  "/assets/root.js",
  "/assets/site-layout.js",
  "/assets/vendor.js",
  "/assets/dashboard.js",
  "/assets/invoice-list.js",
];

function render(routeIds: string[]) {
  return renderToStaticMarkup(
    <UNSAFE_FrameworkContext.Provider value={{ manifest } as Framework}>
      <RuntimePrefetch routeIds={routeIds} />
    </UNSAFE_FrameworkContext.Provider>,
  );
}

describe("the prefetch of the next page's scripts", () => {
  it("names the manifest, the entry, and the route with the routes around it, each file once", () => {
    const html = render(["routes/dashboard"]);
    const list = /^<script type="application\/json" data-prefetch="">(.*)<\/script>$/.exec(html);
    expect(JSON.parse(list![1]!)).toEqual(DASHBOARD_FILES);
    expect(html).not.toContain("admin.js");
  });

  it("renders nothing without routes or outside React Router's framework", () => {
    expect(render([])).toBe("");
    expect(renderToStaticMarkup(<RuntimePrefetch routeIds={["routes/dashboard"]} />)).toBe("");
  });

  it("adds the links into the head once the page has loaded, not before, as module scripts fetch", () => {
    vi.useFakeTimers();
    try {
      document.head.innerHTML = "";
      document.body.innerHTML = render(["routes/dashboard"]);
      Object.defineProperty(document, "readyState", { value: "loading", configurable: true });
      startRuntimePrefetch(document);
      vi.runAllTimers();
      expect(document.head.querySelectorAll('link[rel="prefetch"]')).toHaveLength(0);
      window.dispatchEvent(new Event("load"));
      vi.runAllTimers();
      const links = [...document.head.querySelectorAll<HTMLLinkElement>('link[rel="prefetch"]')];
      expect(links.map((link) => link.getAttribute("href"))).toEqual(DASHBOARD_FILES);
      expect(links.map((link) => [link.as, link.crossOrigin])).toEqual(
        links.map(() => ["script", "anonymous"]),
      );
    } finally {
      vi.useRealTimers();
      Reflect.deleteProperty(document, "readyState");
    }
  });
});
