import { data } from "react-router";
import { MaintenancePage } from "~/features/site/maintenance-page";
import { metaFor } from "~/lib/route-meta";
import { useRootData } from "~/root";
import type { Route } from "./+types/maintenance";
import { requestContext } from "~/context.server";

/** How long clients are asked to wait before trying again (Retry-After, seconds). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 600;

// No scripts on this page: it is also served at other addresses (server/maintenance.ts answers every page
// with it), where hydrating would match the wrong routes. Read by the root layout.
export const handle = { hydrate: false };

/**
 * The maintenance page (ADR 12). The gate in server/maintenance.ts serves it for every page and form
 * while maintenance mode is on; an admin (whom the gate lets through) may open it here as a preview.
 */
export function loader({ context: routerContext }: Route.LoaderArgs) {
  const context = requestContext(routerContext);
  const { maintenanceMode, maintenanceMessage } = context.settings.general;
  const admin = context.session?.user.role === "admin";
  if (!maintenanceMode && !admin) throw data(null, { status: 404 });
  const t = context.i18n.getFixedT(null, "common");
  return data(
    {
      meta: { title: t("maintenance.metaTitle") },
      message: maintenanceMessage,
      preview: admin ? { maintenanceMode } : null,
    },
    {
      status: maintenanceMode ? 503 : 200,
      headers: {
        ...(maintenanceMode ? { "Retry-After": String(MAINTENANCE_RETRY_AFTER_SECONDS) } : {}),
        // Never kept by a browser or a proxy: the site must come back as soon as maintenance ends.
        "Cache-Control": "no-store",
      },
    },
  );
}

export function headers({ loaderHeaders }: Route.HeadersArgs) {
  const headers = new Headers();
  for (const name of ["Retry-After", "Cache-Control"]) {
    const value = loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => metaFor(loaderData, matches);

export default function Maintenance({ loaderData }: Route.ComponentProps) {
  const root = useRootData();
  return (
    <MaintenancePage
      siteName={root?.settings.general.siteName ?? "Hostfront"}
      message={loaderData.message}
      locale={root?.locale ?? "en"}
      user={root?.user ? { email: root.user.email } : null}
      preview={loaderData.preview}
      // Served without JavaScript, so nothing hydrates; the clock is a stand-in only without root data.
      year={root?.year ?? new Date().getUTCFullYear()}
    />
  );
}
