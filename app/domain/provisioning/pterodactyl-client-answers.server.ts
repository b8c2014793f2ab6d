import {
  flag,
  int,
  isRecord,
  record,
  ShapeError,
  text,
  textOrNull,
  type Attributes,
} from "./pterodactyl-answers.server";

// Reading the Client API's answers (app/Transformers/Api/Client/*, wrapped by PterodactylSerializer):
// the server as its user sees it, what Wings says it uses, and the egg variables its user may see. Each is
// read field by field, so that an answer of another shape is an error and not a wrong value.

/** Wings' power states, as the panel passes them on (`current_state`). */
export type PanelPowerState = "offline" | "starting" | "running" | "stopping";
export type PanelPowerSignal = "start" | "stop" | "restart" | "kill";

const POWER_STATES: readonly PanelPowerState[] = ["offline", "starting", "running", "stopping"];
export const PANEL_POWER_SIGNALS: readonly PanelPowerSignal[] = [
  "start",
  "stop",
  "restart",
  "kill",
];

/** GET /api/client/servers/{identifier}/resources (StatsTransformer). */
export interface PanelResources {
  state: PanelPowerState;
  suspended: boolean;
  /** Percent of one core: 250 is two and a half cores busy. */
  cpuAbsolute: number;
  memoryBytes: number;
  diskBytes: number;
  uptimeMs: number;
}

/** GET /api/client/servers/{identifier} (the Client API's ServerTransformer). */
export interface PanelClientServer {
  /** The short identifier (8 characters) of the panel's links. */
  identifier: string;
  uuid: string;
  internalId: number;
  name: string;
  /** Where SFTP answers: the node's address and Wings' SFTP port. */
  sftp: { host: string; port: number };
  suspended: boolean;
  installing: boolean;
  limits: { memory: number; disk: number; cpu: number };
}

/** An egg variable its user may see, with this server's value (EggVariableTransformer). */
export interface PanelStartupVariable {
  name: string;
  description: string;
  envVariable: string;
  defaultValue: string;
  /** The server's own value; "" when it has none (the panel gives null). */
  serverValue: string;
  editable: boolean;
  /** Laravel rules, e.g. `required|string|max:32`. */
  rules: string;
}

/** A count the panel passes on from Wings: a number, never negative (a fraction for the CPU). */
function amount(attributes: Attributes, key: string): number {
  const value = attributes[key];
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    throw new ShapeError(`"${key}" is not a count in the panel's answer`);
  }
  return value;
}

export function readResources(a: Attributes): PanelResources {
  const state = a.current_state;
  // StatsTransformer's own default when Wings gives no state: the server is not running.
  const power = state === "stopped" ? "offline" : state;
  if (!POWER_STATES.includes(power as PanelPowerState)) {
    throw new ShapeError(`unknown power state "${String(state)}"`);
  }
  const resources = record(a, "resources");
  return {
    state: power as PanelPowerState,
    suspended: flag(a, "is_suspended"),
    cpuAbsolute: amount(resources, "cpu_absolute"),
    memoryBytes: amount(resources, "memory_bytes"),
    diskBytes: amount(resources, "disk_bytes"),
    uptimeMs: amount(resources, "uptime"),
  };
}

export function readClientServer(a: Attributes): PanelClientServer {
  const sftp = record(a, "sftp_details");
  const limits = record(a, "limits");
  return {
    identifier: text(a, "identifier"),
    uuid: text(a, "uuid"),
    internalId: int(a, "internal_id"),
    name: text(a, "name"),
    sftp: { host: text(sftp, "ip"), port: int(sftp, "port") },
    suspended: flag(a, "is_suspended"),
    installing: flag(a, "is_installing"),
    limits: { memory: int(limits, "memory"), disk: int(limits, "disk"), cpu: int(limits, "cpu") },
  };
}

export function readStartupVariable(a: Attributes): PanelStartupVariable {
  return {
    name: text(a, "name"),
    description: textOrNull(a, "description") ?? "",
    envVariable: text(a, "env_variable"),
    defaultValue: textOrNull(a, "default_value") ?? "",
    serverValue: textOrNull(a, "server_value") ?? "",
    editable: flag(a, "is_editable"),
    rules: text(a, "rules"),
  };
}

/** The items of an unpaginated list (`{"object": "list", "data": [...]}`), as the startup's. */
export function listItems(answer: unknown): unknown[] {
  if (!isRecord(answer) || answer.object !== "list" || !Array.isArray(answer.data)) {
    throw new ShapeError("The answer is not a list");
  }
  return answer.data;
}
