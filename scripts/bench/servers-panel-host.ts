/**
 * The machines a customer's server runs on, for `npm run bench:servers` (scripts/bench/servers.ts): the
 * fake Pterodactyl panel (tests/support/fake-pterodactyl.ts) with its Client API, and an SA-MP query
 * responder (tests/support/fake-game-query.ts) on UDP loopback for each game port, in a process of their
 * own. They are other machines in production; here they must at least be another event loop, so the
 * benchmark's client (500 viewers polling) never holds up their answers.
 *
 * Started with fork() and one argument, the JSON of `ServersPanelOptions`. It adds a location `bench`
 * holding one big node whose allocations are 127.0.0.1 at the responders' ports (so the worker's game
 * query of a server made there finds its game), tells its parent `{ type: "ready", ... }`, then answers
 * each message with one of the same type: `runAll` (every server the app made is started, as its
 * customer would have), `state` (every request received, with when it arrived). SIGTERM closes it.
 *
 * The fake's own request log has no time, and a request is counted per cache period: the log's `push`
 * is wrapped here to note each request's arrival (the fake pushes a request when it arrives, before its
 * answer's delay), without changing what the fake does.
 */
import type { FakePanelRequest } from "../../tests/support/fake-pterodactyl";
import { startFakePanel } from "../../tests/support/fake-pterodactyl";
import { startFakeSampServer } from "../../tests/support/fake-game-query";

export interface ServersPanelOptions {
  /** The delay of each answer, drawn between min and max (ms). */
  answerDelayMs: { min: number; max: number };
  /** Game servers to answer the query on 127.0.0.1, each an allocation of the node. */
  gameServers: number;
}

export interface ServersPanelReady {
  type: "ready";
  url: string;
  apiKey: string;
  clientApiKey: string;
  locationId: number;
  allocations: number;
  egg: { id: number; nestId: number };
}

/** One request the panel received, with when it arrived (ms since the epoch, this machine's clock). */
export interface StampedRequest {
  at: number;
  method: string;
  url: string;
  route: string | null;
  status: number | null;
}

export interface ServersPanelState {
  type: "state";
  requests: StampedRequest[];
  /** The servers our app made (external id `hf-svc-…`): their power state as Wings has it. */
  servers: { id: number; identifier: string; externalId: string; power: string }[];
}

export interface ServersPanelRunAll {
  type: "runAll";
  started: number;
}

export type ServersPanelMessage = { type: "runAll" } | { type: "state" };

const options = JSON.parse(process.argv[2] ?? "{}") as ServersPanelOptions;
// Installed at once: the benchmark's servers are made by the app, and what is measured starts after.
const panel = await startFakePanel({ answerDelayMs: options.answerDelayMs, installReads: 0 });
const arrivedAt = new WeakMap<FakePanelRequest, number>();
const push = panel.requests.push.bind(panel.requests);
panel.requests.push = (...items: FakePanelRequest[]) => {
  const now = Date.now();
  for (const item of items) arrivedAt.set(item, now);
  return push(...items);
};

const games = await Promise.all(
  Array.from({ length: options.gameServers }, (_, i) =>
    startFakeSampServer({ name: `Bench server ${i + 1}`, online: (i * 7) % 51, max: 50 }),
  ),
);
const location = panel.addLocation("bench", "Benchmark");
const node = panel.addNode({
  name: "bench-big-1",
  locationId: location.id,
  memory: 4_000_000,
  disk: 40_000_000,
});
const added = panel.addAllocations(
  node.id,
  "127.0.0.1",
  games.map((game) => game.gamePort),
);
const egg = panel.eggs.find((each) => each.name === "SA-MP")!;

process.send!({
  type: "ready",
  url: panel.url,
  apiKey: panel.apiKey,
  clientApiKey: panel.clientApiKey,
  locationId: location.id,
  allocations: added.length,
  egg: { id: egg.id, nestId: egg.nestId },
} satisfies ServersPanelReady);

const ours = () => panel.servers.filter((server) => server.externalId?.startsWith("hf-svc-"));

process.on("message", (message: ServersPanelMessage) => {
  if (message.type === "runAll") {
    const servers = ours();
    for (const [i, server] of servers.entries()) {
      panel.setPowerState(server.id, "running");
      // What a game server uses a while after it started: a little CPU, a few hundred MiB.
      panel.setResources(server.id, {
        cpuAbsolute: 3 + (i % 20),
        memoryBytes: (200 + (i % 300)) * 1024 * 1024,
        diskBytes: (400 + i) * 1024 * 1024,
        uptimeMs: 3_600_000 + i * 1000,
      });
    }
    process.send!({ type: "runAll", started: servers.length } satisfies ServersPanelRunAll);
  } else if (message.type === "state") {
    process.send!({
      type: "state",
      requests: panel.requests.map((request) => ({
        at: arrivedAt.get(request) ?? NaN,
        method: request.method,
        url: request.url,
        route: request.route,
        status: request.status,
      })),
      servers: ours().map((server) => ({
        id: server.id,
        identifier: server.identifier,
        externalId: server.externalId!,
        power: panel.powerState(server.id),
      })),
    } satisfies ServersPanelState);
  }
});

process.on("SIGTERM", () => {
  void Promise.all([panel.close(), ...games.map((game) => game.close())]).then(() =>
    process.exit(0),
  );
});
