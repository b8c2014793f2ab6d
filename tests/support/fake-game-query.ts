import { createSocket, type RemoteInfo, type Socket } from "node:dgram";
import { MTA_ANNOUNCE_OFFSET } from "~/domain/provisioning/placement";

// Game servers' query responders on UDP loopback, written from the protocols as the servers send them:
// SA-MP's query (the SA-MP wiki's "Query Mechanism", open.mp's Query::handleQuery and
// buildServerInfoBuffer) on the game port, and MTA:SA's All-Seeing Eye answer (ASE::QueryFull in
// multitheftauto/mtasa-blue's Server/mods/deathmatch/logic/ASE.cpp) on the game port + 123. Each can be
// switched to answer, say nothing, answer late, answer wrong in a few ways, or have a stranger answer
// first from another port or address; its name and players can be changed while it runs.

export interface FakeGameInfo {
  name: string;
  online: number;
  max: number;
}

/** SA-MP's extras: the password flag, the game mode and the language (what 0.3.7 and open.mp send). */
export interface FakeSampInfo extends FakeGameInfo {
  password: boolean;
  gamemode: string;
  language: string;
}

/** MTA's extras: the fields of its ASE answer and what follows them (rules, then players). */
export interface FakeMtaInfo extends FakeGameInfo {
  password: boolean;
  gameType: string;
  map: string;
  version: string;
  rules: [string, string][];
  /** The players listed after the rules; by default `online` made-up nicks. */
  players?: { nick: string; score: string; ping: number }[];
}

/** An SA-MP answer that does not read as the protocol writes it. */
export type SampMalformation =
  | "tooShort" // the 11 bytes of the header and nothing else
  | "truncated" // cut in the middle of the hostname
  | "wrongMagic" // not "SAMP"
  | "wrongOpcode" // the header says `r` (rules) though `i` was asked
  | "wrongPort" // the header's port is not the one asked
  | "lengthPastEnd" // the hostname's length runs past the end of the packet
  | "tooManyPlayers"; // more players than slots

/** An MTA answer that does not read as ASE writes it. */
export type MtaMalformation =
  | "truncated" // cut in the middle of the server's name
  | "wrongMagic" // "EYE2", MTA's own lighter answer, not the ASE one asked
  | "wrongPort" // the port field is not the game port
  | "zeroLength" // a length byte of 0, which cannot count itself
  | "notANumber" // the players field is not a number
  | "tooManyPlayers"; // more players than slots

export type FakeGameMode<M> =
  /** Answers each query at once (the default). */
  | "answer"
  /** Never answers (a server down, a firewall dropping the port). */
  | "silent"
  /** Answers each query after this many milliseconds. */
  | { slowMs: number }
  /** Answers each query at once, wrongly. */
  | { malformed: M }
  /**
   * A datagram that reads as a good answer (named "Impostor", 1 player of 2) reaches the asker first
   * from another port of the server's address, or from the server's port number on another address
   * (127.0.0.2); then the server itself answers, or not (`silent`).
   */
  | { impostor: "otherPort" | "otherAddress"; silent?: boolean };

export interface FakeGameServer<Info, M> {
  /** Where the server is: the client's `host`. */
  host: string;
  /** The game port the client is given (for MTA, nothing listens on it: only on + 123). */
  gamePort: number;
  /** Where this responder listens: the game port for SA-MP, the game port + 123 for MTA. */
  queryPort: number;
  /** Every datagram received, whatever it was, with where it came from. */
  received: { bytes: Uint8Array; from: RemoteInfo }[];
  /** Changes what the next answers say. */
  set(info: Partial<Info>): void;
  /** Changes how the next queries are answered. */
  mode(mode: FakeGameMode<M>): void;
  close(): Promise<void>;
}

const LOOPBACK = "127.0.0.1";
/** Another loopback address (all of 127/8 is the loopback on Linux): a stranger on the same machine. */
const OTHER_LOOPBACK = "127.0.0.2";

