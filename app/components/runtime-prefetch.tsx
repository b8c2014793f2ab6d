import { useContext } from "react";
import { UNSAFE_FrameworkContext } from "react-router";

/**
 * The scripts of the pages named by route id (with the routes around them, React Router's own runtime,
 * our shared chunks and the route manifest), fetched into the browser's cache at the lowest priority,
 * after what the page itself needs. The sign-in and registration pages, served without React, name the
 * dashboard: the page most people open right after them then hydrates from the cache (ADR 51).
 * `crossOrigin` as a module script's own request, so the cached answer is the one the page reuses.
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
  return [...files].map((href) => (
    <link key={href} rel="prefetch" as="script" crossOrigin="anonymous" href={href} />
  ));
}
