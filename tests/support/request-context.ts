import type { RouterContextProvider } from "react-router";
import { createRequestContext, routerContextFor, type AppServices } from "~/context.server";

/** The same context a real request gets, for calling loaders and actions directly. */
export async function contextFor(
  services: AppServices,
  options: { cookie?: string | null; acceptLanguage?: string; ip?: string } = {},
): Promise<RouterContextProvider> {
  return routerContextFor(
    await createRequestContext(
      services,
      { cookie: options.cookie ?? null, acceptLanguage: options.acceptLanguage ?? null },
      { cspNonce: "test-nonce", clientIp: options.ip ?? "127.0.0.1" },
    ),
  );
}

/**
 * A loader's or action's arguments as React Router gives them: the request, the page's `url` (what the
 * guards and list loaders read, without React Router's data-request details: ADR 18), the context and
 * the route's params.
 */
export function routeArgs(args: {
  request: Request;
  context: RouterContextProvider;
  params?: Record<string, string>;
}): never {
  return { ...args, params: args.params ?? {}, url: new URL(args.request.url) } as never;
}

/** Turns Set-Cookie values into a Cookie request header. */
export function cookieHeader(setCookies: string[]): string {
  return setCookies.map((c) => c.split(";")[0]).join("; ");
}

export function formRequest(
  path: string,
  fields: Record<string, string>,
  cookie?: string,
): Request {
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (cookie) headers.cookie = cookie;
  return new Request(`http://localhost${path}`, {
    method: "POST",
    headers,
    body: new URLSearchParams(fields).toString(),
  });
}

/** Runs a loader or action and returns what it threw or returned, as a Response when it is one. */
export async function settle(run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (thrown) {
    return thrown;
  }
}

/** What a route action answered with `data(...)`: the body and its init. */
export type ActionAnswer = { data: Record<string, unknown>; init: { status: number } | null };

/**
 * Posts `fields` to a route module's action as a browser's form would (holding `cookie`, from `ip`),
 * and returns what it answered or threw.
 */
export async function postAction(
  services: AppServices,
  route: { action: (args: never) => unknown },
  path: string,
  fields: Record<string, string>,
  options: { cookie?: string; ip?: string; params?: Record<string, string> } = {},
): Promise<unknown> {
  return settle(async () =>
    route.action(
      routeArgs({
        request: formRequest(path, fields, options.cookie),
        context: await contextFor(services, { cookie: options.cookie, ip: options.ip }),
        params: options.params,
      }),
    ),
  );
}

/**
 * Posts a multipart `form` (files and fields, as a browser's upload) to a route module's action, holding
 * `cookie`, and returns what it answered or threw.
 */
export async function postUpload(
  services: AppServices,
  route: { action: (args: never) => unknown },
  path: string,
  form: FormData,
  options: { cookie?: string; params?: Record<string, string> } = {},
): Promise<unknown> {
  return settle(async () =>
    route.action(
      routeArgs({
        request: new Request(`http://localhost${path}`, {
          method: "POST",
          headers: options.cookie ? { cookie: options.cookie } : {},
          body: form,
        }),
        context: await contextFor(services, { cookie: options.cookie }),
        params: options.params,
      }),
    ),
  );
}
