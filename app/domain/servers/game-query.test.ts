import { describe, expect, it } from "vitest";
import {
  GAME_NAME_MAX_CHARS,
  cleanServerName,
  decodeWindows1252,
  gameQueryPort,
  mtaAseRequest,
  readMtaAse,
  readSampInfo,
  sampInfoRequest,
} from "./game-query";

/** The bytes of an ASCII text, to write the answers below as the servers send them. */
const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0));

describe("the SA-MP query", () => {
  it("asks with SAMP, the IPv4 octets, the port low byte first, then the opcode i: 11 bytes", () => {
    expect(Array.from(sampInfoRequest("127.0.0.1", 7777))).toEqual([
      0x53, 0x41, 0x4d, 0x50, 127, 0, 0, 1, 0x61, 0x1e, 0x69,
    ]);
    expect(Array.from(sampInfoRequest("203.0.113.250", 65_535))).toEqual([
      0x53, 0x41, 0x4d, 0x50, 203, 0, 113, 250, 0xff, 0xff, 0x69,
    ]);
  });

  it("is only ever built for an IPv4 address and a port", () => {
    expect(() => sampInfoRequest("example.com", 7777)).toThrow(RangeError);
    expect(() => sampInfoRequest("::1", 7777)).toThrow(RangeError);
    expect(() => sampInfoRequest("1.2.3.256", 7777)).toThrow(RangeError);
    expect(() => sampInfoRequest("1.2.3.4", 0)).toThrow(RangeError);
  });

  // 127.0.0.1:7777, not passworded, 12 of 50, "Café € – RP" in Windows-1252, "Freeroam", "English".
  const header = [0x53, 0x41, 0x4d, 0x50, 127, 0, 0, 1, 0x61, 0x1e, 0x69];
  const hostname = [...ascii("Caf"), 0xe9, 0x20, 0x80, 0x20, 0x96, ...ascii(" RP")];
  // One field a line, as the bytes go.
  // prettier-ignore
  const answer = [
    ...header,
    0x00,
    0x0c, 0x00,
    0x32, 0x00,
    hostname.length, 0, 0, 0, ...hostname,
    8, 0, 0, 0, ...ascii("Freeroam"),
    7, 0, 0, 0, ...ascii("English"),
  ];
  const read = (bytes: number[]) => readSampInfo(Uint8Array.from(bytes), "127.0.0.1", 7777);

  it("reads the players, the slots and the hostname in Windows-1252", () => {
    expect(read(answer)).toEqual({ ok: true, name: "Café € – RP", online: 12, max: 50 });
  });

  it("reads the counts as uint16 little-endian", () => {
    const big = [...answer];
    big.splice(12, 4, 0xe7, 0x03, 0xe8, 0x03); // 999 of 1000
    expect(read(big)).toMatchObject({ ok: true, online: 999, max: 1000 });
  });

  it("reads an answer from a buffer that does not start at its memory's beginning", () => {
    const memory = new Uint8Array(answer.length + 7);
    memory.set(answer, 7);
    expect(readSampInfo(memory.subarray(7), "127.0.0.1", 7777)).toMatchObject({
      ok: true,
      max: 50,
    });
  });

  it("finds every answer cut short malformed, down to nothing", () => {
    for (let length = 0; length < answer.length; length++)
      expect(read(answer.slice(0, length)), `cut at ${length}`).toEqual({
        ok: false,
        error: "malformed",
      });
  });

  it("finds a header that is not the query's malformed: magic, address, port, opcode", () => {
    const changed = (index: number, value: number) => {
      const bytes = [...answer];
      bytes[index] = value;
      return read(bytes);
    };
    expect(changed(0, 0x58)).toEqual({ ok: false, error: "malformed" }); // "XAMP"
    expect(changed(7, 2)).toEqual({ ok: false, error: "malformed" }); // 127.0.0.2
    expect(changed(8, 0x62)).toEqual({ ok: false, error: "malformed" }); // port 7778
    expect(changed(9, 0x1f)).toEqual({ ok: false, error: "malformed" }); // port 8033
    expect(changed(10, 0x72)).toEqual({ ok: false, error: "malformed" }); // the rules' opcode
    expect(readSampInfo(Uint8Array.from(answer), "127.0.0.1", 7778)).toEqual({
      ok: false,
      error: "malformed",
    });
  });

  it("finds a string's length running past the end malformed", () => {
    const bytes = [...answer];
    bytes.splice(16, 4, 0xff, 0xff, 0xff, 0xff);
    expect(read(bytes)).toEqual({ ok: false, error: "malformed" });
    const language = [...answer];
    language.splice(language.length - 11, 4, 8, 0, 0, 0); // "English" said to be 8 bytes
    expect(read(language)).toEqual({ ok: false, error: "malformed" });
  });

  it("finds more players than slots, or slots past SA-MP's 1000, malformed", () => {
    const counts = (online: number, max: number) => {
      const bytes = [...answer];
      bytes.splice(12, 4, online & 0xff, online >> 8, max & 0xff, max >> 8);
      return read(bytes);
    };
    expect(counts(51, 50)).toEqual({ ok: false, error: "malformed" });
    expect(counts(0, 1001)).toEqual({ ok: false, error: "malformed" });
    expect(counts(0xffff, 0xffff)).toEqual({ ok: false, error: "malformed" });
    expect(counts(50, 50)).toMatchObject({ ok: true, online: 50, max: 50 });
    expect(counts(0, 0)).toMatchObject({ ok: true, online: 0, max: 0 });
  });

  it("strips the hostname's control characters and cuts a long one", () => {
    const name = [0x01, ...ascii("Los"), 0x09, ...ascii("Santos"), 0x00, 0x0a, ...ascii("RP")];
    const long = Array.from({ length: 300 }, () => 0x41);
    const withName = (bytes: number[]) =>
      read([
        ...answer.slice(0, 16),
        bytes.length & 0xff,
        bytes.length >> 8,
        0,
        0,
        ...bytes,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
        0,
      ]);
    expect(withName(name)).toMatchObject({ ok: true, name: "Los Santos RP" });
    expect(withName(long)).toMatchObject({ ok: true, name: "A".repeat(GAME_NAME_MAX_CHARS) });
    expect(withName([])).toMatchObject({ ok: true, name: "" });
  });
});

