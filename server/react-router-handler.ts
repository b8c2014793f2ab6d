import {
  createReadableStreamFromReadable,
  writeReadableStreamToWritable,
} from "@react-router/node";
import type { NextFunction, Request, Response } from "express";
import {
  createRequestHandler as createReactRouterRequestHandler,
  type RouterContextProvider,
  type ServerBuild,
} from "react-router";
import { requestBodyOf } from "./request-limits";

/**
 * @react-router/express's request handler (7.18.4), with two changes: the body React Router reads is
 * the one server/request-limits.ts has already read within its limit, rather than the socket, so no
 * action can buffer more than the limit; and a header of the route's response replaces one set before
 * it (sendResponse). The URL, headers, abort signal and the rest of the way the response is written
 * are the adapter's.
 */
export function reactRouterHandler(options: {
  build: ServerBuild | (() => Promise<ServerBuild>);
  getLoadContext: (req: Request, res: Response) => RouterContextProvider;
  /** The settings' NODE_ENV: "development" shows errors' messages and stacks to the browser. */
  mode: string;
}) {
  const handle = createReactRouterRequestHandler(options.build, options.mode);
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const request = fetchRequest(req, res);
      const response = await handle(request, options.getLoadContext(req, res));
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

function fetchRequest(req: Request, res: Response): globalThis.Request {
  // The host part as the adapter builds it (X-Forwarded-Host's port only behind a trusted proxy).
  const [, forwardedPort] = req.app?.enabled("trust proxy")
    ? (req.get("X-Forwarded-Host")?.split(":") ?? [])
    : [];
  const [, hostPort] = req.get("host")?.split(":") ?? [];
  const port = [forwardedPort, hostPort]
    .map((value) => Number.parseInt(value ?? "", 10))
    .find((value) => Number.isSafeInteger(value));
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);

  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());

  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (!values) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }

  const init: RequestInit & { duplex?: "half" } = {
    method: req.method,
    headers,
    signal: controller.signal,
  };
  if (req.method !== "GET" && req.method !== "HEAD") {
    const body = requestBodyOf(res);
    if (body) init.body = body;
    else {
      // Not read by the limits (a method that runs no action): React Router does not read it either.
      init.body = createReadableStreamFromReadable(req);
      init.duplex = "half";
    }
  }
  return new globalThis.Request(url.href, init);
}

/** Writes a route's response on Express's, its headers over those set before (see the loop). */
export async function sendResponse(res: Response, response: globalThis.Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // A header the route's response names replaces what the middleware before it set under that name
  // (helmet's page policy and nosniff on a file served under a policy of its own: two policies would
  // both apply, and a PDF viewer refuses a sandboxed page); cookies, and a name the response repeats,
  // add up.
  const named = new Set<string>();
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie" || named.has(key)) res.append(key, value);
    else res.setHeader(key, value);
    named.add(key);
  }
  if (response.headers.get("Content-Type")?.match(/text\/event-stream/i)) res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
