import type { NextFunction, Request, Response } from "express";
import type { Logger } from "pino";

/**
 * One log line per answered request: method, path (never the query, which can carry a reset token),
 * status and time taken; at "error" for a 5xx, "info" otherwise, "warn" when the client went away first.
 * A 503 that says when to come back (Retry-After: the maintenance page) is planned, not an error: a
 * maintenance window would otherwise fill the error log with every visit.
 * Static assets are not logged.
 *
 * It replaces pino-http, which made a child logger, a request id and serializer objects for every request
 * even when nothing was written (LOG_LEVEL=error): about 3% of a dashboard's CPU and 6% of an order's.
 * Here a request whose line would not be written costs one listener and a clock reading.
 */
export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.url.startsWith("/assets/")) return next();
    const start = performance.now();
    const done = () => {
      res.removeListener("finish", done);
      res.removeListener("close", done);
      const level = !res.writableFinished ? "warn" : serverError(res) ? "error" : "info";
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: { method: req.method, url: req.originalUrl.split("?")[0] },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - start),
        },
        res.writableFinished ? "request completed" : "request aborted",
      );
    };
    res.once("finish", done);
    res.once("close", done);
    next();
  };
}

function serverError(res: Response): boolean {
  if (res.statusCode < 500) return false;
  return !(res.statusCode === 503 && res.getHeader("retry-after") !== undefined);
}
