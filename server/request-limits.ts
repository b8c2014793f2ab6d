import type { Socket } from "node:net";
import type { NextFunction, Request, Response } from "express";
import type { TFunction } from "i18next";
import type { ServerBuild } from "react-router";
import type { Env } from "~/config/env.server";
import type { Db } from "~/db/transaction";
import { recordRateLimitRefusal } from "~/domain/accounts/rate-limit-refusals.server";
import type { FormLimitDecision } from "~/domain/request-limits/request-limits";
import { countFormPost } from "~/domain/request-limits/request-limits.server";
import {
  recordNotificationRefusal,
  webhookProviderOf,
} from "~/domain/payments/notification-refusals.server";
import { MAX_NOTIFICATION_BYTES } from "~/domain/payments/providers/provider";
import { logger } from "~/lib/logger.server";
import { actionRouteId, isMutationMethod } from "./action-route";

/**
 * The actions anyone may use without signing in, by route id, each with the page path its posts are
 * counted (and shown on /admin/security) under. Every other action refuses a visitor who is not signed
 * in before it does any work (tests/integration/request-limits.test.ts checks both halves).
 */
export const PUBLIC_FORMS: Readonly<Record<string, string>> = {
  "routes/login": "/login",
  "routes/register": "/register",
  "routes/site/contact": "/contact",
  "routes/site/newsletter": "/newsletter",
  "routes/language": "/language",
  "routes/logout": "/logout",
  // Password reset by mail: the per-address limit of every public form.
  "routes/forgot-password": "/forgot-password",
  "routes/reset-password": "/reset-password",
  // A campaign's unsubscribe button, and a mail provider's one-click post (RFC 8058): its token is
  // its proof (docs/mail.md#campaigns).
  "routes/site/unsubscribe": "/unsubscribe",
};

/**
 * The actions that take files, by route id: a multipart post to one gets the uploads' body limit
 * (BODY_LIMIT_UPLOAD), anything else they are sent keeps its kind's, as every other action does. The
 * top-up page's "I have paid" sends up to three proofs of 5 MiB; a ticket's message (a new ticket, the
 * customer's reply, the staff's) up to 15 MiB of files (app/domain/tickets/ticket-files.ts).
 */
export const UPLOAD_FORMS: ReadonlySet<string> = new Set([
  "routes/top-up",
  "routes/support/new",
  "routes/support/ticket",
  "routes/admin/ticket",
]);

/**
 * The routes other servers post to (a payment provider's notifications), by route id: not signed in
 * and not counted as a form; their body is capped at what a notification may weigh.
 */
export const WEBHOOK_ROUTES: ReadonlySet<string> = new Set(["routes/hooks/payments"]);

/** Refusals a process remembers at most (a few hundred KiB), so a flood costs no database writes. */
const MAX_REMEMBERED_REFUSALS = 10_000;

/** Which body limit a request gets: public forms, the client area, the admin panel, file uploads. */
export type BodyKind = "public" | "customer" | "admin" | "upload" | "webhook";

type BuildRoutes = ServerBuild["routes"];

/** A route's URL pattern without its leading slash ("admin/orders"), from the build's route table. */
function patternOf(routes: BuildRoutes, id: string): string {
  const parts: string[] = [];
  for (let route = routes[id]; route; route = route.parentId ? routes[route.parentId] : undefined)
    if (route.path) parts.unshift(route.path);
  return parts.join("/").replace(/^\/+/, "");
}

/**
 * The body limit a request's action gets: the public forms' (also for requests that run no action),
 * the uploads' for a multipart post to an action that takes files (UPLOAD_FORMS), the admin panel's for
 * routes under /admin (settings and texts in three languages are long), and the client area's for every
 * other action (orders, tickets, the account).
 */
export function bodyKindOf(
  routes: BuildRoutes,
  routeId: string | null,
  body: { multipart?: boolean } = {},
): BodyKind {
  const route = routeId === null ? undefined : routes[routeId];
  if (route && WEBHOOK_ROUTES.has(route.id)) return "webhook";
  if (!route?.module.action || route.id in PUBLIC_FORMS) return "public";
  if (body.multipart && UPLOAD_FORMS.has(route.id)) return "upload";
  const pattern = patternOf(routes, route.id).toLowerCase();
  return pattern === "admin" || pattern.startsWith("admin/") ? "admin" : "customer";
}

export type LimitSettings = Pick<
  Env,
  | "FORM_RATE_LIMIT_PER_MINUTE"
  | "BODY_LIMIT_PUBLIC"
  | "BODY_LIMIT_CUSTOMER"
  | "BODY_LIMIT_ADMIN"
  | "BODY_LIMIT_UPLOAD"
>;

export function bodyLimitOf(kind: BodyKind, settings: LimitSettings): number {
  if (kind === "webhook") return MAX_NOTIFICATION_BYTES;
  if (kind === "upload") return settings.BODY_LIMIT_UPLOAD;
  if (kind === "admin") return settings.BODY_LIMIT_ADMIN;
  if (kind === "customer") return settings.BODY_LIMIT_CUSTOMER;
  return settings.BODY_LIMIT_PUBLIC;
}

