import { describe, expect, it } from "vitest";
import {
  MAX_TICKET_FILE_BYTES,
  MAX_TICKET_FILES_PER_MESSAGE,
  MAX_TICKET_POST_FILE_BYTES,
  pickedFilesProblem,
  ticketFileCutoff,
  ticketFilePath,
  ticketFileTypeOf,
} from "./ticket-files";

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 0]);
const PDF = new TextEncoder().encode("%PDF-1.4\n%%EOF\n");
const text = (body: string) => new TextEncoder().encode(body);
const file = (name: string, bytes: Uint8Array) => ({ name, bytes });

describe("ticketFileTypeOf: a ticket's file is what its bytes are", () => {
  it("takes an image or a PDF by its signature, stored under its own extension", () => {
    expect(ticketFileTypeOf(file("capture.png", PNG))).toEqual({
      type: "image/png",
      extension: "png",
    });
    expect(ticketFileTypeOf(file("photo.JPEG", JPEG))).toEqual({
      type: "image/jpeg",
      extension: "jpg",
    });
    expect(ticketFileTypeOf(file("facture.pdf", PDF))).toEqual({
      type: "application/pdf",
      extension: "pdf",
    });
    // A name without an extension, or with one that names no type, says nothing against its bytes.
    expect(ticketFileTypeOf(file("screenshot", PNG))).toEqual({
      type: "image/png",
      extension: "png",
    });
    expect(ticketFileTypeOf(file("image.bmp", PNG))).toEqual({
      type: "image/png",
      extension: "png",
    });
  });

  it("takes plain text sent as a .txt or a .log, and keeps its extension", () => {
    const log = text("[12:00] server crashed\nat line 4\n");
    expect(ticketFileTypeOf(file("latest.log", log))).toEqual({
      type: "text/plain",
      extension: "log",
    });
    expect(ticketFileTypeOf(file("notes.TXT", log))).toEqual({
      type: "text/plain",
      extension: "txt",
    });
  });

  it("refuses a file whose name says another type than its bytes", () => {
    const page = text("<!doctype html><script>alert(1)</script>");
    expect(ticketFileTypeOf(file("screenshot.png", page))).toEqual({
      reason: "misnamed",
      extension: "png",
    });
    expect(ticketFileTypeOf(file("server.log", PNG))).toEqual({
      reason: "misnamed",
      extension: "log",
    });
    expect(ticketFileTypeOf(file("facture.pdf", JPEG))).toEqual({
      reason: "misnamed",
      extension: "pdf",
    });
    expect(ticketFileTypeOf(file("log.txt", new Uint8Array([0x6c, 0x6f, 0, 0x67])))).toEqual({
      reason: "misnamed",
      extension: "txt",
    });
  });

  it("refuses anything else: text under another name, binary files, an empty file", () => {
    expect(ticketFileTypeOf(file("page.html", text("<html></html>")))).toEqual({ reason: "type" });
    expect(ticketFileTypeOf(file("config", text("port=7777")))).toEqual({ reason: "type" });
    expect(ticketFileTypeOf(file("tool.exe", new Uint8Array([0x4d, 0x5a, 0x90, 0])))).toEqual({
      reason: "type",
    });
    expect(ticketFileTypeOf(file("empty", new Uint8Array(0)))).toEqual({ reason: "type" });
    // GIF is no type a ticket takes.
    expect(ticketFileTypeOf(file("anim.gif", text("GIF89a")))).toEqual({ reason: "type" });
  });
});

describe("pickedFilesProblem: what names and sizes alone tell", () => {
  const MiB = 1024 * 1024;
  it("lets up to five files of 8 MiB go, 15 MiB in all", () => {
    expect(pickedFilesProblem([])).toBeNull();
    expect(
      pickedFilesProblem([
        { name: "a.png", size: MAX_TICKET_FILE_BYTES },
        { name: "b.log", size: MAX_TICKET_POST_FILE_BYTES - MAX_TICKET_FILE_BYTES },
      ]),
    ).toBeNull();
    expect(
      pickedFilesProblem(
        Array.from({ length: MAX_TICKET_FILES_PER_MESSAGE }, (_, i) => ({
          name: `${i}.png`,
          size: 1,
        })),
      ),
    ).toBeNull();
  });

  it("names the limit crossed, and the file that crosses its own", () => {
    expect(
      pickedFilesProblem(Array.from({ length: 6 }, (_, i) => ({ name: `${i}.png`, size: 1 }))),
    ).toEqual({ error: "tickets.files.errors.tooMany", params: { max: 5 } });
    expect(
      pickedFilesProblem([
        { name: "ok.png", size: 1 },
        { name: "huge.png", size: MAX_TICKET_FILE_BYTES + 1 },
      ]),
    ).toEqual({ error: "tickets.files.errors.tooBig", params: { name: "huge.png", max: 8 } });
    expect(
      pickedFilesProblem([
        { name: "a.png", size: 8 * MiB },
        { name: "b.png", size: 7 * MiB + 1 },
      ]),
    ).toEqual({ error: "tickets.files.errors.allTooBig", params: { max: 15 } });
  });
});

describe("where and how long", () => {
  it("serves a file under its ticket's address", () => {
    expect(ticketFilePath(12, 345)).toBe("/support/12/files/345");
  });

  it("counts the retention in whole days back from now", () => {
    expect(ticketFileCutoff(new Date("2026-03-31T10:00:00Z"), 30).toISOString()).toBe(
      "2026-03-01T10:00:00.000Z",
    );
  });
});
