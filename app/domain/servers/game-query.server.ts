import { createSocket as createUdpSocket, type Socket } from "node:dgram";
import { lookup } from "node:dns/promises";
import { isIPv4 } from "node:net";
import {
  gameQueryPort,
  isUdpPort,
  mtaAseRequest,
  readMtaAse,
  readSampInfo,
  sampInfoRequest,
  type GameAnswerReading,
  type GameInfo,
  type GameQueryKind,
} from "./game-query";
import { GAME_QUERY_TIMEOUT_MS, type PlayersError } from "./server-control";

// Asks a game server for its name and players over UDP (docs/server-control.md), for the worker's status
// job only: a page never waits on a game. One socket per query, one request, the first answer from the
// address and port asked, all within `timeoutMs`; the socket is closed before the answer is given,
// whatever happened. What the game does (silence, a late answer, garbage) is a result, never a throw.

export interface GameQueryInput {
  kind: GameQueryKind;
  /** The server's address: an IPv4 address, or a name resolved (once) to one. */
  host: string;
  /** The game port; MTA is asked on this + 123. */
  port: number;
  /** The whole query's bound, the name's resolution included. */
  timeoutMs?: number;
}

export type GameQueryResult = ({ ok: true } & GameInfo) | { ok: false; error: PlayersError };

export interface GameQueryOptions {
  /** The socket maker (node:dgram's); a test passes one that records the sockets it made. */
  createSocket?: () => Socket;
  /** A name to its IPv4 address (node:dns's lookup). */
  resolve?: (host: string) => Promise<string>;
}

const NO_ANSWER = { ok: false, error: "noAnswer" } as const;

async function resolveIpv4(host: string): Promise<string> {
  return (await lookup(host, { family: 4 })).address;
}

export function queryGame(
  input: GameQueryInput,
  options: GameQueryOptions = {},
): Promise<GameQueryResult> {
  const timeoutMs = input.timeoutMs ?? GAME_QUERY_TIMEOUT_MS;
  const queryPort = gameQueryPort(input.kind, input.port);
  // A port no game can listen on: nothing could ever answer.
  if (!isUdpPort(input.port) || !isUdpPort(queryPort)) return Promise.resolve(NO_ANSWER);
  const createSocket = options.createSocket ?? (() => createUdpSocket("udp4"));
  const resolve = options.resolve ?? resolveIpv4;

  return new Promise<GameQueryResult>((settle) => {
    let socket: Socket | null = null;
    let done = false;
    const finish = (result: GameQueryResult) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      if (!socket) return settle(result);
      socket.removeAllListeners("message");
      try {
        socket.close(() => settle(result));
      } catch {
        // Already closed (an error closes nothing, but a failed bind may have): nothing left to free.
        settle(result);
      }
    };
    const timer = setTimeout(() => finish(NO_ANSWER), timeoutMs);

    const address = isIPv4(input.host)
      ? Promise.resolve(input.host)
      : Promise.resolve().then(() => resolve(input.host));
    address.then(
      (ip) => {
        if (done) return;
        if (!isIPv4(ip)) return finish(NO_ANSWER);
        const request = input.kind === "samp" ? sampInfoRequest(ip, input.port) : mtaAseRequest();
        const read = (answer: Uint8Array): GameAnswerReading =>
          input.kind === "samp"
            ? readSampInfo(answer, ip, input.port)
            : readMtaAse(answer, input.port);
        socket = createSocket();
        // An ICMP refusal or a failed send: the game will not answer this time.
        socket.on("error", () => finish(NO_ANSWER));
        socket.on("message", (answer, from) => {
          // Anyone may send a datagram to our port: only the server asked is heard.
          if (from.address !== ip || from.port !== queryPort) return;
          finish(read(answer));
        });
        socket.send(request, queryPort, ip, (error) => {
          if (error) finish(NO_ANSWER);
        });
      },
      () => finish(NO_ANSWER),
    );
  });
}