describe("the MTA:SA ASE query", () => {
  it("asks with the single byte s, on the game port + 123", () => {
    expect(Array.from(mtaAseRequest())).toEqual([0x73]);
    expect(gameQueryPort("mta", 22003)).toBe(22126);
    expect(gameQueryPort("samp", 7777)).toBe(7777);
  });

  // Game port 22003, "Ünïcode ★ DM" in UTF-8, 3 of 32, a rule and three players after the counts.
  const name = Array.from(new TextEncoder().encode("Ünïcode ★ DM"));
  const counts = [0x02, ...ascii("3"), 0x03, ...ascii("32")];
  // prettier-ignore
  const head = [
    ...ascii("EYE1"),
    0x04, ...ascii("mta"),
    0x06, ...ascii("22003"),
    name.length + 1, ...name,
    0x07, ...ascii("MTA:SA"),
    0x05, ...ascii("None"),
    0x04, ...ascii("1.6"),
    0x02, ...ascii("0"),
  ];
  const player = (nick: string) => [
    0x3f,
    nick.length + 1,
    ...ascii(nick),
    1,
    1,
    2,
    0x30,
    3,
    0x34,
    0x30,
    1,
  ];
  // prettier-ignore
  const answer = [
    ...head,
    ...counts,
    0x08, ...ascii("weather"), 0x03, ...ascii("10"),
    0x01,
    ...player("ann"),
    ...player("bob"),
    ...player("cy"),
  ];
  const read = (bytes: number[], gamePort = 22003) => readMtaAse(Uint8Array.from(bytes), gamePort);

  it("reads the name in UTF-8, the players and the slots, each string led by a length that counts itself", () => {
    expect(read(answer)).toEqual({ ok: true, name: "Ünïcode ★ DM", online: 3, max: 32 });
  });

  it("needs nothing past the slots: the rules and the players are not read", () => {
    expect(read([...head, ...counts])).toMatchObject({ ok: true, online: 3, max: 32 });
  });

  it("reads a name that is not UTF-8 as Windows-1252", () => {
    const bytes = [
      ...head.slice(0, 14),
      0x05,
      ...ascii("Caf"),
      0xe9,
      ...head.slice(14 + name.length + 1),
    ];
    expect(read([...bytes, ...counts])).toMatchObject({ ok: true, name: "Café" });
  });

  it("finds every answer cut before the slots are whole malformed", () => {
    for (let length = 0; length < head.length + counts.length; length++)
      expect(read(answer.slice(0, length)), `cut at ${length}`).toEqual({
        ok: false,
        error: "malformed",
      });
  });

  it("finds another answer, game or port malformed", () => {
    expect(read([...ascii("EYE2"), ...answer.slice(4)])).toEqual({ ok: false, error: "malformed" });
    const game = [...answer];
    game.splice(5, 3, ...ascii("gta"));
    expect(read(game)).toEqual({ ok: false, error: "malformed" });
    expect(read(answer, 22004)).toEqual({ ok: false, error: "malformed" });
  });

  it("finds a length byte of 0, or one past the end, malformed", () => {
    const zero = [...answer];
    zero[4] = 0;
    expect(read(zero)).toEqual({ ok: false, error: "malformed" });
    const past = [...head, 0x02, ...ascii("3"), 0x10, ...ascii("32")];
    expect(read(past)).toEqual({ ok: false, error: "malformed" });
  });

  it("finds counts that are not plain numbers within MTA's 4096 malformed", () => {
    const withCounts = (online: string, max: string) =>
      read([...head, online.length + 1, ...ascii(online), max.length + 1, ...ascii(max)]);
    for (const [online, max] of [
      ["abc", "32"],
      ["-1", "32"],
      ["", "32"],
      [" 3", "32"],
      ["3", "3.5"],
      ["33", "32"],
      ["0", "4097"],
      ["0", "999999"],
    ])
      expect(withCounts(online!, max!), `${online} of ${max}`).toEqual({
        ok: false,
        error: "malformed",
      });
    expect(withCounts("4096", "4096")).toMatchObject({ ok: true, online: 4096, max: 4096 });
    expect(withCounts("0", "0")).toMatchObject({ ok: true, online: 0, max: 0 });
  });

  it("strips directional marks and control characters from the name", () => {
    const marked = Array.from(new TextEncoder().encode("\u202eDM\u0007 Server\u200f"));
    const bytes = [
      ...head.slice(0, 14),
      marked.length + 1,
      ...marked,
      ...head.slice(14 + name.length + 1),
    ];
    expect(read([...bytes, ...counts])).toMatchObject({ ok: true, name: "DM Server" });
  });
});

