import { describe, expect, it } from "vitest";
import {
  cleanFileName,
  formatFileSize,
  pdfLooksComplete,
  proofTypeOf,
  safeProofName,
} from "./top-up-proofs";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(
    values.flatMap((value) =>
      typeof value === "string" ? [...value].map((c) => c.charCodeAt(0)) : [value],
    ),
  );

describe("proofTypeOf", () => {
  it("reads the type from the first bytes only", () => {
    expect(proofTypeOf(bytes(0xff, 0xd8, 0xff, 0xe0, 0, 0))).toBe("image/jpeg");
    expect(proofTypeOf(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(proofTypeOf(bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "))).toBe("image/webp");
    expect(proofTypeOf(bytes("%PDF-1.7\n"))).toBe("application/pdf");
  });

  it("knows nothing else, nor a signature that is cut short or not at the start", () => {
    for (const other of [
      bytes("<!doctype html><script>"),
      bytes("GIF89a"),
      bytes("RIFF", 0, 0, 0, 0, "WAVEfmt "),
      bytes(0x89, "PNG"),
      bytes(" %PDF-1.4"),
      bytes("MZ", 0x90, 0),
      // WEBP where a WebP says it, but not in a RIFF container.
      bytes("JUNK", 0, 0, 0, 0, "WEBPVP8 "),
      new Uint8Array(0),
    ])
      expect(proofTypeOf(other)).toBeNull();
  });
});

describe("pdfLooksComplete", () => {
  it("wants %%EOF within the last KiB", () => {
    expect(pdfLooksComplete(bytes("%PDF-1.4\n...\n%%EOF\n"))).toBe(true);
    expect(pdfLooksComplete(bytes("%PDF-1.4\n...\n%%EOF"))).toBe(true);
    expect(pdfLooksComplete(bytes("%PDF-1.4\n...\n%%EO"))).toBe(false);
    const padded = new Uint8Array(2000);
    padded.set(bytes("%%EOF"), 10);
    expect(pdfLooksComplete(padded)).toBe(false);
    // The last KiB counted from %%EOF's first byte: exactly 1024 bytes from the end is within it.
    const atEdge = new Uint8Array(2000);
    atEdge.set(bytes("%%EOF"), 2000 - 1024);
    expect(pdfLooksComplete(atEdge)).toBe(true);
    const pastEdge = new Uint8Array(2000);
    pastEdge.set(bytes("%%EOF"), 2000 - 1025);
    expect(pdfLooksComplete(pastEdge)).toBe(false);
  });
});

describe("the names files are stored under", () => {
  it("keeps the last path part, without what could spoof or break a header", () => {
    expect(cleanFileName("C:\\Users\\amine\\Desktop\\reçu.png")).toBe("reçu.png");
    expect(cleanFileName("../../etc/passwd")).toBe("passwd");
    expect(cleanFileName('re"ce\u202Egnp.exe')).toBe("recegnp.exe");
    expect(cleanFileName("  ..hidden\tname\n.pdf ")).toBe("hidden name .pdf");
    expect(cleanFileName("reçu  de \t paiement.png")).toBe("reçu de paiement.png");
  });

  it("takes the extension of the type the content has, and a name when none is left", () => {
    expect(safeProofName("receipt.pdf", "image/png")).toBe("receipt.png");
    expect(safeProofName("photo.JPEG", "image/jpeg")).toBe("photo.jpg");
    expect(safeProofName("إيصال الدفع.pdf", "application/pdf")).toBe("إيصال الدفع.pdf");
    expect(safeProofName("...", "image/webp")).toBe("proof.webp");
    expect(safeProofName("", "application/pdf")).toBe("proof.pdf");
    const long = safeProofName(`${"a".repeat(300)}.png`, "image/png");
    expect(long).toHaveLength(100);
    expect(long.endsWith("a.png")).toBe(true);
  });

  it("drops only the last extension, of letters or digits, and never ends the name in a space", () => {
    expect(safeProofName("scan.2024.pdf", "application/pdf")).toBe("scan.2024.pdf");
    expect(safeProofName("scan.jp2", "image/png")).toBe("scan.png");
    // Nothing but a space is left of the name: it has none.
    expect(safeProofName(". .pdf", "application/pdf")).toBe("proof.pdf");
    // Cut to its room just after a space.
    expect(safeProofName(`${"a".repeat(95)} bcd.png`, "image/png")).toBe(`${"a".repeat(95)}.png`);
  });
});

describe("formatFileSize", () => {
  it("says a size in the reader's language", () => {
    expect(formatFileSize(820_000, "en")).toBe("820 kB");
    expect(formatFileSize(300, "en")).toBe("1 kB");
    expect(formatFileSize(2_400_000, "en")).toBe("2.4 MB");
    expect(formatFileSize(1_000_000, "en")).toBe("1 MB");
    expect(formatFileSize(2_400_000, "fr")).toBe("2,4\u202fMo");
  });
});