type BuildSource = Pick<ServerBuild, "routes" | "basename">;

export interface RequestLimitsOptions {
  db: Db;
  settings: LimitSettings;
  /** The server build (its route table), or, in development, a function that loads the latest. */
  build: BuildSource | (() => Promise<BuildSource>);
  /** Translates a refusal into the visitor's language. */
  translate: (req: Request) => Promise<TFunction<"common">>;
  /**
   * Whether a request comes from a signed-in account (its cookie names a live session). Only such a
   * request gets the uploads' limit: a visitor's upload is turned away to sign in anyway, and its body
   * (up to 16 MiB each) would be held in memory for nothing.
   */
  signedIn: (req: Request) => Promise<boolean>;
  now?: () => Date;
  /**
   * Writes the refusal that /admin/security lists (default: recordRateLimitRefusal). The answer does not
   * wait for the write; a test passes its own to know which writes were started, and await them.
   */
  recordRefusal?: typeof recordRateLimitRefusal;
  /**
   * Counts a provider's notification refused for its size, for /admin/gateways (default:
   * recordNotificationRefusal); the answer does not wait for it either.
   */
  recordWebhookRefusal?: typeof recordNotificationRefusal;
}

/** The body React Router's request is given (server/react-router-handler.ts). */
export function requestBodyOf(res: Response): Buffer<ArrayBuffer> | undefined {
  const body: unknown = res.locals.requestBody;
  return Buffer.isBuffer(body) ? (body as Buffer<ArrayBuffer>) : undefined;
}

/**
 * The limits in front of every action, mounted before the request context and React Router:
 *
 * 1. The route whose action the request will run is worked out as React Router does (action-route.ts).
 * 2. A body whose Content-Length is over that route's limit is refused with 413 before a byte is read
 *    (an upload's limit is for signed-in accounts: a visitor's gets the public forms' limit).
 * 3. A post to a public form counts against its address's limit for that form, in the database
 *    (FORM_RATE_LIMIT_PER_MINUTE in any minute, shared by every server process); over it: 429. A
 *    process that has refused an address refuses it again without a write until a post is allowed.
 * 4. The body is read here, counting bytes as they arrive, and refused with 413 as soon as it passes the
 *    limit (a chunked body has no Content-Length to check first); React Router gets what was read.
 *
 * A refusal ends the connection (Connection: close), so Node does not read the rest of the body either.
 */
