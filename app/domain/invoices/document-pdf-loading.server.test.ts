import { describe, expect, it, vi } from "vitest";
import { invoice, pdfOf } from "../../../tests/support/invoice-documents";

// Counts the times pdfkit is loaded, and then loads the real one.
const loads = vi.hoisted(() => ({ pdfkit: 0 }));
vi.mock("pdfkit", async (importOriginal) => {
  loads.pdfkit++;
  return importOriginal();
});

describe("the PDF library", () => {
  it("is loaded with the first PDF, not with the server, and once", async () => {
    // The PDF module is imported above (through pdfOf), as the server's build imports it at start.
    expect(loads.pdfkit).toBe(0);
    const [first, second] = await Promise.all([pdfOf(invoice, "en"), pdfOf(invoice, "en")]);
    expect(loads.pdfkit).toBe(1);
    expect(new TextDecoder().decode(first.subarray(0, 5))).toBe("%PDF-");
    expect(Buffer.from(second).equals(Buffer.from(first))).toBe(true);
  });
});
