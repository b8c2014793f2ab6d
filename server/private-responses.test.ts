import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPrivateResponse, PRIVATE_CACHE_CONTROL, privateResponses } from "./private-responses";

describe("isPrivateResponse", () => {
  it("is private when signed in or when a cookie is set, and only then", () => {
    expect(isPrivateResponse({ signedIn: false, setsCookie: false })).toBe(false);
    expect(isPrivateResponse({ signedIn: true, setsCookie: false })).toBe(true);
    expect(isPrivateResponse({ signedIn: false, setsCookie: true })).toBe(true);
    expect(isPrivateResponse({ signedIn: true, setsCookie: true })).toBe(true);
  });
});

// A real Express app, with responses written the ways ours are: res.send, a route's own Cache-Control,
// React Router's adapter (append, then flushHeaders), redirects, writeHead with headers, an error.
describe("privateResponses", () => {
  let base = "";
  let close: () => void = () => {};

  beforeAll(async () => {
    const app = express();
    app.use((req, res, next) => {
      res.locals.signedIn = req.get("x-test-session") === "yes";
      next();
    });
    app.use(privateResponses((res) => res.locals.signedIn === true));
    app.get("/page", (_req, res) => {
      res.send("<p>hello</p>");
    });
    app.get("/export.csv", (_req, res) => {
      res.set("Cache-Control", "no-store").type("text/csv").send("a,b\n");
    });
    app.get("/streamed", (_req, res) => {
      res.status(200);
      res.append("Content-Type", "text/html");
      res.flushHeaders();
      res.end("<p>streamed</p>");
    });
    app.post("/login", (_req, res) => {
      res.append("Set-Cookie", "session=abc; HttpOnly").redirect(302, "/dashboard");
    });
    app.get("/write-head", (_req, res) => {
      res.writeHead(200, { "Set-Cookie": "toast=; Max-Age=0", "Content-Type": "text/plain" });
      res.end("ok");
    });
    app.get("/broken", () => {
      throw new Error("boom");
    });
    app.use((_error: unknown, _req: Request, res: Response, _next: NextFunction) => {
      res.status(500).type("text/plain").send("Unexpected Application Error!");
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const get = (path: string, signedIn: boolean, method = "GET") =>
    fetch(`${base}${path}`, {
      method,
      redirect: "manual",
      headers: signedIn ? { "x-test-session": "yes" } : {},
    });

  it("leaves a visitor's response that sets nothing as it was", async () => {
    for (const path of ["/page", "/streamed"]) {
      const response = await get(path, false);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("cache-control"), path).toBeNull();
    }
    expect((await get("/export.csv", false)).headers.get("cache-control")).toBe("no-store");
  });

  it("marks every response to a signed-in request, whoever wrote it", async () => {
    for (const [path, status] of [
      ["/page", 200],
      ["/streamed", 200],
      ["/export.csv", 200],
      ["/broken", 500],
      ["/missing", 404],
    ] as const) {
      const response = await get(path, true);
      expect(response.status, path).toBe(status);
      expect(response.headers.get("cache-control"), path).toBe(PRIVATE_CACHE_CONTROL);
    }
  });

  it("marks a response that sets a cookie, also when it is a redirect or given to writeHead", async () => {
    const login = await get("/login", false, "POST");
    expect(login.status).toBe(302);
    expect(login.headers.get("cache-control")).toBe(PRIVATE_CACHE_CONTROL);
    const written = await get("/write-head", false);
    expect(written.headers.get("cache-control")).toBe(PRIVATE_CACHE_CONTROL);
    expect(written.headers.get("set-cookie")).toContain("toast=");
    expect(await written.text()).toBe("ok");
  });
});
