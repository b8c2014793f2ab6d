import { labelKeys } from "~/lib/label-keys";

// What a service is to become on the panel, fixed at approval (docs/provisioning.md): the
// product's block and the build computed from the order's options. Kept as JSON on the service, so an
// admin editing the product later changes no server being made or remade.

export interface PanelPorts {
  game: number;
  announce?: number;
  http?: number;
}

export interface PanelPlan {
  eggId: number;
  dockerImage: string;
  startup: string;
  portLayout: "single" | "mta";
  /** The egg variable the MTA HTTP port is written to (mta only). */
  httpPortVariable: string | null;
  /** The panel's locations the server may be placed in, and optionally the only nodes. */
  locationIds: number[];
  nodeIds: number[];
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number };
  featureLimits: { databases: number; allocations: number; backups: number };
  environment: Record<string, string>;
  /** Egg variables given a fresh random value at each create (never stored): an RCON password. */
  generatedVariables: string[];
  /** The service's name on the panel. */
  name: string;
  /** Recorded, not applied: what the order asked that the panel has no setting for (DDoS protection). */
  notes: { ddosProtection: boolean };
}

/** The plan read back, or null when the JSON is not one (a hand-edited row): the job then fails visibly. */
export function parsePanelPlan(text: string | null): PanelPlan | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<PanelPlan> | null;
    if (
      !value ||
      typeof value.eggId !== "number" ||
      typeof value.dockerImage !== "string" ||
      typeof value.startup !== "string" ||
      (value.portLayout !== "single" && value.portLayout !== "mta") ||
      !Array.isArray(value.locationIds) ||
      !value.limits ||
      !value.featureLimits ||
      !value.environment
    )
      return null;
    return {
      httpPortVariable: null,
      nodeIds: [],
      generatedVariables: [],
      name: "",
      notes: { ddosProtection: false },
      ...value,
    } as PanelPlan;
  } catch {
    return null;
  }
}

/** Ports read back from JSON, or null. */
export function parsePanelPorts(text: string | null): PanelPorts | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<PanelPorts> | null;
    if (!value || typeof value.game !== "number") return null;
    return {
      game: value.game,
      ...(typeof value.announce === "number" ? { announce: value.announce } : {}),
      ...(typeof value.http === "number" ? { http: value.http } : {}),
    };
  } catch {
    return null;
  }
}

/** The panel's external ids of ours: a retry finds what an earlier attempt made. */
export function serviceExternalId(serviceId: number): string {
  return `hf-svc-${serviceId}`;
}

export function userExternalId(userId: string): string {
  return `hf-user-${userId}`;
}

/** The service id of one of our external ids, or null for a server someone else made. */
export function serviceIdOfExternal(externalId: string | null): number | null {
  const match = /^hf-svc-(\d+)$/.exec(externalId ?? "");
  return match ? Number(match[1]) : null;
}

/** A service's place on the panel, as the customer's and the admin's pages show it. */
export interface ServicePanel {
  /** One of PANEL_STATES (provisioning.ts). */
  state: string;
  /** "ip:port" of the game port, once the server exists. */
  address: string | null;
  ports: PanelPorts | null;
  /** The panel's page of the server, when it exists and a panel is connected. */
  link: string | null;
}

/** Reads a service row's panel columns; null for a service no panel knows. */
export function servicePanelOf(
  row: {
    panel_state?: string | null;
    panel_address?: string | null;
    panel_ports?: string | null;
    panel_identifier?: string | null;
  },
  panelUrl: string | null,
): ServicePanel | null {
  if (!row.panel_state) return null;
  return {
    state: row.panel_state,
    address: row.panel_address ?? null,
    ports: parsePanelPorts(row.panel_ports ?? null),
    link: panelServerLink(panelUrl, row.panel_identifier ?? null),
  };
}

/** The panel's page of a server (its identifier), where its owner manages it; null without either. */
export function panelServerLink(panelUrl: string | null, identifier: string | null): string | null {
  if (!panelUrl || !identifier) return null;
  return `${panelUrl.replace(/\/+$/, "")}/server/${encodeURIComponent(identifier)}`;
}

/** One call made to the panel, as the service's log shows it. */
export interface PanelCallView {
  id: number;
  method: string;
  path: string;
  status: number | null;
  durationMs: number;
  errorCode: string | null;
  at: string;
}

/**
 * Whether the panel's side agrees with the service's status (a service whose panel state does not match
 * ours is shown as such to admins). A state a job is still moving counts as agreeing: the
 * panel catches up through the job.
 */
export function panelInStep(status: string, panelState: string): boolean {
  if (["pending", "creating", "installing"].includes(panelState)) return true;
  if (status === "active") return panelState === "ready";
  if (status === "suspended") return panelState === "suspended";
  return panelState === "deleted";
}

export const DRIFT_KINDS = ["missing", "extra", "suspended_here", "suspended_there"] as const;
export type DriftKind = (typeof DRIFT_KINDS)[number];

/** One difference the nightly reconciliation found between our services and the panel's servers. */
export interface PanelDriftView {
  id: number;
  kind: DriftKind;
  serviceId: number | null;
  panelServerId: number | null;
  foundAt: string;
}

/** Each difference's words: catalogue keys (admin namespace), one family (docs/i18n.md, ADR 26). */
export const DRIFT_LABELS = labelKeys("admin", "automation.drift.kinds", DRIFT_KINDS);

/** A panel state's badge colour. */
export function panelStateTone(state: string): "green" | "yellow" | "red" | "blue" | "grey" {
  if (state === "ready") return "green";
  if (state === "failed") return "red";
  if (state === "suspended") return "yellow";
  if (state === "deleted") return "grey";
  return "blue";
}
