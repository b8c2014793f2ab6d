import type { NextFunction, Request, Response } from "express";

/** What every response that depends on a session carries: no cache, shared or the browser's, keeps it. */
export const PRIVATE_CACHE_CONTROL = "private, no-store";

/**
 * A response depends on a session when the request was signed in (a page, its `.data`, a CSV export, a
 * redirect, an error page: whatever it is, it was made for one person), or when it sets a cookie (the
 * login redirect that starts a session, a consumed toast, a language choice). A visitor's page that
 * sets nothing stays as it is: the server keeps those rendered (ADR 15) and they may be cached.
 */
export function isPrivateResponse(input: { signedIn: boolean; setsCookie: boolean }): boolean {
  return input.signedIn || input.setsCookie;
}

/**
 * Sets Cache-Control just before the headers go out, whoever wrote the response (React Router's page,
 * data and resource routes, a redirect, the maintenance gate, the last-resort error handler), and over
 * any value a route set itself ("no-store" on a CSV becomes "private, no-store").
 */
export function privateResponses(signedIn: (res: Response) => boolean) {
  return (_req: Request, res: Response, next: NextFunction) => {
    const writeHead = res.writeHead;
    res.writeHead = function (this: Response, ...args: unknown[]) {
      // Headers handed to writeHead itself are set first, so the decision sees all of them.
      const last = args.at(-1);
      if (args.length > 1 && last && typeof last === "object" && !Array.isArray(last)) {
        for (const [name, value] of Object.entries(last))
          if (value !== undefined) this.setHeader(name, value as string | string[]);
        args.pop();
      }
      if (isPrivateResponse({ signedIn: signedIn(this), setsCookie: this.hasHeader("set-cookie") }))
        this.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
      return (writeHead as (...a: unknown[]) => Response).apply(this, args);
    } as Response["writeHead"];
    next();
  };
}
