/**
 * The fake Pterodactyl panel (tests/support/fake-pterodactyl.ts) in a process of its own, for
 * `npm run bench:provisioning` (scripts/bench/provisioning.ts). The panel is another machine in
 * production; here it must at least be another event loop: the benchmark's process runs the approvals,
 * whose SQLite statements are synchronous, and would hold up the panel's answers meanwhile.
 *
 * Started with fork() and one argument, the JSON of `PanelHostOptions`. It adds a location `bench`
 * holding one big node (room and ports for the run's servers: one-port and MTA sets), tells its parent
 * `{ type: "ready", ... }`, then answers each message with one of the same type: `failEvery`,
 * `clearFailures`, `state` (the servers, their allocations, the requests received). SIGTERM closes it.
 */
import type { FakePanelFailure } from "../../tests/support/fake-pterodactyl";
import { startFakePanel } from "../../tests/support/fake-pterodactyl";

export interface PanelHostOptions {
  /** The delay of each answer, drawn between min and max (ms). */
  answerDelayMs: { min: number; max: number };
  /** Single reads of a new server that say "installing" before it is done. */
  installReads: number;
  /** One-port servers the node must hold (ports from 7000 up, with some to spare). */
  singlePorts: number;
  /** MTA sets the node must hold: P from 30000 up with P + 123, with some to spare. */
  mtaSets: number;
}

export interface PanelHostReady {
  type: "ready";
  url: string;
  apiKey: string;
  locationId: number;
  nodeId: number;
  allocations: number;
  eggs: { samp: { id: number; nestId: number }; mta: { id: number; nestId: number } };
}

export interface PanelHostServer {
  id: number;
  externalId: string | null;
  nodeId: number;
  allocationId: number;
  environment: Record<string, string>;
  status: string | null;
  allocations: { id: number; ip: string; port: number }[];
}

export interface PanelHostState {
  type: "state";
  servers: PanelHostServer[];
  /** Every request received since the panel started, failed ones included. */
  requests: number;
  /** Requests a failure was made of, by kind. */
  failures: Record<string, number>;
  /** Requests by route ("POST /servers"), failed ones included. */
  byRoute: Record<string, number>;
}

export type PanelHostMessage =
  | { type: "failEvery"; n: number; kinds: FakePanelFailure[] }
  | { type: "clearFailures" }
  | { type: "state" };

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** `count` MTA pairs P and P + 123 from 30000 up, in blocks of 123 so no port is listed twice. */
function mtaPairs(count: number): number[] {
  return range(0, count).flatMap((i) => {
    const port = 30000 + Math.floor(i / 123) * 246 + (i % 123);
    return [port, port + 123];
  });
}

const options = JSON.parse(process.argv[2] ?? "{}") as PanelHostOptions;
const panel = await startFakePanel({
  answerDelayMs: options.answerDelayMs,
  installReads: options.installReads,
});
const location = panel.addLocation("bench", "Benchmark");
const node = panel.addNode({
  name: "bench-big-1",
  locationId: location.id,
  memory: 4_000_000,
  disk: 40_000_000,
});
// A third more than asked of each, as a node is never filled to its last port.
const singles = Math.ceil(options.singlePorts * 1.34) + 10;
const sets = Math.ceil(options.mtaSets * 1.34) + 10;
// MTA's HTTP port is the lowest other free port of the IP: it comes from the 7000s, so they hold both.
const added = panel.addAllocations(node.id, "10.0.9.10", [
  ...range(7000, singles + sets),
  ...mtaPairs(sets),
]);
const samp = panel.eggs.find((egg) => egg.name === "SA-MP")!;
const mta = panel.eggs.find((egg) => egg.name === "Multi Theft Auto")!;

process.send!({
  type: "ready",
  url: panel.url,
  apiKey: panel.apiKey,
  locationId: location.id,
  nodeId: node.id,
  allocations: added.length,
  eggs: {
    samp: { id: samp.id, nestId: samp.nestId },
    mta: { id: mta.id, nestId: mta.nestId },
  },
} satisfies PanelHostReady);

process.on("message", (message: PanelHostMessage) => {
  if (message.type === "failEvery") {
    panel.failEvery(message.n, message.kinds);
    process.send!({ type: "failEvery" });
  } else if (message.type === "clearFailures") {
    panel.clearFailures();
    process.send!({ type: "clearFailures" });
  } else if (message.type === "state") {
    const failures: Record<string, number> = {};
    const byRoute: Record<string, number> = {};
    for (const request of panel.requests) {
      if (request.failure) failures[request.failure] = (failures[request.failure] ?? 0) + 1;
      const route = request.route ?? "(none)";
      byRoute[route] = (byRoute[route] ?? 0) + 1;
    }
    process.send!({
      type: "state",
      servers: panel.servers.map((server) => ({
        id: server.id,
        externalId: server.externalId,
        nodeId: server.nodeId,
        allocationId: server.allocationId,
        environment: { ...server.environment },
        status: server.status,
        allocations: panel
          .allocationsOf(server.id)
          .map((allocation) => ({ id: allocation.id, ip: allocation.ip, port: allocation.port })),
      })),
      requests: panel.requests.length,
      failures,
      byRoute,
    } satisfies PanelHostState);
  }
});

process.on("SIGTERM", () => {
  void panel.close().then(() => process.exit(0));
});
