import { describe, expect, it } from "vitest";
import {
  contentDisposition,
  UPLOADED_IMAGE_POLICY,
  uploadedFileResponse,
} from "./file-response.server";

describe("contentDisposition", () => {
  it("writes an ASCII name as it is", () => {
    expect(contentDisposition("inline", "receipt 12.png")).toBe(
      'inline; filename="receipt 12.png"',
    );
  });

  it("gives any other name an ASCII fallback and its UTF-8 spelling (RFC 5987)", () => {
    expect(contentDisposition("inline", "reçu d'Amine.pdf")).toBe(
      `inline; filename="re_u d'Amine.pdf"; filename*=UTF-8''re%C3%A7u%20d%27Amine.pdf`,
    );
    expect(contentDisposition("attachment", "إيصال.jpg")).toBe(
      `attachment; filename="_____.jpg"; filename*=UTF-8''%D8%A5%D9%8A%D8%B5%D8%A7%D9%84.jpg`,
    );
  });

  it("never lets a quote or a backslash end the quoted name", () => {
    expect(contentDisposition("inline", 'a"b\\c.png')).toBe(
      `inline; filename="a_b_c.png"; filename*=UTF-8''a%22b%5Cc.png`,
    );
  });
});

describe("uploadedFileResponse", () => {
  it("serves an image inline, as its stored type, sandboxed, never sniffed or cached", async () => {
    const response = uploadedFileResponse({
      fileName: "proof.png",
      contentType: "image/png",
      bytes: new Uint8Array([1, 2, 3]),
    });
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "image/png",
      "content-length": "3",
      "content-disposition": 'inline; filename="proof.png"',
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "content-security-policy": UPLOADED_IMAGE_POLICY,
    });
    expect(UPLOADED_IMAGE_POLICY).toMatch(/default-src 'none'.*; sandbox;/);
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(new Uint8Array([1, 2, 3]));
  });

  it("hands a PDF over as a download, under the same sandboxed policy: no viewer opens it as the site", () => {
    const response = uploadedFileResponse({
      fileName: "proof.pdf",
      contentType: "application/pdf",
      bytes: new Uint8Array([1]),
    });
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "application/pdf",
      "content-disposition": 'attachment; filename="proof.pdf"',
      "x-content-type-options": "nosniff",
      "content-security-policy": UPLOADED_IMAGE_POLICY,
    });
  });

  it("hands a text log over as a download in UTF-8, never as a page: anything not an image is a file", () => {
    const response = uploadedFileResponse({
      fileName: "latest.log",
      contentType: "text/plain",
      bytes: new TextEncoder().encode("<script>alert(1)</script>"),
    });
    expect(Object.fromEntries(response.headers)).toMatchObject({
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": 'attachment; filename="latest.log"',
      "x-content-type-options": "nosniff",
      "cache-control": "private, no-store",
      "content-security-policy": UPLOADED_IMAGE_POLICY,
    });
  });
});
