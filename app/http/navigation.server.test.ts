import { describe, expect, it } from "vitest";
import { isDocumentSubmission } from "./navigation.server";

const post = (headers: Record<string, string>) =>
  new Request("http://localhost/newsletter", { method: "POST", headers });

describe("isDocumentSubmission", () => {
  it("tells a page navigation from a fetcher by fetch metadata", () => {
    expect(isDocumentSubmission(post({ "sec-fetch-mode": "navigate" }))).toBe(true);
    expect(isDocumentSubmission(post({ "sec-fetch-mode": "cors", accept: "text/html" }))).toBe(
      false,
    );
    expect(isDocumentSubmission(post({ "sec-fetch-mode": "same-origin" }))).toBe(false);
  });

  it("falls back to the Accept header in browsers without fetch metadata", () => {
    expect(isDocumentSubmission(post({ accept: "text/html,application/xhtml+xml" }))).toBe(true);
    expect(isDocumentSubmission(post({ accept: "*/*" }))).toBe(false);
    expect(isDocumentSubmission(post({}))).toBe(false);
  });
});
