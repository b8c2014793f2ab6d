import { useContext } from "react";
import { UNSAFE_FrameworkContext } from "react-router";

/**
 * The scripts of the pages named by route id (with the routes around them, React Router's own runtime,
 * our shared chunks and the route manifest), to be fetched into the browser's cache. The sign-in and
 * registration pages, served without React, name the dashboard: the page most people open right after
 * them then hydrates from the cache (ADR 51). The list is data: the enhance script adds the prefetch
 * links once the page has loaded (runtime-prefetch.enhance.ts). Links in the page's HTML started with
 * it, shared a slow link with its own stylesheet and delayed its first paint (and React hoists any
 * <link> it renders into <head>, so they cannot wait in a <template>).
 */
export function RuntimePrefetch({ routeIds }: { routeIds: readonly string[] }) {
  const manifest = useContext(UNSAFE_FrameworkContext)?.manifest;
  if (!manifest || routeIds.length === 0) return null;
  const files = new Set<string>([manifest.url, manifest.entry.module, ...manifest.entry.imports]);
  const seen = new Set<string>();
  const addRoute = (id: string | undefined) => {
    const route = id ? manifest.routes[id] : undefined;
    if (!route || seen.has(route.id)) return;
    seen.add(route.id);
    addRoute(route.parentId);
    if (route.module) files.add(route.module);
    for (const file of route.imports ?? []) files.add(file);
  };
  for (const id of routeIds) addRoute(id);
  return (
    <script
      type="application/json"
      data-prefetch=""
      // "<" escaped: a file name can never close the element.
      dangerouslySetInnerHTML={{ __html: JSON.stringify([...files]).replace(/</g, "\\u003c") }}
    />
  );
}
