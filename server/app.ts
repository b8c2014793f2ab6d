import express, { type NextFunction, type Request, type Response } from "express";
import { bootServices, routerContextFor, translatorFor } from "~/context.server";
import { healthAnswer } from "./health";
import { maintenanceGate } from "./maintenance";
import { privateResponses } from "./private-responses";
import { reactRouterHandler } from "./react-router-handler";
import { attachRequestContext, contextOf, signedInRequest } from "./request-context";
import { requestLimits } from "./request-limits";
import { referralLinks } from "./referral-links";
import { isOneClickUnsubscribePath, refusedAsCrossSite } from "./same-origin";
import { startBackgroundWorker, startStaleWatch, stopBackgroundWorker } from "./worker";

/**
 * The part of the server that is bundled with the React Router build (one module graph, so the
 * database pool and the auth instance exist once). server/index.ts mounts it behind helmet,
 * compression and logging.
 */
const services = await bootServices();

// The background worker runs in every server process unless WORKER=off (docs/automation.md).
// Without it, the process still checks that some worker runs the schedules (the stale-schedule alert).
if (services.env.WORKER === "on") startBackgroundWorker(services);
else startStaleWatch(services);

export const app = express.Router();

app.get("/healthz", async (req, res) => {
  // ?deep=1 adds the background worker's state, for admins and HEALTHZ_TOKEN (server/health.ts).
  const { status, body } = await healthAnswer(services, {
    deep: req.query.deep === "1",
    cookie: req.get("cookie") ?? null,
    authorization: req.get("authorization"),
  });
  res.status(status).json(body);
});

// A state-changing request that says it comes from another site is refused before any route runs; a
// provider's notification comes from another server by design (its signature is its proof).
const translate = (req: Request) =>
  translatorFor(services, {
    cookie: req.get("cookie") ?? null,
    acceptLanguage: req.get("accept-language") ?? null,
  });

app.use(async (req: Request, res: Response, next: NextFunction) => {
  if (refusedAsCrossSite(req.method, req.path, req.headers)) {
    res
      .status(403)
      .type("text/plain")
      .send((await translate(req))("http.crossSite"));
    return;
  }
  // A mail provider's one-click unsubscribe (RFC 8058) names its own site as the Origin; React Router
  // refuses a page's action posted from another origin, so the header is dropped for that one address,
  // whose signed token is its only proof and which acts on no session (server/same-origin.ts).
  if (req.method === "POST" && isOneClickUnsubscribePath(req.path)) delete req.headers.origin;
  next();
});

// A referral link sets its cookie and drops its `ref` before any page is rendered or kept (docs/referrals.md).
app.use(referralLinks(services.db));

// In production the build is handed over as a module, imported once. Given a function instead, React
// Router re-derives its route tables (flattening and ranking every route) on each request, and each
// import() goes through Node's module loader and tsx's resolve hook: together about a fifth of the CPU of
// a request. In development the function stays, so Vite can swap the routes as they are edited.
const build = import.meta.env.PROD
  ? await import("virtual:react-router/server-build")
  : () => import("virtual:react-router/server-build");

// Body sizes and the per-address limit on the public forms, applied to the route React Router will run
// (not to a path prefix, which `/contact.data` or `/%63ontact` would pass), counted in the database
// (docs/security.md). Login has its own finer throttle in the domain.
app.use(
  requestLimits({
    db: services.db,
    settings: services.env,
    build,
    translate,
    signedIn: signedInRequest(services),
  }),
);

app.use(attachRequestContext(services));

// Whatever a signed-in request gets, and anything that sets a cookie, is kept by no cache.
app.use(privateResponses((res) => Boolean(contextOf(res)?.session)));

// Maintenance mode: visitors and customers get the maintenance page; admins pass (ADR 12).
app.use(maintenanceGate(contextOf));

app.use(
  reactRouterHandler({
    build,
    mode: services.env.NODE_ENV,
    // React Router's middleware context holding the request context built above (ADR 18).
    getLoadContext: (_req, res) => routerContextFor(contextOf(res)),
  }),
);

export async function shutdown() {
  await stopBackgroundWorker(services);
  await services.database.destroy();
}
