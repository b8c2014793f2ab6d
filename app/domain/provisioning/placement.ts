// Where a server may go on the panel and which ports it takes: the product's port layout, the panel's
// nodes and allocations as the client reads them, and the rules that choose among them
// (docs/provisioning.md).

/**
 * The ports a product's server takes: one (SA-MP, open.mp and most games), or MTA's three on one IP:
 * the game port P, P + 123 (where MTA answers the server list, fixed by MTA itself) and an HTTP port H.
 */
export const PORT_LAYOUTS = ["single", "mta"] as const;
export type PortLayout = (typeof PORT_LAYOUTS)[number];
export const MTA_ANNOUNCE_OFFSET = 123;
/** The allocations a layout takes at creation, the least a product of it may allow. */
export const LAYOUT_PORTS = { single: 1, mta: 3 } as const satisfies Record<PortLayout, number>;

/** Why no node could take a server (placement, below). */
export const PLACEMENT_FAILURES = ["noNodeInLocation", "noRoom", "noPorts"] as const;
export type PlacementFailure = (typeof PLACEMENT_FAILURES)[number];

// ─── The panel's objects, as the client reads them (structural: the client's types fit) ───

export interface PanelAllocation {
  id: number;
  nodeId: number;
  ip: string;
  port: number;
  assigned: boolean;
}

export interface PanelNode {
  id: number;
  locationId: number;
  memoryMb: number;
  /** Percent above `memoryMb` the node may promise; -1: no limit. */
  memoryOverallocate: number;
  diskMb: number;
  diskOverallocate: number;
  /** What the node's servers take (the panel's `allocated_resources`). */
  allocatedMemoryMb: number;
  allocatedDiskMb: number;
  maintenance: boolean;
}

// ─── Where a server may go ───

/**
 * The panel locations an order may be placed in. The order's location (germany, usa, ...) maps to panel
 * locations in the game panel settings; a product may list its own. Both: the product's among the
 * order's (a product kept to some locations is not sold elsewhere: the list may come out empty, and the
 * order is refused for want of a node). Only the product's: when the order's location has no mapping,
 * the product's list is the only word on where it runs. Neither: nowhere.
 */
export function panelLocationsFor(
  orderLocation: string,
  locationMap: Readonly<Record<string, readonly number[]>>,
  productLocationIds: readonly number[],
): number[] {
  const mapped = Object.hasOwn(locationMap, orderLocation) ? locationMap[orderLocation]! : [];
  const chosen =
    mapped.length === 0
      ? productLocationIds
      : productLocationIds.length === 0
        ? mapped
        : mapped.filter((id) => productLocationIds.includes(id));
  return [...new Set(chosen)];
}

/** Whether a node may take `memoryMb` and `diskMb` more than it has promised already. */
export function nodeHasRoom(node: PanelNode, needs: { memoryMb: number; diskMb: number }): boolean {
  if (node.maintenance) return false;
  return (
    fits(node.allocatedMemoryMb + needs.memoryMb, node.memoryMb, node.memoryOverallocate) &&
    fits(node.allocatedDiskMb + needs.diskMb, node.diskMb, node.diskOverallocate)
  );
}

/**
 * The panel's rule (Node::isViable): the total may reach the size plus `overallocate` percent of it, in
 * whole numbers here (total × 100 ≤ size × (100 + percent)) so no float decides a boundary. -1 is the
 * panel's "no limit" (its node form: "enter -1 to disable checking for over-allocation").
 */
function fits(total: number, size: number, overallocate: number): boolean {
  if (overallocate === -1) return true;
  return total * 100 <= size * (100 + overallocate);
}

export interface AllocationPick {
  ip: string;
  /** The server's main allocation: the game port. */
  defaultId: number;
  /** MTA: the P + 123 allocation, then the HTTP one. */
  additionalIds: number[];
  ports: { game: number; announce?: number; http?: number };
}

