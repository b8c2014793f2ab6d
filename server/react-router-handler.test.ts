import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sendResponse } from "./react-router-handler";

// How a route's response is written over what the middleware before it set (server/index.ts's helmet
// sets a page policy and nosniff on every response), through a real Express app.
describe("sendResponse", () => {
  let base = "";
  let close: () => void = () => {};

  beforeAll(async () => {
    const app = express();
    app.use((_req, res, next) => {
      res.setHeader("Content-Security-Policy", "default-src 'self'");
      res.setHeader("X-Content-Type-Options", "nosniff");
      res.append("Set-Cookie", "early=1");
      next();
    });
    app.get("/file", async (_req, res) => {
      const headers = new Headers({
        "Content-Type": "image/png",
        "Content-Security-Policy": "default-src 'none'; sandbox",
        "X-Content-Type-Options": "nosniff",
      });
      headers.append("Set-Cookie", "a=1");
      headers.append("Set-Cookie", "b=2");
      await sendResponse(res, new Response("png", { headers }));
    });
    app.get("/page", async (_req, res) => {
      await sendResponse(
        res,
        new Response("<p>page</p>", { headers: { "Content-Type": "text/html" } }),
      );
    });
    const server = app.listen(0, "127.0.0.1");
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it("lets a route's header replace the middleware's, once, and adds cookies up", async () => {
    const response = await fetch(`${base}/file`);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'none'; sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.getSetCookie()).toEqual(["early=1", "a=1", "b=2"]);
    expect(await response.text()).toBe("png");
  });

  it("keeps the middleware's headers where the route names none", async () => {
    const response = await fetch(`${base}/page`);
    expect(response.headers.get("content-security-policy")).toBe("default-src 'self'");
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
  });
});
