import { withoutDirectionalControls } from "~/lib/bidi";
import { MTA_ANNOUNCE_OFFSET } from "~/domain/provisioning/placement";

// The players of a server, asked of the game itself (docs/server-control.md): the request packets and
// the reading of the answers, byte by byte, with no socket. SA-MP and open.mp answer the SA-MP query on
// their game port; MTA:SA answers the All-Seeing Eye query on the game port + 123. An answer that does
// not read exactly as the protocol writes it is `malformed`: the card then says so rather than show a
// number it cannot trust.

/** The two query protocols: SA-MP's (open.mp speaks it too) and MTA's ASE. */
export const GAME_QUERY_KINDS = ["samp", "mta"] as const;
export type GameQueryKind = (typeof GAME_QUERY_KINDS)[number];

/** What the card shows of a game's answer. */
export interface GameInfo {
  name: string;
  online: number;
  max: number;
}

export type GameAnswerReading = ({ ok: true } & GameInfo) | { ok: false; error: "malformed" };

/** A server's name on the card: longer names are cut here (in characters, never inside one). */
export const GAME_NAME_MAX_CHARS = 80;
/** SA-MP and open.mp refuse more than 1000 player slots (open.mp's MAX_PLAYERS). */
export const SAMP_MAX_PLAYERS = 1000;
/** MTA:SA refuses more than 4096 (MAX_PLAYER_COUNT in its server's Config.h). */
export const MTA_MAX_PLAYERS = 4096;

/** The UDP port the game answers its query on: the game port itself, or MTA's + 123. */
export function gameQueryPort(kind: GameQueryKind, gamePort: number): number {
  return kind === "mta" ? gamePort + MTA_ANNOUNCE_OFFSET : gamePort;
}

/** A UDP port: a whole number from 1 to 65535. */
export function isUdpPort(port: number): boolean {
  return Number.isInteger(port) && port >= 1 && port <= 65_535;
}

const MALFORMED = { ok: false, error: "malformed" } as const;

// ─── SA-MP ───

const SAMP_MAGIC = [0x53, 0x41, 0x4d, 0x50]; // "SAMP"
const SAMP_INFO_OPCODE = 0x69; // "i"
/** "SAMP", the IPv4 address, the port, the opcode: the request, and the head of its answer. */
export const SAMP_HEADER_LENGTH = 11;

function ipv4Octets(ip: string): number[] | null {
  const parts = ip.split(".");
  if (parts.length !== 4) return null;
  const octets = parts.map((part) => (/^\d{1,3}$/.test(part) ? Number(part) : NaN));
  return octets.every((octet) => octet >= 0 && octet <= 255) ? octets : null;
}

/**
 * The SA-MP information request: "SAMP", the server's IPv4 address as its four octets, the port low byte
 * first, then the opcode `i`. Exactly 11 bytes: open.mp answers `i` only to a packet of that length.
 */
export function sampInfoRequest(ip: string, port: number): Uint8Array {
  const octets = ipv4Octets(ip);
  if (!octets) throw new RangeError(`sampInfoRequest: not an IPv4 address: ${ip}`);
  if (!isUdpPort(port)) throw new RangeError(`sampInfoRequest: not a port: ${port}`);
  return Uint8Array.from([
    ...SAMP_MAGIC,
    ...octets,
    port & 0xff,
    (port >> 8) & 0xff,
    SAMP_INFO_OPCODE,
  ]);
}

/**
 * The answer to `sampInfoRequest(ip, port)`: the request's 11 bytes again (the server copies them), then
 * the password flag (1 byte), the players and the player slots (uint16, little-endian), then the
 * hostname, the game mode and the language, each a uint32 little-endian length and that many bytes in
 * the server's code page (Windows-1252 for nearly all of them).
 */
export function readSampInfo(answer: Uint8Array, ip: string, port: number): GameAnswerReading {
  const request = sampInfoRequest(ip, port);
  if (answer.length < SAMP_HEADER_LENGTH + 5) return MALFORMED;
  for (let i = 0; i < SAMP_HEADER_LENGTH; i++) if (answer[i] !== request[i]) return MALFORMED;
  const view = new DataView(answer.buffer, answer.byteOffset, answer.byteLength);
  let offset = SAMP_HEADER_LENGTH + 1; // past the password flag
  const online = view.getUint16(offset, true);
  const max = view.getUint16(offset + 2, true);
  offset += 4;
  const strings: Uint8Array[] = [];
  for (let i = 0; i < 3; i++) {
    if (offset + 4 > answer.length) return MALFORMED;
    const length = view.getUint32(offset, true);
    offset += 4;
    if (length > answer.length - offset) return MALFORMED;
    strings.push(answer.subarray(offset, offset + length));
    offset += length;
  }
  if (!playersInRange(online, max, SAMP_MAX_PLAYERS)) return MALFORMED;
  return { ok: true, name: cleanServerName(decodeWindows1252(strings[0]!)), online, max };
}

