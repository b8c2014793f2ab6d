import { createSocket, type Socket } from "node:dgram";
import { afterEach, describe, expect, it } from "vitest";
import {
  startFakeMtaServer,
  startFakeSampServer,
  type FakeGameServer,
  type MtaMalformation,
  type SampMalformation,
} from "../../../tests/support/fake-game-query";
import { sampInfoRequest } from "./game-query";
import { queryGame, type GameQueryOptions } from "./game-query.server";

// The UDP client against the fake responders on loopback. No test measures time: a "slow" game is one
// whose answer comes long after the (small) bound, so the client has given up on it whatever the machine.

/** A bound the fakes that answer meet with room to spare, and the silent ones make the client wait out. */
const SHORT = 150;
/** Far past SHORT: a slow answer that can only arrive after the client gave up. */
const LONG = 30_000;
/** Plenty for a loopback answer on a loaded machine. */
const AMPLE = 10_000;

const fakes: FakeGameServer<unknown, unknown>[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function samp(name = "Los Santos RP", online = 12, max = 50) {
  const fake = await startFakeSampServer({ name, online, max });
  fakes.push(fake as FakeGameServer<unknown, unknown>);
  return fake;
}
async function mta(name = "Ünïcode DM", online = 3, max = 32) {
  const fake = await startFakeMtaServer({ name, online, max, rules: [["weather", "10"]] });
  fakes.push(fake as FakeGameServer<unknown, unknown>);
  return fake;
}

/** The sockets a query made, each with whether it was closed, for the "closed in every case" checks. */
function recordingSockets() {
  const made: { socket: Socket; closed: boolean }[] = [];
  const options: GameQueryOptions = {
    createSocket: () => {
      const entry = { socket: createSocket("udp4"), closed: false };
      entry.socket.on("close", () => (entry.closed = true));
      made.push(entry);
      return entry.socket;
    },
  };
  return { made, options };
}

describe("queryGame, SA-MP", () => {
  it("asks the game port with the 11-byte i query and reads the name and players", async () => {
    const fake = await samp("Café € – RP", 12, 50);
    const result = await queryGame({
      kind: "samp",
      host: fake.host,
      port: fake.gamePort,
      timeoutMs: AMPLE,
    });
    expect(result).toEqual({ ok: true, name: "Café € – RP", online: 12, max: 50 });
    expect(fake.received).toHaveLength(1);
    expect(fake.received[0]!.bytes).toEqual(sampInfoRequest("127.0.0.1", fake.gamePort));
  });

  it("reads what the game says now", async () => {
    const fake = await samp();
    const ask = () =>
      queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE });
    expect(await ask()).toMatchObject({ online: 12, max: 50 });
    fake.set({ name: "Night shift", online: 0, max: 100 });
    expect(await ask()).toEqual({ ok: true, name: "Night shift", online: 0, max: 100 });
  });

  it("gives noAnswer when the game says nothing within the bound", async () => {
    const fake = await samp();
    fake.mode("silent");
    expect(
      await queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: SHORT }),
    ).toEqual({ ok: false, error: "noAnswer" });
    expect(fake.received).toHaveLength(1);
  });

  it("gives noAnswer when the answer comes long after the bound, and the answer when within it", async () => {
    const fake = await samp();
    fake.mode({ slowMs: LONG });
    expect(
      await queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: SHORT }),
    ).toEqual({ ok: false, error: "noAnswer" });
    fake.mode({ slowMs: 20 });
    expect(
      await queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE }),
    ).toMatchObject({ ok: true, online: 12 });
  });

  it.each<SampMalformation>([
    "tooShort",
    "truncated",
    "wrongMagic",
    "wrongOpcode",
    "wrongPort",
    "lengthPastEnd",
    "tooManyPlayers",
  ])("gives malformed for an answer %s", async (kind) => {
    const fake = await samp();
    fake.mode({ malformed: kind });
    expect(
      await queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE }),
    ).toEqual({ ok: false, error: "malformed" });
  });

  it.each(["otherPort", "otherAddress"] as const)(
    "ignores a good-looking answer from the %s, and reads the server's own",
    async (impostor) => {
      const fake = await samp();
      fake.mode({ impostor });
      expect(
        await queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE }),
      ).toEqual({ ok: true, name: "Los Santos RP", online: 12, max: 50 });
      fake.mode({ impostor, silent: true });
      expect(
        await queryGame({ kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs: SHORT }),
      ).toEqual({ ok: false, error: "noAnswer" });
    },
  );
});

