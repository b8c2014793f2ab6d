// Wings, the daemon on each of the panel's nodes, as far as the Client API reaches it through the panel:
// each server's power state and what it uses (GET /api/servers/{uuid}), power signals, and a node that
// does not answer. Following pterodactyl/wings (server/power.go, environment's states): a signal is taken
// at once and the state moves afterwards; here it moves one step per `powerReads` reads of the
// server's resources, so that a test watches it move without a clock.

export type FakePowerState = "offline" | "starting" | "running" | "stopping";
export type FakePowerSignal = "start" | "stop" | "restart" | "kill";

/** What Wings reports a server uses while its process runs. */
export interface FakeResources {
  /** Percent of one core (may pass 100). */
  cpuAbsolute: number;
  memoryBytes: number;
  diskBytes: number;
  uptimeMs: number;
}

/** How a node fails to answer: no connection at all, or a proxy in front of Wings answering a 5xx. */
export interface FakeNodeOutage {
  proxyStatus: number | null;
}

interface Power {
  state: FakePowerState;
  /** The states still to come, one per `powerReads` reads. */
  next: FakePowerState[];
  readsLeft: number;
}

const IDLE: FakeResources = { cpuAbsolute: 0, memoryBytes: 0, diskBytes: 0, uptimeMs: 0 };

export class FakeWings {
  private readonly power = new Map<number, Power>();
  private readonly usage = new Map<number, FakeResources>();
  private readonly outages = new Map<number, FakeNodeOutage>();

  /** `powerReads`: how many reads of the resources show each step of a power change (0: at once). */
  constructor(public powerReads: number) {
    if (!(Number.isInteger(powerReads) && powerReads >= 0))
      throw new Error(`powerReads needs a whole number ≥ 0, not ${powerReads}`);
  }

  /** A server Wings has not been told about is offline, as a newly installed one is. */
  state(serverId: number): FakePowerState {
    return this.power.get(serverId)?.state ?? "offline";
  }

  /** Sets the state at once, any change under way dropped. */
  setState(serverId: number, state: FakePowerState) {
    this.power.set(serverId, { state, next: [], readsLeft: 0 });
  }

  setResources(serverId: number, resources: Partial<FakeResources>) {
    this.usage.set(serverId, { ...(this.usage.get(serverId) ?? IDLE), ...resources });
  }

  /**
   * A power signal (Server::HandlePowerAction): start only from offline (Wings refuses it otherwise, and
   * only logs it: the panel has already answered 204); stop a running or starting server; restart is a
   * stop then a start; kill is offline at once.
   */
  signal(serverId: number, signal: FakePowerSignal) {
    const state = this.state(serverId);
    const steps: Record<FakePowerSignal, FakePowerState[]> = {
      start: state === "offline" ? ["starting", "running"] : [],
      stop: state === "running" || state === "starting" ? ["stopping", "offline"] : [],
      restart: state === "offline" ? ["starting", "running"] : ["stopping", "starting", "running"],
      kill: ["offline"],
    };
    const moves = steps[signal];
    if (moves.length === 0) return;
    if (this.powerReads === 0 || moves.length === 1) {
      this.setState(serverId, moves.at(-1)!);
      return;
    }
    this.power.set(serverId, {
      state: moves[0]!,
      next: moves.slice(1),
      readsLeft: this.powerReads,
    });
  }

  /**
   * What Wings reports (the StatsTransformer's fields), then one read counted towards the next step of a
   * change under way. Offline, the process's CPU, memory, network and uptime read 0, as Wings resets
   * them when the process stops; the disk stays.
   */
  details(serverId: number, suspended: boolean) {
    const state = this.state(serverId);
    const usage = this.usage.get(serverId) ?? IDLE;
    const running = state !== "offline";
    const details = {
      current_state: state,
      is_suspended: suspended,
      resources: {
        memory_bytes: running ? usage.memoryBytes : 0,
        cpu_absolute: running ? usage.cpuAbsolute : 0,
        disk_bytes: usage.diskBytes,
        network_rx_bytes: 0,
        network_tx_bytes: 0,
        uptime: running ? usage.uptimeMs : 0,
      },
    };
    const power = this.power.get(serverId);
    if (power && power.next.length > 0) {
      power.readsLeft -= 1;
      if (power.readsLeft <= 0) {
        power.state = power.next.shift()!;
        power.readsLeft = this.powerReads;
      }
    }
    return details;
  }

  /** The node answers again (`down` false), or not: no connection, or a proxy's 5xx in its place. */
  setNodeDown(nodeId: number, down: boolean, proxyStatus: number | null = null) {
    if (
      proxyStatus !== null &&
      !(Number.isInteger(proxyStatus) && proxyStatus >= 500 && proxyStatus <= 599)
    )
      throw new Error(`A proxy in front of Wings answers a 5xx here, not ${proxyStatus}`);
    if (down) this.outages.set(nodeId, { proxyStatus });
    else this.outages.delete(nodeId);
  }

  outage(nodeId: number): FakeNodeOutage | null {
    return this.outages.get(nodeId) ?? null;
  }
}
