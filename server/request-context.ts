import type { NextFunction, Request, Response } from "express";
import { createRequestContext, type AppServices, type RequestContext } from "~/context.server";
import { getCurrentSession } from "~/domain/accounts/accounts.server";

/**
 * Builds the request's context once (session, cached settings, language): the maintenance gate reads it
 * and React Router's loaders and actions receive it (getLoadContext).
 */
export function attachRequestContext(services: AppServices) {
  return async (req: Request, res: Response, next: NextFunction) => {
    res.locals.requestContext = await createRequestContext(
      services,
      {
        cookie: req.get("cookie") ?? null,
        acceptLanguage: req.get("accept-language") ?? null,
        queryLocale: typeof req.query.lang === "string" ? req.query.lang : null,
      },
      { cspNonce: String(res.locals.cspNonce ?? ""), clientIp: req.ip ?? "unknown" },
    );
    next();
  };
}

export function contextOf(res: Response): RequestContext {
  return res.locals.requestContext as RequestContext;
}

/** Whether a request's cookie names a live session of an active account (request-limits.ts asks). */
export function signedInRequest(services: AppServices) {
  return async (req: Request) =>
    (await getCurrentSession(services, req.get("cookie") ?? null)) !== null;
}