// ─── MTA:SA (All-Seeing Eye) ───

/** The ASE query: the single byte "s", to the game port + 123. */
export function mtaAseRequest(): Uint8Array {
  return Uint8Array.from([0x73]);
}

const ASE_MAGIC = [0x45, 0x59, 0x45, 0x31]; // "EYE1"
/** The fields of the ASE answer read here, in their order; the rules and the players follow them. */
const ASE_FIELDS = [
  "game",
  "port",
  "name",
  "gameType",
  "map",
  "version",
  "passworded",
  "online",
  "max",
] as const;

/**
 * The answer to `mtaAseRequest()` of the server whose game port is `gamePort`: "EYE1", then strings each
 * led by one length byte that counts itself ("mta" is 4, "mta"), in this order: the game, the game port
 * (decimal), the server's name, the game type, the map, the version, passworded ("0" or "1"), the
 * players and the player slots (decimal); then the rules and the players, not read here. MTA writes its
 * strings in UTF-8; a name that is not valid UTF-8 is read as Windows-1252.
 */
export function readMtaAse(answer: Uint8Array, gamePort: number): GameAnswerReading {
  if (answer.length < ASE_MAGIC.length) return MALFORMED;
  for (let i = 0; i < ASE_MAGIC.length; i++) if (answer[i] !== ASE_MAGIC[i]) return MALFORMED;
  let offset = ASE_MAGIC.length;
  const fields = new Map<(typeof ASE_FIELDS)[number], Uint8Array>();
  for (const field of ASE_FIELDS) {
    const length = answer[offset];
    // A length byte of 0 cannot count itself: no server writes it.
    if (length === undefined || length === 0 || offset + length > answer.length) return MALFORMED;
    fields.set(field, answer.subarray(offset + 1, offset + length));
    offset += length;
  }
  const ascii = (field: (typeof ASE_FIELDS)[number]) => String.fromCharCode(...fields.get(field)!);
  if (ascii("game") !== "mta" || ascii("port") !== String(gamePort)) return MALFORMED;
  const online = decimal(ascii("online"));
  const max = decimal(ascii("max"));
  if (online === null || max === null || !playersInRange(online, max, MTA_MAX_PLAYERS))
    return MALFORMED;
  return { ok: true, name: cleanServerName(decodeMtaText(fields.get("name")!)), online, max };
}

/** A count written in decimal digits (no sign, no spaces, at most 5 digits), or null. */
function decimal(text: string): number | null {
  return /^\d{1,5}$/.test(text) ? Number(text) : null;
}

/** Players never outnumber the slots, and neither goes past what the game itself allows. */
function playersInRange(online: number, max: number, limit: number): boolean {
  return max <= limit && online <= max;
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true });

function decodeMtaText(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

// ─── Text ───

/**
 * What Windows-1252 puts at 0x80 to 0x9F, where Latin-1 has control codes; the five bytes it leaves
 * undefined map to the control code of the same number (as the WHATWG Encoding Standard says), which
 * `cleanServerName` then removes. Written out here because some Node versions' `TextDecoder` read this
 * range as Latin-1.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152,
  0x8d, 0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122,
  0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/** Bytes in Windows-1252, the code page SA-MP servers' strings are in. */
export function decodeWindows1252(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes)
    text += String.fromCharCode(
      byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80]! : byte,
    );
  return text;
}

/** Control characters, and the invisible marks that reorder a line, have no place on a card. */
const CONTROLS = /\p{Cc}/gu;

/**
 * A game's name as the card shows it: tabs and line breaks made spaces and runs of spaces made one, no
 * other control character nor directional mark, trimmed, and cut to GAME_NAME_MAX_CHARS characters.
 */
export function cleanServerName(text: string): string {
  const clean = withoutDirectionalControls(text.replace(/\s+/gu, " ").replace(CONTROLS, ""))
    .replace(/ {2,}/g, " ")
    .trim();
  return Array.from(clean).slice(0, GAME_NAME_MAX_CHARS).join("").trimEnd();
}