function byPort(a: PanelAllocation, b: PanelAllocation): number {
  return a.port - b.port || compareText(a.ip, b.ip) || a.id - b.id;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The allocations a new server takes on one node, chosen by us, never by the panel's automatic deploy
 * (which knows nothing of MTA's P + 123): free ones only (not assigned on the panel, not `taken` by a job
 * of ours under way). One port: the lowest free port. MTA: the lowest game port P whose P + 123 is free
 * on the same IP with a third free port H there for HTTP (the lowest one, neither P nor P + 123); IPs are
 * compared by their lowest such P, then by address. Null when no set fits. The same input always gives
 * the same answer, so a retried job picks what the first try would have.
 */
export function pickAllocations(input: {
  layout: PortLayout;
  allocations: readonly PanelAllocation[];
  taken: ReadonlySet<number>;
}): AllocationPick | null {
  const free = input.allocations
    .filter((allocation) => !allocation.assigned && !input.taken.has(allocation.id))
    .filter((allocation) => Number.isInteger(allocation.port) && allocation.port > 0)
    .sort(byPort);
  if (input.layout === "single") {
    const first = free[0];
    if (!first) return null;
    return { ip: first.ip, defaultId: first.id, additionalIds: [], ports: { game: first.port } };
  }
  // One allocation per IP and port: the panel's own rule, and the lowest id should data disagree.
  const byIp = new Map<string, Map<number, PanelAllocation>>();
  for (const allocation of free) {
    const ports = byIp.get(allocation.ip) ?? new Map<number, PanelAllocation>();
    if (!ports.has(allocation.port)) ports.set(allocation.port, allocation);
    byIp.set(allocation.ip, ports);
  }
  let best: AllocationPick | null = null;
  for (const [ip, ports] of [...byIp].sort(([a], [b]) => compareText(a, b))) {
    const pick = mtaSetOn(ip, ports);
    if (pick && (best === null || pick.ports.game < best.ports.game)) best = pick;
  }
  return best;
}

function mtaSetOn(ip: string, ports: ReadonlyMap<number, PanelAllocation>): AllocationPick | null {
  const sorted = [...ports.values()];
  for (const game of sorted) {
    const announce = ports.get(game.port + MTA_ANNOUNCE_OFFSET);
    if (!announce) continue;
    const http = sorted.find((other) => other !== game && other !== announce);
    if (!http) continue;
    return {
      ip,
      defaultId: game.id,
      additionalIds: [announce.id, http.id],
      ports: { game: game.port, announce: announce.port, http: http.port },
    };
  }
  return null;
}

export interface NodeWithAllocations {
  node: PanelNode;
  allocations: readonly PanelAllocation[];
}

export type Placement =
  { ok: true; nodeId: number; pick: AllocationPick } | { ok: false; reason: PlacementFailure };

/**
 * The node a new server goes to, and its allocations: among the nodes of `locationIds` (or of `nodeIds`
 * when the product names nodes: both when it gives both), the least loaded first (the share of its
 * memory already promised, then the lowest id) that has room (nodeHasRoom) and a fitting set of ports
 * (pickAllocations). When none does, the first reason in this order: no node there at all, none with
 * room, none with free ports.
 */
export function pickAcrossNodes(input: {
  nodes: readonly NodeWithAllocations[];
  layout: PortLayout;
  taken: ReadonlySet<number>;
  needs: { memoryMb: number; diskMb: number };
  locationIds: readonly number[];
  nodeIds?: readonly number[];
}): Placement {
  const nodeIds = input.nodeIds ?? [];
  const candidates = input.nodes.filter(
    ({ node }) =>
      (input.locationIds.length > 0 || nodeIds.length > 0) &&
      (input.locationIds.length === 0 || input.locationIds.includes(node.locationId)) &&
      (nodeIds.length === 0 || nodeIds.includes(node.id)),
  );
  if (candidates.length === 0) return { ok: false, reason: "noNodeInLocation" };
  const withRoom = candidates
    .filter(({ node }) => nodeHasRoom(node, input.needs))
    .sort((a, b) => compareLoad(a.node, b.node));
  if (withRoom.length === 0) return { ok: false, reason: "noRoom" };
  for (const { node, allocations } of withRoom) {
    const pick = pickAllocations({
      layout: input.layout,
      allocations: allocations.filter((allocation) => allocation.nodeId === node.id),
      taken: input.taken,
    });
    if (pick) return { ok: true, nodeId: node.id, pick };
  }
  return { ok: false, reason: "noPorts" };
}

/** Least memory already promised, as a share of the node's memory (compared without division). */
function compareLoad(a: PanelNode, b: PanelNode): number {
  const left = a.allocatedMemoryMb * Math.max(b.memoryMb, 1);
  const right = b.allocatedMemoryMb * Math.max(a.memoryMb, 1);
  return left - right || a.id - b.id;
}
