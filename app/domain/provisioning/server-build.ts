import type { EggVariable } from "./egg-variables";
import { LAYOUT_PORTS } from "./placement";
import type { PterodactylProvisioning } from "./provisioning.schemas";

// What a create call sends for a product and an order: the product's limits and values, with the
// order's options (player slots, backups, DDoS protection) and MTA's ports laid over them
// (docs/provisioning.md).

// ─── The order's options on the panel ───

/** What of an order reaches the panel. `backup` is an order's stored backup id (orders.ts BACKUPS). */
export interface OrderOptions {
  playerSlots: number | null;
  backup: string;
  ddosProtection: boolean;
  location: string;
}

export interface MtaPorts {
  game: number;
  announce: number;
  http: number;
}

export type PickedPorts = { game: number } | MtaPorts;

/** The limits a create call sends, in the panel's names. */
export interface ServerBuild {
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number };
  featureLimits: { databases: number; allocations: number; backups: number };
  environment: Record<string, string>;
  /** What the order asked that the panel has no setting for, kept with the service. */
  notes: { ddosProtection: boolean };
}

/** Backups a premium backup adds to the plan's own (see serverBuildFor). */
export const PREMIUM_EXTRA_BACKUPS = 2;

/** The backups a server gets for an order's backup choice. */
export function backupLimitFor(productBackups: number, backup: string): number {
  if (backup === "none") return 0;
  // Premium is the paid choice (€2.00 a month, orders.ts): two backups more than the plan keeps, so a
  // customer who pays can go further back than one who took the free Choliba backup.
  if (backup === "premium") return Math.max(1, productBackups + PREMIUM_EXTRA_BACKUPS);
  // "choliba", the free default, and any value an old or imported order holds: at least one backup,
  // since the order asked for one.
  return Math.max(1, productBackups);
}

/**
 * The egg variables that take MTA's ports. The game port needs none on most eggs (the panel passes the
 * default allocation as SERVER_PORT) and P + 123 is derived by MTA itself; the HTTP port has no such
 * default, and a server left on MTA's own 22005 would collide with its neighbours.
 */
export function mtaEnvironment(
  ports: MtaPorts,
  variableNames: { game?: string | null; announce?: string | null; http: string | null },
): Record<string, string> {
  const pairs: [string | null | undefined, number][] = [
    [variableNames.game, ports.game],
    [variableNames.announce, ports.announce],
    [variableNames.http, ports.http],
  ];
  return Object.fromEntries(
    pairs.flatMap(([name, port]) => (name ? [[name, String(port)] as const] : [])),
  );
}

function isMtaPorts(ports: PickedPorts): ports is MtaPorts {
  return "http" in ports;
}

/**
 * What a create call sends for a product and an order: the product's limits; the environment made of
 * the egg's defaults, then the product's values, then the order's player slots (into the product's slots
 * variable, when it has one and the order has slots), then, for MTA once the ports are picked, the HTTP
 * port. Backups follow the order's choice (backupLimitFor); DDoS protection has no setting on the panel
 * (it is the network's), so it is only carried in `notes`.
 */
export function serverBuildFor(
  provisioning: PterodactylProvisioning,
  order: OrderOptions,
  context: { eggVariables?: readonly EggVariable[]; ports?: PickedPorts } = {},
): ServerBuild {
  const entries: [string, string][] = [];
  for (const variable of context.eggVariables ?? [])
    entries.push([variable.envVariable, variable.defaultValue]);
  entries.push(...Object.entries(provisioning.environment));
  if (provisioning.slotsVariable && order.playerSlots !== null)
    entries.push([provisioning.slotsVariable, String(order.playerSlots)]);
  if (provisioning.portLayout === "mta" && context.ports && isMtaPorts(context.ports))
    entries.push(
      ...Object.entries(
        mtaEnvironment(context.ports, { http: provisioning.httpPortVariable ?? null }),
      ),
    );
  return {
    limits: {
      memory: provisioning.memoryMb,
      swap: provisioning.swapMb,
      disk: provisioning.diskMb,
      io: provisioning.ioWeight,
      cpu: provisioning.cpuPercent,
    },
    featureLimits: {
      databases: provisioning.databases,
      allocations: Math.max(provisioning.allocations, LAYOUT_PORTS[provisioning.portLayout]),
      backups: backupLimitFor(provisioning.backups, order.backup),
    },
    // Later entries win: fromEntries keeps the last of a name (and never treats one as the prototype).
    environment: Object.fromEntries(entries),
    notes: { ddosProtection: order.ddosProtection },
  };
}
