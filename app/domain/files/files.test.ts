import { describe, expect, it } from "vitest";
import {
  cleanFileName,
  extensionOf,
  isPlainText,
  safeFileName,
  shownFileName,
  signedTypeOf,
} from "./files";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(
    values.flatMap((value) =>
      typeof value === "string" ? [...value].map((c) => c.charCodeAt(0)) : [value],
    ),
  );
const utf8 = (text: string) => new TextEncoder().encode(text);

describe("signedTypeOf", () => {
  it("reads the four signed types from their first bytes", () => {
    expect(signedTypeOf(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("image/jpeg");
    expect(signedTypeOf(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe("image/png");
    expect(signedTypeOf(bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "))).toBe("image/webp");
    expect(signedTypeOf(bytes("%PDF-1.7\n"))).toBe("application/pdf");
  });

  it("knows no text, however it looks", () => {
    expect(signedTypeOf(utf8("[12:00:01] Server started"))).toBeNull();
    expect(signedTypeOf(utf8("<!doctype html>"))).toBeNull();
  });
});

describe("isPlainText", () => {
  it("takes valid UTF-8 without a NUL, in any script, with a BOM or line ends of any kind", () => {
    expect(isPlainText(utf8("[12:00:01] Server started\r\n[12:00:02] Listening on 7777\n"))).toBe(
      true,
    );
    expect(isPlainText(utf8("\uFEFFخطأ: الخادم متوقف\nErreur : serveur arrêté"))).toBe(true);
    // A terminal's colours (ESC sequences) are text a log may hold.
    expect(isPlainText(utf8("\u001b[31mERROR\u001b[0m crash"))).toBe(true);
  });

  it("refuses an empty file, a NUL anywhere, and bytes that are not UTF-8", () => {
    expect(isPlainText(new Uint8Array(0))).toBe(false);
    expect(isPlainText(bytes("log line", 0, "more"))).toBe(false);
    // Latin-1 "é" alone, a cut multi-byte sequence, an overlong encoding.
    expect(isPlainText(bytes("caf", 0xe9))).toBe(false);
    expect(isPlainText(bytes(0xe2, 0x82))).toBe(false);
    expect(isPlainText(bytes(0xc0, 0xaf))).toBe(false);
    // A PNG's signature: not text (its bytes past 0x7f are no UTF-8).
    expect(isPlainText(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a))).toBe(false);
  });
});

describe("the names files are stored under", () => {
  it("reads the last extension of a sent name, in lower case", () => {
    expect(extensionOf("Capture.PNG")).toBe("png");
    expect(extensionOf("server.log")).toBe("log");
    expect(extensionOf("archive.tar.gz")).toBe("gz");
    expect(extensionOf("C:\\logs\\latest")).toBeNull();
    expect(extensionOf(".bashrc")).toBeNull();
  });

  it("cleans a name and puts the given extension after it, within its length", () => {
    expect(safeFileName("../../server.log", "log", { fallback: "file", maxLength: 100 })).toBe(
      "server.log",
    );
    expect(safeFileName("cap\u202Egnp.exe", "png", { fallback: "file", maxLength: 100 })).toBe(
      "capgnp.png",
    );
    expect(safeFileName("...", "txt", { fallback: "file", maxLength: 100 })).toBe("file.txt");
    const long = safeFileName(`${"é".repeat(300)}.txt`, "txt", { fallback: "f", maxLength: 40 });
    expect([...long]).toHaveLength(40);
    expect(long.endsWith("é.txt")).toBe(true);
  });

  it("shows a sent name as its sender knows it, cut at 60 characters, or ? when none is left", () => {
    expect(shownFileName("C:\\Users\\a\\reçu.png")).toBe("reçu.png");
    expect(shownFileName("\u202E")).toBe("?");
    expect([...shownFileName("x".repeat(80))]).toHaveLength(60);
    expect(cleanFileName('a"b.txt')).toBe("ab.txt");
  });
});
