import { execFileSync } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readZip } from "../../tests/support/zip-reader";
import { dosDateTime, zipArchive } from "./zip-writer.server";

const AT = new Date("2031-03-12T04:17:38.000Z");

/** Text that deflates well, over 64 KiB: a size past any 16-bit field. */
const LONG_TEXT = Array.from({ length: 4000 }, (_, i) => `line ${i}: {"cents": ${i * 7}}\n`).join(
  "",
);
/** Bytes that do not deflate (a PDF's or an image's are much like it): stored as they are. */
const NOISE = randomBytes(70_000);

const ENTRIES = [
  { name: "README.txt", data: "Hello\n" },
  { name: "account.json", data: LONG_TEXT },
  { name: "invoices/HF-2031-000001.pdf", data: NOISE },
  // Names in UTF-8: accented, Arabic, and a character outside the Basic Multilingual Plane.
  { name: "tickets/réponse-مرحبا-🎮.txt", data: "نص عربي\n" },
  { name: "empty.txt", data: "" },
];

const folder = mkdtempSync(path.join(tmpdir(), "zip-writer-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** Whether Info-ZIP's unzip is on this machine: a second, independent reader when it is. */
function hasUnzip(): boolean {
  try {
    execFileSync("unzip", ["-v"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

describe("the ZIP writer", () => {
  it("writes an archive that reads back as it was given, every entry checked", async () => {
    const zip = await zipArchive(ENTRIES, { modifiedAt: AT });
    const files = readZip(zip);
    expect(files.map((file) => file.name)).toEqual(ENTRIES.map((entry) => entry.name));
    for (const [index, entry] of ENTRIES.entries()) {
      const expected =
        typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : Buffer.from(entry.data);
      expect(files[index]!.data.equals(expected), entry.name).toBe(true);
      expect(files[index]!.utf8, entry.name).toBe(true);
    }
    // The long text is deflated to a fraction of itself; the noise stored, as deflating grew it.
    const long = files.find((file) => file.name === "account.json")!;
    expect(long.data.length).toBeGreaterThan(65_536);
    expect(long.method).toBe(8);
    expect(long.compressedSize).toBeLessThan(long.data.length / 3);
    const noise = files.find((file) => file.name.endsWith(".pdf"))!;
    expect(noise.method).toBe(0);
    expect(noise.compressedSize).toBe(NOISE.length);
  });

  // The reader above is this project's; Info-ZIP's is the one most people's tools are built on.
  it.runIf(hasUnzip())("is read by Info-ZIP's unzip too, names and contents alike", async () => {
    const zip = await zipArchive(ENTRIES, { modifiedAt: AT });
    const file = path.join(folder, "round-trip.zip");
    writeFileSync(file, zip);
    // -t tests every entry's CRC; -Z1 lists the names as the archive holds them.
    expect(execFileSync("unzip", ["-t", file], { encoding: "utf8" })).toContain(
      "No errors detected",
    );
    const names = execFileSync("unzip", ["-Z1", file], { encoding: "utf8" }).trim().split("\n");
    expect(names).toEqual(ENTRIES.map((entry) => entry.name));
    const piped = execFileSync("unzip", ["-p", file, "account.json"]);
    expect(createHash("sha256").update(piped).digest("hex")).toBe(
      createHash("sha256").update(LONG_TEXT).digest("hex"),
    );
  });

  it("gives the same bytes for the same files and moment", async () => {
    const once = await zipArchive(ENTRIES, { modifiedAt: AT });
    const again = await zipArchive(ENTRIES, { modifiedAt: AT });
    expect(once.equals(again)).toBe(true);
  });

  it("dates each entry in MS-DOS form, from the moment's UTC fields", () => {
    const { time, date } = dosDateTime(AT);
    expect(date >> 9).toBe(2031 - 1980);
    expect((date >> 5) & 0x0f).toBe(3);
    expect(date & 0x1f).toBe(12);
    expect(time >> 11).toBe(4);
    expect((time >> 5) & 0x3f).toBe(17);
    // Two-second steps.
    expect((time & 0x1f) * 2).toBe(38);
  });

  it("writes an archive of no files that readers accept", async () => {
    const zip = await zipArchive([], { modifiedAt: AT });
    expect(zip.length).toBe(22);
    expect(readZip(zip)).toEqual([]);
  });

  it.each(["", "/etc/passwd", "../up.txt", "a/../b", "a//b", "a\\b", "./a", "dir/"])(
    "refuses the path %j, which a reader would unpack somewhere else or not as a file",
    async (name) => {
      await expect(zipArchive([{ name, data: "x" }], { modifiedAt: AT })).rejects.toThrow(
        /Not a file path/,
      );
    },
  );

  it("refuses two entries of the same name", async () => {
    await expect(
      zipArchive(
        [
          { name: "a.txt", data: "1" },
          { name: "a.txt", data: "2" },
        ],
        { modifiedAt: AT },
      ),
    ).rejects.toThrow(/Two ZIP entries/);
  });
});
