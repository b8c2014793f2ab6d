import { describe, expect, it } from "vitest";
import { parseByteSize } from "./byte-size";

describe("parseByteSize", () => {
  it("reads bytes, KiB and MiB", () => {
    expect(parseByteSize("65536")).toBe(65536);
    expect(parseByteSize("64KiB")).toBe(65536);
    expect(parseByteSize("64 kib")).toBe(65536);
    expect(parseByteSize("64KB")).toBe(65536);
    expect(parseByteSize("1MiB")).toBe(1048576);
    expect(parseByteSize("2mb")).toBe(2097152);
    expect(parseByteSize("512B")).toBe(512);
  });

  it("returns null for anything else", () => {
    for (const raw of ["", "KiB", "-1", "1.5MiB", "1GiB", "64 KiB extra", "0x400", "1e6"])
      expect(parseByteSize(raw), raw).toBeNull();
  });
});
