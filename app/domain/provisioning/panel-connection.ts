import type { EggVariable, PanelNode } from "./provisioning";

// The game panel's connection as pages read it: safe in the browser, no key in it.

export type LocationMap = Record<string, number[]>;

export interface PanelConnectionView {
  url: string;
  keyLast4: string;
  /**
   * The last four characters of the saved Client API key (a root admin's, which the worker reads servers'
   * states and sends their power signals with), null when none is saved: it is optional.
   */
  clientKeyLast4: string | null;
  /** The order form's location → the panel's location ids. */
  locationMap: LocationMap;
  updatedAt: string;
}

export interface SnapshotLocation {
  id: number;
  short: string;
  long: string | null;
}

/** A node as the last check read it: the room the order form counts, and its name for the admin. */
export interface SnapshotNode extends PanelNode {
  name: string;
}

export type SnapshotEggVariable = EggVariable;

export interface SnapshotEgg {
  id: number;
  nestId: number;
  name: string;
  dockerImage: string;
  /** Label → image, as the panel lists them (absent from a snapshot taken before it was kept). */
  dockerImages?: Record<string, string>;
  startup: string;
  variables: SnapshotEggVariable[];
}

/** What the panel had at the last check: the admin's pages and the order form read it. */
export interface PanelSnapshot {
  locations: SnapshotLocation[];
  nodes: SnapshotNode[];
  nests: { id: number; name: string; eggs: SnapshotEgg[] }[];
}

export interface PanelCheckView {
  snapshot: PanelSnapshot | null;
  checkedAt: string | null;
  /** Why the last check failed: a catalogue key and the panel's words. */
  error: { key: string; detail: string | null } | null;
  /** A check was asked for and has not run yet. */
  pending: boolean;
}

/** A location map read back from JSON: anything but lists of whole positive ids is left out. */
export function parseLocationMap(text: string): LocationMap {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== "object" || Array.isArray(value)) return {};
    const map: LocationMap = {};
    for (const [key, ids] of Object.entries(value)) {
      if (!Array.isArray(ids)) continue;
      const kept = ids.filter((id): id is number => Number.isInteger(id) && id > 0);
      if (kept.length > 0) map[key] = kept;
    }
    return map;
  } catch {
    return {};
  }
}

export function parseSnapshot(text: string | null): PanelSnapshot | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<PanelSnapshot> | null;
    if (!value || !Array.isArray(value.locations) || !Array.isArray(value.nodes)) return null;
    return { locations: value.locations, nodes: value.nodes, nests: value.nests ?? [] };
  } catch {
    return null;
  }
}

/** A stored failure ("key|detail") split for the page. */
export function parseFailure(text: string | null): { key: string; detail: string | null } | null {
  if (!text) return null;
  const at = text.indexOf("|");
  return at < 0
    ? { key: text, detail: null }
    : { key: text.slice(0, at), detail: text.slice(at + 1) || null };
}