describe("Windows-1252", () => {
  it("reads 0x80 to 0x9F as Windows-1252 does, not as Latin-1's control codes", () => {
    expect(decodeWindows1252(Uint8Array.from([0x80, 0x8a, 0x93, 0x94, 0x99, 0x9f]))).toBe("€Š“”™Ÿ");
    expect(decodeWindows1252(Uint8Array.from([0x41, 0xa0, 0xe9, 0xff]))).toBe("A\u00a0éÿ");
  });

  it("leaves its five undefined bytes as control codes, which a name loses", () => {
    const undefinedBytes = Uint8Array.from([0x81, 0x8d, 0x8f, 0x90, 0x9d]);
    expect(decodeWindows1252(undefinedBytes)).toBe("\u0081\u008d\u008f\u0090\u009d");
    expect(cleanServerName(decodeWindows1252(undefinedBytes))).toBe("");
  });
});

describe("a name on the card", () => {
  it("is cut by characters, never inside one", () => {
    const name = "😀".repeat(GAME_NAME_MAX_CHARS + 5);
    expect(Array.from(cleanServerName(name))).toHaveLength(GAME_NAME_MAX_CHARS);
  });

  it("has single spaces and no spaces at its ends", () => {
    expect(cleanServerName("  My \r\n  server\t ")).toBe("My server");
  });
});