function bind(socket: Socket, address: string, port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(port, address, () => {
      socket.off("error", reject);
      resolve(socket.address().port);
    });
  });
}

function closeSocket(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    try {
      socket.close(() => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * The answering machinery both protocols share: a socket on `queryPort`, the modes, the late answers'
 * timers, the strangers' sockets. `answer` builds the answer to one query (null: the query is ignored,
 * as the servers ignore what they do not understand); `malformed` the wrong answer of a kind.
 */
async function startResponder<Info, M>(options: {
  info: Info;
  socket: Socket;
  queryPort: number;
  gamePort: number;
  answer: (query: Uint8Array, info: Info) => Uint8Array | null;
  malformed: (query: Uint8Array, info: Info, kind: M) => Uint8Array | null;
  impostorInfo: Partial<Info>;
}): Promise<FakeGameServer<Info, M>> {
  const { socket } = options;
  let info = options.info;
  let mode: FakeGameMode<M> = "answer";
  const received: { bytes: Uint8Array; from: RemoteInfo }[] = [];
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const strangers = new Map<string, Promise<Socket>>();
  let closed = false;

  // Another port on the same address, or the same port number on another address: each check of
  // where an answer comes from is then tried alone.
  const stranger = (impostor: "otherPort" | "otherAddress") => {
    let made = strangers.get(impostor);
    if (!made) {
      const other = createSocket("udp4");
      made = (
        impostor === "otherPort"
          ? bind(other, LOOPBACK)
          : bind(other, OTHER_LOOPBACK, options.queryPort)
      ).then(() => other);
      strangers.set(impostor, made);
    }
    return made;
  };
  const send = (from: Socket, bytes: Uint8Array | null, to: RemoteInfo) =>
    new Promise<void>((resolve) => {
      if (!bytes || closed) return resolve();
      from.send(bytes, to.port, to.address, () => resolve());
    });

  socket.on("message", (bytes, from) => {
    received.push({ bytes: Uint8Array.from(bytes), from });
    const current = mode;
    if (current === "silent") return;
    if (current === "answer") return void send(socket, options.answer(bytes, info), from);
    if ("slowMs" in current) {
      const answer = options.answer(bytes, info);
      const timer = setTimeout(() => {
        timers.delete(timer);
        void send(socket, answer, from);
      }, current.slowMs);
      timers.add(timer);
      return;
    }
    if ("malformed" in current)
      return void send(socket, options.malformed(bytes, info, current.malformed), from);
    const fake = options.answer(bytes, { ...info, ...options.impostorInfo });
    void stranger(current.impostor)
      .then((other) => send(other, fake, from))
      .then(() => {
        if (!current.silent) return send(socket, options.answer(bytes, info), from);
      })
      // A stranger that could not take its address: the test that wanted it sees no answer.
      .catch(() => undefined);
  });

  return {
    host: LOOPBACK,
    gamePort: options.gamePort,
    queryPort: options.queryPort,
    received,
    set: (next) => void (info = { ...info, ...next }),
    mode: (next) => void (mode = next),
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      const others = await Promise.allSettled(strangers.values());
      const sockets = others.flatMap((other) =>
        other.status === "fulfilled" ? [other.value] : [],
      );
      await Promise.all([socket, ...sockets].map(closeSocket));
    },
  };
}

// ─── SA-MP ───

/** Windows-1252's characters at 0x80 to 0x9F (the rest of its range is Latin-1's). */
const WINDOWS_1252_HIGH = "€\u0081‚ƒ„…†‡ˆ‰Š‹Œ\u008dŽ\u008f\u0090‘’“”•–—˜™š›œ\u009džŸ";

/** Text in Windows-1252, as an SA-MP server keeps its hostname; what it cannot write becomes "?". */
export function windows1252(text: string): Uint8Array {
  return Uint8Array.from(Array.from(text), (char) => {
    const high = WINDOWS_1252_HIGH.indexOf(char);
    if (high >= 0) return 0x80 + high;
    const code = char.codePointAt(0)!;
    return code < 0x80 || (code >= 0xa0 && code <= 0xff) ? code : 0x3f;
  });
}

const uint16 = (value: number) => [value & 0xff, (value >> 8) & 0xff];
const uint32 = (value: number) => [
  value & 0xff,
  (value >> 8) & 0xff,
  (value >> 16) & 0xff,
  value >>> 24,
];
const sampString = (bytes: Uint8Array) => [...uint32(bytes.length), ...bytes];

/** open.mp's buildServerInfoBuffer, behind the first 10 bytes of the query it answers. */
function sampInfo(query: Uint8Array, info: FakeSampInfo): number[] {
  return [
    ...query.subarray(0, 10),
    0x69,
    info.password ? 1 : 0,
    ...uint16(info.online),
    ...uint16(info.max),
    ...sampString(windows1252(info.name)),
    ...sampString(windows1252(info.gamemode)),
    ...sampString(windows1252(info.language)),
  ];
}

/** What open.mp answers: `i` and `p` to a well-formed query (`i` only when it is exactly 11 bytes). */
function sampAnswer(query: Uint8Array, info: FakeSampInfo): Uint8Array | null {
  if (query.length < 11 || String.fromCharCode(...query.subarray(0, 4)) !== "SAMP") return null;
  if (query[10] === 0x70 && query.length === 15) return query; // ping: the query is its own answer
  if (query[10] !== 0x69 || query.length !== 11) return null;
  return Uint8Array.from(sampInfo(query, info));
}

function sampMalformed(query: Uint8Array, info: FakeSampInfo, kind: SampMalformation) {
  const good = sampAnswer(query, info);
  if (!good) return null;
  const bytes = Array.from(good);
  const hostnameAt = 11 + 5;
  switch (kind) {
    case "tooShort":
      return good.subarray(0, 11);
    case "truncated":
      return good.subarray(0, hostnameAt + 4 + Math.floor(info.name.length / 2));
    case "wrongMagic":
      bytes[0] = 0x58; // "XAMP"
      break;
    case "wrongOpcode":
      bytes[10] = 0x72;
      break;
    case "wrongPort":
      bytes.splice(8, 2, ...uint16(((query[8]! | (query[9]! << 8)) + 1) & 0xffff));
      break;
    case "lengthPastEnd":
      bytes.splice(hostnameAt, 4, ...uint32(bytes.length));
      break;
    case "tooManyPlayers":
      bytes.splice(12, 4, ...uint16(info.max + 1), ...uint16(info.max));
      break;
  }
  return Uint8Array.from(bytes);
}

export async function startFakeSampServer(
  info: Partial<FakeSampInfo> & FakeGameInfo,
): Promise<FakeGameServer<FakeSampInfo, SampMalformation>> {
  const socket = createSocket("udp4");
  const port = await bind(socket, LOOPBACK);
  return startResponder({
    info: { password: false, gamemode: "Freeroam", language: "English", ...info },
    socket,
    queryPort: port,
    gamePort: port,
    answer: sampAnswer,
    malformed: sampMalformed,
    impostorInfo: { name: "Impostor", online: 1, max: 2 },
  });
}

// ─── MTA:SA ───

const utf8 = new TextEncoder();
/** One ASE string: its length byte, which counts itself, then its bytes. */
const aseString = (text: string | Uint8Array) => {
  const bytes = typeof text === "string" ? utf8.encode(text) : text;
  return [bytes.length + 1, ...bytes];
};

/** ASE::QueryFull: "EYE1", the server's fields, its rules, an empty string, then one entry a player. */
function mtaFields(info: FakeMtaInfo, gamePort: number) {
  return {
    game: aseString("mta"),
    port: aseString(String(gamePort)),
    name: aseString(info.name),
    rest: [
      ...aseString(info.gameType),
      ...aseString(info.map),
      ...aseString(info.version),
      ...aseString(info.password ? "1" : "0"),
    ],
    online: aseString(String(info.online)),
    max: aseString(String(info.max)),
    tail: [
      ...info.rules.flatMap(([key, value]) => [...aseString(key), ...aseString(value)]),
      1,
      ...(
        info.players ??
        Array.from({ length: info.online }, (_, i) => ({
          nick: `player${i + 1}`,
          score: "0",
          ping: 40,
        }))
      ).flatMap((player) => [
        0x3f, // nick, team, skin, score, ping, time (MTA's flags, as it ORs them)
        ...aseString(player.nick),
        1, // team, left empty
        1, // skin, left empty
        ...aseString(player.score),
        ...aseString(String(player.ping)),
        1, // time, left empty
      ]),
    ],
  };
}

const EYE1 = [0x45, 0x59, 0x45, 0x31];

function mtaAnswerFor(gamePort: number) {
  return (query: Uint8Array, info: FakeMtaInfo): Uint8Array | null => {
    // MTA answers "s" with the ASE answer; its other letters ask for its own formats.
    if (query[0] !== 0x73) return null;
    const f = mtaFields(info, gamePort);
    return Uint8Array.from([
      ...EYE1,
      ...f.game,
      ...f.port,
      ...f.name,
      ...f.rest,
      ...f.online,
      ...f.max,
      ...f.tail,
    ]);
  };
}

function mtaMalformedFor(gamePort: number) {
  const answer = mtaAnswerFor(gamePort);
  return (query: Uint8Array, info: FakeMtaInfo, kind: MtaMalformation) => {
    const good = answer(query, info);
    if (!good) return null;
    const f = mtaFields(info, gamePort);
    const head = [...EYE1, ...f.game, ...f.port];
    switch (kind) {
      case "truncated":
        return good.subarray(0, head.length + 1 + Math.floor(info.name.length / 2));
      case "wrongMagic":
        return Uint8Array.from([0x45, 0x59, 0x45, 0x32, ...good.subarray(4)]);
      case "wrongPort": {
        const port = aseString(String(gamePort + 1));
        return Uint8Array.from([...EYE1, ...f.game, ...port, ...good.subarray(head.length)]);
      }
      case "zeroLength":
        return Uint8Array.from([...head, 0, ...good.subarray(head.length)]);
      case "notANumber":
        return Uint8Array.from([
          ...head,
          ...f.name,
          ...f.rest,
          ...aseString("lots"),
          ...f.max,
          ...f.tail,
        ]);
      case "tooManyPlayers":
        return Uint8Array.from([
          ...head,
          ...f.name,
          ...f.rest,
          ...aseString(String(info.max + 1)),
          ...f.max,
          ...f.tail,
        ]);
    }
  };
}

/**
 * An MTA:SA server's ASE responder, listening on the game port + 123 of the game port it reports (the
 * game port itself stays unbound: its traffic is RakNet's, not this fake's).
 */
export async function startFakeMtaServer(
  info: Partial<FakeMtaInfo> & FakeGameInfo,
): Promise<FakeGameServer<FakeMtaInfo, MtaMalformation>> {
  const socket = createSocket("udp4");
  const queryPort = await bind(socket, LOOPBACK);
  const gamePort = queryPort - MTA_ANNOUNCE_OFFSET;
  return startResponder({
    info: {
      password: false,
      gameType: "MTA:SA",
      map: "None",
      version: "1.6",
      rules: [],
      ...info,
    },
    socket,
    queryPort,
    gamePort,
    answer: mtaAnswerFor(gamePort),
    malformed: mtaMalformedFor(gamePort),
    impostorInfo: { name: "Impostor", online: 1, max: 2, players: undefined },
  });
}