describe("queryGame, MTA:SA", () => {
  it("asks the game port + 123 with s and reads the ASE answer", async () => {
    const fake = await mta();
    expect(fake.queryPort).toBe(fake.gamePort + 123);
    const result = await queryGame({
      kind: "mta",
      host: fake.host,
      port: fake.gamePort,
      timeoutMs: AMPLE,
    });
    expect(result).toEqual({ ok: true, name: "Ünïcode DM", online: 3, max: 32 });
    expect(fake.received.map((query) => Array.from(query.bytes))).toEqual([[0x73]]);
  });

  it("reads what the game says now", async () => {
    const fake = await mta();
    fake.set({ name: "Race", online: 7, max: 64 });
    expect(
      await queryGame({ kind: "mta", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE }),
    ).toEqual({ ok: true, name: "Race", online: 7, max: 64 });
  });

  it("gives noAnswer when silent or slow past the bound", async () => {
    const fake = await mta();
    fake.mode("silent");
    const ask = () =>
      queryGame({ kind: "mta", host: fake.host, port: fake.gamePort, timeoutMs: SHORT });
    expect(await ask()).toEqual({ ok: false, error: "noAnswer" });
    fake.mode({ slowMs: LONG });
    expect(await ask()).toEqual({ ok: false, error: "noAnswer" });
  });

  it.each<MtaMalformation>([
    "truncated",
    "wrongMagic",
    "wrongPort",
    "zeroLength",
    "notANumber",
    "tooManyPlayers",
  ])("gives malformed for an answer %s", async (kind) => {
    const fake = await mta();
    fake.mode({ malformed: kind });
    expect(
      await queryGame({ kind: "mta", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE }),
    ).toEqual({ ok: false, error: "malformed" });
  });

  it("ignores a good-looking answer from another port", async () => {
    const fake = await mta();
    fake.mode({ impostor: "otherPort" });
    expect(
      await queryGame({ kind: "mta", host: fake.host, port: fake.gamePort, timeoutMs: AMPLE }),
    ).toMatchObject({ ok: true, name: "Ünïcode DM" });
  });
});

describe("queryGame, the host and the socket", () => {
  it("resolves a name once, to IPv4", async () => {
    const fake = await samp();
    const asked: string[] = [];
    const result = await queryGame(
      { kind: "samp", host: "game.example", port: fake.gamePort, timeoutMs: AMPLE },
      {
        resolve: async (host) => {
          asked.push(host);
          return "127.0.0.1";
        },
      },
    );
    expect(result).toMatchObject({ ok: true, name: "Los Santos RP" });
    expect(asked).toEqual(["game.example"]);
    // The query carries the address the name resolved to.
    expect(fake.received[0]!.bytes.subarray(4, 8)).toEqual(Uint8Array.from([127, 0, 0, 1]));
  });

  it("resolves localhost with the system's resolver", async () => {
    const fake = await samp();
    expect(
      await queryGame({ kind: "samp", host: "localhost", port: fake.gamePort, timeoutMs: AMPLE }),
    ).toMatchObject({ ok: true });
  });

  it("gives noAnswer for a name that does not resolve, or resolves past the bound", async () => {
    const fake = await samp();
    const ask = (resolve: (host: string) => Promise<string>) =>
      queryGame(
        { kind: "samp", host: "game.example", port: fake.gamePort, timeoutMs: SHORT },
        { resolve },
      );
    expect(await ask(() => Promise.reject(new Error("ENOTFOUND")))).toEqual({
      ok: false,
      error: "noAnswer",
    });
    expect(await ask(() => new Promise<string>(() => {}))).toEqual({
      ok: false,
      error: "noAnswer",
    });
    expect(
      await ask(() => {
        throw new Error("thrown, not rejected");
      }),
    ).toEqual({ ok: false, error: "noAnswer" });
    expect(await ask(async () => "::1")).toEqual({ ok: false, error: "noAnswer" });
    expect(fake.received).toHaveLength(0);
  });

  it("gives noAnswer, with no socket, for a port no game can have", async () => {
    const { made, options } = recordingSockets();
    for (const [kind, port] of [
      ["samp", 0],
      ["samp", 65_536],
      ["samp", 7777.5],
      ["mta", 65_500], // its query port would be 65623
    ] as const)
      expect(await queryGame({ kind, host: "127.0.0.1", port, timeoutMs: SHORT }, options)).toEqual(
        { ok: false, error: "noAnswer" },
      );
    expect(made).toHaveLength(0);
  });

  it("closes its one socket before giving any result", async () => {
    const fake = await samp();
    const ask = async (timeoutMs: number) => {
      const { made, options } = recordingSockets();
      const result = await queryGame(
        { kind: "samp", host: fake.host, port: fake.gamePort, timeoutMs },
        options,
      );
      expect(made).toHaveLength(1);
      expect(made[0]!.closed).toBe(true);
      return result;
    };
    expect(await ask(AMPLE)).toMatchObject({ ok: true });
    fake.mode("silent");
    expect(await ask(SHORT)).toEqual({ ok: false, error: "noAnswer" });
    fake.mode({ malformed: "truncated" });
    expect(await ask(AMPLE)).toEqual({ ok: false, error: "malformed" });
  });

  it("gives noAnswer when the socket fails", async () => {
    const result = await queryGame(
      { kind: "samp", host: "127.0.0.1", port: 7777, timeoutMs: AMPLE },
      {
        createSocket: () => {
          const socket = createSocket("udp4");
          // A send that fails as a send to an unreachable network does.
          socket.send = ((...args: unknown[]) => {
            const callback = args.at(-1) as (error: Error) => void;
            queueMicrotask(() => callback(new Error("ENETUNREACH")));
          }) as Socket["send"];
          return socket;
        },
      },
    );
    expect(result).toEqual({ ok: false, error: "noAnswer" });
  });
});
