/**
 * Adds the prefetch links of the files RuntimePrefetch listed into <head> once the page has loaded and
 * the browser is idle: the next page's scripts then come in while the visitor reads or types, after
 * everything this page needed for its first paint. `crossorigin` as a module script's own request, so
 * the cached answer is the one the next page reuses.
 */
export function startRuntimePrefetch(doc: Document): void {
  const list = doc.querySelector("script[data-prefetch]");
  if (!list) return;
  let files: unknown;
  try {
    files = JSON.parse(list.textContent ?? "");
  } catch {
    return;
  }
  if (!Array.isArray(files)) return;
  const view = doc.defaultView;
  const start = () => {
    for (const file of files as unknown[]) {
      if (typeof file !== "string") continue;
      const link = doc.createElement("link");
      link.rel = "prefetch";
      link.as = "script";
      link.crossOrigin = "anonymous";
      link.href = file;
      doc.head.append(link);
    }
  };
  const whenIdle = () => {
    if (view && "requestIdleCallback" in view) view.requestIdleCallback(start);
    else setTimeout(start, 0);
  };
  if (doc.readyState === "complete") whenIdle();
  else view?.addEventListener("load", whenIdle, { once: true });
}
