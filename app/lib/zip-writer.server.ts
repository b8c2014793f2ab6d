import { promisify } from "node:util";
import { crc32, deflateRaw } from "node:zlib";

// A ZIP archive written whole in memory (PKWARE's APPNOTE.TXT, the parts every reader knows): each file a
// local header and its bytes, deflated when that makes them smaller and stored as they are otherwise,
// then the central directory and its end record. Names are UTF-8 (general purpose bit 11). No ZIP64: an
// archive of more than 65,535 files or of 4 GiB is refused, far beyond what the site writes (a
// customer's data archive). node:zlib does the deflating (in the thread pool) and the CRC-32.

const deflate = promisify(deflateRaw);

/** One file of the archive: its path inside it ("invoices/HF-2026-000001.pdf") and its bytes or text. */
export interface ZipEntry {
  name: string;
  data: Uint8Array | string;
}

const STORED = 0;
const DEFLATED = 8;
/** General purpose bit 11: the name is UTF-8. */
const UTF8_NAMES = 0x0800;
/** 2.0: deflate, folders. */
const VERSION_NEEDED = 20;
/** Made on Unix (3), by version 2.0: the external attributes are a Unix mode. */
const VERSION_MADE_BY = (3 << 8) | VERSION_NEEDED;
/** A regular file, rw-r--r--, in the high half of the external attributes. */
const FILE_MODE = (0o100644 << 16) >>> 0;
const MAX_16 = 0xffff;
const MAX_32 = 0xffffffff;

/** A path a reader unpacks where it is meant to be: relative, forward slashes, no "." or ".." part. */
function checkedName(name: string): Buffer {
  const parts = name.split("/");
  if (
    name.length === 0 ||
    name.includes("\\") ||
    name.includes("\0") ||
    parts.some((part) => part === "" || part === "." || part === "..")
  )
    throw new Error(`Not a file path for a ZIP archive: ${JSON.stringify(name)}`);
  const bytes = Buffer.from(name, "utf8");
  if (bytes.length > MAX_16) throw new Error("A ZIP entry's name is too long");
  return bytes;
}

/**
 * MS-DOS time and date, the format's own (2-second steps, years 1980 to 2107), of `at`'s UTC fields:
 * a ZIP date has no time zone, and the same moment gives the same bytes wherever it is written.
 */
export function dosDateTime(at: Date): { time: number; date: number } {
  const year = Math.min(Math.max(at.getUTCFullYear(), 1980), 2107);
  return {
    time: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** The archive of `entries`, in their order, each dated `modifiedAt`. */
export async function zipArchive(
  entries: readonly ZipEntry[],
  { modifiedAt }: { modifiedAt: Date },
): Promise<Buffer> {
  if (entries.length > MAX_16) throw new Error("Too many files for a ZIP archive");
  const { time, date } = dosDateTime(modifiedAt);
  const seen = new Set<string>();
  const parts: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    if (seen.has(entry.name)) throw new Error(`Two ZIP entries named ${entry.name}`);
    seen.add(entry.name);
    const name = checkedName(entry.name);
    const data = typeof entry.data === "string" ? Buffer.from(entry.data, "utf8") : entry.data;
    const packed = data.length > 0 ? await deflate(data) : Buffer.alloc(0);
    const method = packed.length < data.length ? DEFLATED : STORED;
    const body =
      method === DEFLATED ? packed : Buffer.from(data.buffer, data.byteOffset, data.length);
    const crc = crc32(data);
    if (data.length > MAX_32 || offset > MAX_32) throw new Error("Too large for a ZIP archive");

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(VERSION_NEEDED, 4);
    local.writeUInt16LE(UTF8_NAMES, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(VERSION_MADE_BY, 4);
    central.writeUInt16LE(VERSION_NEEDED, 6);
    central.writeUInt16LE(UTF8_NAMES, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(time, 12);
    central.writeUInt16LE(date, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(body.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    // Extra field, comment, disk number and internal attributes: none.
    central.writeUInt32LE(FILE_MODE, 38);
    central.writeUInt32LE(offset, 42);

    parts.push(local, name, body);
    directory.push(central, name);
    offset += local.length + name.length + body.length;
  }
  const directorySize = directory.reduce((sum, part) => sum + part.length, 0);
  if (offset + directorySize > MAX_32) throw new Error("Too large for a ZIP archive");
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  // This disk and the directory's: 0 (one file).
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, ...directory, end]);
}
