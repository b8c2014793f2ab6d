import { crc32, inflateRawSync } from "node:zlib";

// A ZIP reader for tests, written from PKWARE's APPNOTE.TXT apart from the site's writer: the end record
// found from the end, the central directory read entry by entry, each entry's local header checked
// against it, its bytes inflated (or taken as stored) and their CRC-32 and size checked. Whatever does
// not add up throws, so an archive a test reads back is one any reader would read.

export interface ZipFile {
  name: string;
  /** 0 stored, 8 deflated. */
  method: number;
  /** Whether general purpose bit 11 (UTF-8 names) is set, in the directory and the local header. */
  utf8: boolean;
  compressedSize: number;
  data: Buffer;
}

const END_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;

function fail(message: string): never {
  throw new Error(`Not a readable ZIP archive: ${message}`);
}

/** The end of central directory record: the last signature within its 22 bytes and a comment's 64 KiB. */
function endRecord(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--)
    if (zip.readUInt32LE(at) === END_SIGNATURE) return at;
  return fail("no end of central directory record");
}

/** Every file of `zip`, in the central directory's order. */
export function readZip(zip: Buffer): ZipFile[] {
  const end = endRecord(zip);
  const count = zip.readUInt16LE(end + 10);
  if (zip.readUInt16LE(end + 8) !== count) fail("entries on this disk differ from the total");
  const directorySize = zip.readUInt32LE(end + 12);
  const directoryOffset = zip.readUInt32LE(end + 16);
  if (directoryOffset + directorySize !== end) fail("the directory does not end at its end record");
  const files: ZipFile[] = [];
  let at = directoryOffset;
  for (let index = 0; index < count; index++) {
    if (zip.readUInt32LE(at) !== CENTRAL_SIGNATURE) fail(`no directory entry ${index}`);
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const crc = zip.readUInt32LE(at + 16);
    const compressedSize = zip.readUInt32LE(at + 20);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    const localOffset = zip.readUInt32LE(at + 42);
    const nameBytes = zip.subarray(at + 46, at + 46 + nameLength);
    at += 46 + nameLength + extraLength + commentLength;

    if (zip.readUInt32LE(localOffset) !== LOCAL_SIGNATURE) fail(`no local header ${index}`);
    const localFlags = zip.readUInt16LE(localOffset + 6);
    if (zip.readUInt16LE(localOffset + 8) !== method) fail("the methods differ");
    if (zip.readUInt32LE(localOffset + 14) !== crc) fail("the CRCs differ");
    if (zip.readUInt32LE(localOffset + 18) !== compressedSize) fail("the sizes differ");
    const localNameLength = zip.readUInt16LE(localOffset + 26);
    const localExtra = zip.readUInt16LE(localOffset + 28);
    const localName = zip.subarray(localOffset + 30, localOffset + 30 + localNameLength);
    if (!localName.equals(nameBytes)) fail("the names differ");
    const start = localOffset + 30 + localNameLength + localExtra;
    const body = zip.subarray(start, start + compressedSize);
    if (body.length !== compressedSize) fail("an entry runs past the file");
    const data =
      method === 0 ? Buffer.from(body) : method === 8 ? inflateRawSync(body) : fail("method");
    if (data.length !== size) fail(`${nameBytes.toString()} has ${data.length} bytes, not ${size}`);
    if (crc32(data) !== crc) fail(`${nameBytes.toString()} fails its CRC`);
    const utf8 = (flags & 0x0800) !== 0 && (localFlags & 0x0800) !== 0;
    files.push({ name: nameBytes.toString("utf8"), method, utf8, compressedSize, data });
  }
  if (at !== end) fail("the directory's size is not what its entries take");
  return files;
}

/** The files of `zip` by name. */
export function zipFiles(zip: Buffer): Map<string, Buffer> {
  return new Map(readZip(zip).map((file) => [file.name, file.data]));
}