export function requestLimits(options: RequestLimitsOptions) {
  const now = options.now ?? (() => new Date());
  const recordRefusal = options.recordRefusal ?? recordRateLimitRefusal;
  const recordWebhookRefusal = options.recordWebhookRefusal ?? recordNotificationRefusal;

  /**
   * A provider's notification refused for its size: counted for the admin (provider, size, time; the
   * body is never read), one row per provider whatever the flood (notification-refusals.server.ts).
   */
  function countOversizedNotification(req: Request, bytes: number | null) {
    const provider = webhookProviderOf(req.path);
    if (!provider) return;
    recordWebhookRefusal(options.db, {
      provider,
      reason: "tooLarge",
      bytes,
      now: now(),
    }).catch((error: unknown) =>
      logger.warn({ err: error }, "could not record an oversized notification"),
    );
  }
  const buildOf = async () =>
    typeof options.build === "function" ? options.build() : options.build;

  /** Address and form → when its refusal ends; expired entries go once the map grows. */
  const refusedUntil = new Map<string, number>();
  function rememberRefusal(key: string, until: number, at: number) {
    if (refusedUntil.size >= MAX_REMEMBERED_REFUSALS)
      for (const [other, end] of refusedUntil) if (end <= at) refusedUntil.delete(other);
    // A flood from more addresses than this in one minute goes back to counting in the database.
    if (refusedUntil.size < MAX_REMEMBERED_REFUSALS) refusedUntil.set(key, until);
  }

  async function refuse(
    req: Request,
    res: Response,
    status: 413 | 429,
    key: "http.bodyTooLarge" | "http.tooManyRequests",
  ) {
    const t = await options.translate(req);
    // The body is left unread: closing the connection stops Node from reading (and discarding) the
    // rest of it to keep the connection for another request.
    res.set("Connection", "close");
    lingerOnClose(req.socket);
    res.status(status).type("text/plain").send(t(key));
  }

  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const mutation = isMutationMethod(req.method);
      const build = mutation ? await buildOf() : undefined;
      const routeId = build
        ? actionRouteId(build, { method: req.method, originalUrl: req.originalUrl })
        : null;
      const multipart = /^multipart\/form-data\b/i.test(req.headers["content-type"] ?? "");
      const kind = build ? bodyKindOf(build.routes, routeId, { multipart }) : "public";
      const limit = bodyLimitOf(
        kind === "upload" && !(await options.signedIn(req)) ? "public" : kind,
        options.settings,
      );

      const declared = Number(req.headers["content-length"] ?? 0);
      if (declared > limit) {
        if (kind === "webhook") countOversizedNotification(req, declared);
        return await refuse(req, res, 413, "http.bodyTooLarge");
      }

      const form = routeId ? PUBLIC_FORMS[routeId] : undefined;
      if (form) {
        const ip = req.ip ?? "unknown";
        const at = now();
        const perMinute = options.settings.FORM_RATE_LIMIT_PER_MINUTE;
        const key = `${form} ${ip}`;
        // Once this process has seen an address refused, its further posts are refused without a
        // database write until the time the refusal named (Retry-After): the count only grows till then.
        const known = refusedUntil.get(key);
        const decision: FormLimitDecision | null =
          known !== undefined && known > at.getTime()
            ? { allowed: false, remaining: 0, resetAt: new Date(known), firstRefusal: false }
            : await countFormPost(options.db, { ip, form, limit: perMinute }, at).catch(
                (error: unknown) => {
                  // The limit is a guard, not the service: a database that cannot count must not
                  // stop the forms.
                  logger.warn({ err: error }, "could not count a form post");
                  return null;
                },
              );
        if (decision) {
          const seconds = Math.max(
            1,
            Math.ceil((decision.resetAt.getTime() - at.getTime()) / 1000),
          );
          res.set("RateLimit-Policy", `"form";q=${perMinute};w=60`);
          res.set("RateLimit", `"form";r=${decision.remaining};t=${seconds}`);
          if (!decision.allowed) {
            rememberRefusal(key, decision.resetAt.getTime(), at.getTime());
            // /admin/security lists refused addresses: the post that crossed the limit is written, once
            // across every process (the count is shared), never each refused post.
            if (decision.firstRefusal)
              recordRefusal(options.db, {
                ip,
                path: form,
                endsAt: decision.resetAt,
              }).catch((error: unknown) =>
                logger.warn({ err: error }, "could not record a refusal"),
              );
            res.set("Retry-After", String(seconds));
            return await refuse(req, res, 429, "http.tooManyRequests");
          }
        }
      }

      if (mutation) {
        const body = await readBody(req, limit);
        if (body === "too-large") {
          // A streamed body declares no size: what was seen is "more than the limit".
          if (kind === "webhook") countOversizedNotification(req, null);
          return await refuse(req, res, 413, "http.bodyTooLarge");
        }
        if (body === "gone") return; // the client went away mid-body: nobody to answer
        res.locals.requestBody = body;
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** How long, and for how many more bytes, a refused request's connection stays open to be drained. */
const LINGER_MS = 1_000;
const LINGER_BYTES = 4 * 1024 ** 2;

/**
 * A refused request's client may still be sending its body when the answer goes out. Closing a socket
 * with unread bytes makes the kernel reset the connection, and a reset drops what the client had not
 * read yet: the 413 or 429 would be lost (a browser shows "connection reset"). So when Node closes the
 * connection after the answer, it only ends our side: what still arrives is read and dropped, up to
 * LINGER_BYTES or LINGER_MS, then the socket is closed (a lingering close, as nginx does).
 */
function lingerOnClose(socket: Socket) {
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    let drained = 0;
    const close = () => {
      clearTimeout(timer);
      this.off("data", onData);
      this.destroy();
    };
    const onData = (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) close();
    };
    const timer = setTimeout(close, LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.on("data", onData);
    this.resume();
  };
}

/**
 * Reads a request body, keeping at most `limit` bytes: once more arrive, reading stops (the socket is
 * no longer read from) and "too-large" is returned. A body that declares its length is copied into one
 * buffer of that length as it arrives: kept as chunks and joined at the end, an upload's 15 MB took 30
 * while it was joined.
 */
function readBody(req: Request, limit: number): Promise<Buffer | "too-large" | "gone"> {
  const declared = Number(req.headers["content-length"]);
  if (Number.isSafeInteger(declared) && declared > 0 && declared <= limit)
    return readDeclaredBody(req, declared);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (result: Buffer | "too-large" | "gone") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("aborted", onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.pause();
        done("too-large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => done(Buffer.concat(chunks, size));
    const onGone = () => done("gone");
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("aborted", onGone);
  });
}

/** readBody for a body of a declared length (Node's parser stops a body at its Content-Length). */
function readDeclaredBody(req: Request, length: number): Promise<Buffer | "gone"> {
  return new Promise((resolve) => {
    const body = Buffer.allocUnsafe(length);
    let size = 0;
    const done = (result: Buffer | "gone") => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onGone);
      req.off("aborted", onGone);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.copy(body, size);
    };
    const onEnd = () => done(size === length ? body : body.subarray(0, size));
    const onGone = () => done("gone");
    req.on("data", onData);
    req.once("end", onEnd);
    req.once("error", onGone);
    req.once("aborted", onGone);
  });
}
