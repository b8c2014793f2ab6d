import type { AddressInfo } from "node:net";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawRequest } from "../tests/support/raw-http";
import { PAGE_COMPRESSION } from "../app/lib/page-compression.server";
import { isFileRequest, responseCompression } from "./response-compression";

const get = (url: string, encoding: string) =>
  rawRequest(url, { headers: { "accept-encoding": encoding } });

describe("isFileRequest", () => {
  it("tells the build's files and downloads from pages and React Router's data requests", () => {
    expect(isFileRequest("/assets/entry.client-abc.js")).toBe(true);
    expect(isFileRequest("/favicon.svg")).toBe(true);
    expect(isFileRequest("/admin/reports.csv")).toBe(true);
    expect(isFileRequest("/")).toBe(false);
    expect(isFileRequest("/dashboard")).toBe(false);
    expect(isFileRequest("/dashboard.data")).toBe(false);
    expect(isFileRequest("/_.data")).toBe(false);
    expect(isFileRequest("/services/samp")).toBe(false);
  });
});

// Enough repetitive text that the settings make a difference in the bytes.
const body = Array.from(
  { length: 400 },
  (_, i) => `<li class="row row-${i % 7}">Service ${i}, renews on day ${i % 28}</li>`,
).join("\n");

describe("responseCompression", () => {
  let base = "";
  let close: () => void = () => {};

  beforeAll(async () => {
    const app = express();
    app.use(responseCompression());
    app.get(["/page", "/page.data", "/assets/app.js"], (_req, res) => {
      res.type("text/html").send(body);
    });
    const server = app.listen(0);
    await new Promise((resolve) => server.once("listening", resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  const pageBrotli = brotliCompressSync(body, { params: PAGE_COMPRESSION.brotli.params });
  const defaultBrotli = brotliCompressSync(body, {
    params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
  });

  it("compresses pages and data requests with the page settings", async () => {
    for (const path of ["/page", "/page.data"]) {
      const br = await get(base + path, "gzip, deflate, br");
      expect(br.encoding).toBe("br");
      expect(br.bytes.equals(pageBrotli)).toBe(true);
      const gzip = await get(base + path, "gzip");
      expect(gzip.encoding).toBe("gzip");
      expect(gzip.bytes.subarray(10).equals(gzipSync(body, { level: 3 }).subarray(10))).toBe(true);
    }
  });

  it("compresses the build's files with compression's defaults", async () => {
    const br = await get(`${base}/assets/app.js`, "gzip, deflate, br");
    expect(br.encoding).toBe("br");
    expect(br.bytes.equals(defaultBrotli)).toBe(true);
    expect(defaultBrotli.equals(pageBrotli)).toBe(false);
  });
});
