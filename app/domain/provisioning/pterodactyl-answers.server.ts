import type { SnapshotNode } from "./panel-connection";
import type { EggVariable } from "./provisioning";

// Reading the answers (app/Transformers/Api/Application/*, wrapped by PterodactylSerializer): the
// panel's objects as the client gives them, and the readers that take each one field by field from
// the JSON, so that an answer of another shape is an error and not a wrong value.

export interface PanelLocation {
  id: number;
  short: string;
  long: string | null;
}

/** A node as the panel lists it: what the last check keeps, and the host its servers answer on. */
export interface PanelNode extends SnapshotNode {
  fqdn: string;
}

export interface PanelAllocation {
  id: number;
  nodeId: number;
  ip: string;
  alias: string | null;
  port: number;
  assigned: boolean;
}

export interface PanelNest {
  id: number;
  name: string;
}

export interface PanelEggVariable extends EggVariable {
  description: string;
}

export interface PanelEgg {
  id: number;
  nestId: number;
  name: string;
  /** The first of `dockerImages` (the panel's deprecated `docker_image`). */
  dockerImage: string;
  /** Label → image. */
  dockerImages: Record<string, string>;
  startup: string;
  variables: PanelEggVariable[];
}

export interface PanelUser {
  id: number;
  externalId: string | null;
  email: string;
  username: string;
  firstName: string;
  lastName: string;
}

export type PanelServerStatus =
  null | "installing" | "install_failed" | "reinstall_failed" | "suspended" | "restoring_backup";

const SERVER_STATUSES: readonly PanelServerStatus[] = [
  null,
  "installing",
  "install_failed",
  "reinstall_failed",
  "suspended",
  "restoring_backup",
];

export interface PanelServer {
  id: number;
  externalId: string | null;
  /** The short identifier of the panel's links (`/server/<identifier>`). */
  identifier: string;
  uuid: string;
  name: string;
  description: string;
  userId: number;
  nodeId: number;
  /** The default allocation. */
  allocationId: number;
  suspended: boolean;
  status: PanelServerStatus;
  limits: { memory: number; swap: number; disk: number; io: number; cpu: number };
  featureLimits: { databases: number; allocations: number; backups: number };
  nestId: number;
  eggId: number;
  startup: string;
  image: string;
  /** The egg's variables with their values, and the panel's own (STARTUP, P_SERVER_UUID...). */
  environment: Record<string, string>;
}

/**
 * A server with the allocations it holds, read with `include=allocations`. The node's own listing says
 * only whether an allocation is assigned, not to which server, so where a server answers is read here.
 */
export interface PanelServerWithAllocations extends PanelServer {
  allocations: PanelAllocation[];
}

// ---------------------------------------------------------------------------------------------------
// Reading them, field by field

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export type Attributes = Record<string, unknown>;

/** An answer that is not what the panel's transformers give; `request` turns it into a PanelError. */
export class ShapeError extends Error {}

/** `{"object": "...", "attributes": {...}}` → the attributes. */
export function attributesOf(item: unknown): Attributes {
  if (!isRecord(item) || !isRecord(item.attributes)) {
    throw new ShapeError("an item of the answer has no attributes");
  }
  return item.attributes;
}

/** `{"object": "list", "data": [...], "meta": {"pagination": {...}}}`; eggs come without meta. */
export function asList(answer: unknown) {
  if (!isRecord(answer) || !Array.isArray(answer.data)) {
    throw new ShapeError("The answer is not a list");
  }
  const pagination = isRecord(answer.meta) ? answer.meta.pagination : undefined;
  const totalPages = isRecord(pagination) ? Number(pagination.total_pages) : NaN;
  return { data: answer.data, totalPages: Number.isFinite(totalPages) ? totalPages : null };
}

function field(attributes: Attributes, key: string): unknown {
  return attributes[key];
}

export function int(attributes: Attributes, key: string): number {
  const value = field(attributes, key);
  const number = typeof value === "string" && /^-?\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number)) {
    throw new ShapeError(`"${key}" is not a whole number in the panel's answer`);
  }
  return number;
}

/** A limit the panel may leave null (no databases, no extra allocations): null counts as 0. */
function intOrZero(attributes: Attributes, key: string): number {
  return field(attributes, key) === null || field(attributes, key) === undefined
    ? 0
    : int(attributes, key);
}

export function text(attributes: Attributes, key: string): string {
  const value = field(attributes, key);
  if (typeof value !== "string") {
    throw new ShapeError(`"${key}" is not a text in the panel's answer`);
  }
  return value;
}

export function textOrNull(attributes: Attributes, key: string): string | null {
  const value = field(attributes, key);
  return value === null || value === undefined ? null : text(attributes, key);
}

export function flag(attributes: Attributes, key: string): boolean {
  const value = field(attributes, key);
  if (typeof value === "boolean") return value;
  if (value === 0 || value === 1) return value === 1;
  throw new ShapeError(`"${key}" is not true or false in the panel's answer`);
}

export function record(attributes: Attributes, key: string): Attributes {
  const value = field(attributes, key);
  if (!isRecord(value)) throw new ShapeError(`"${key}" is missing in the panel's answer`);
  return value;
}

export function readLocation(a: Attributes): PanelLocation {
  return { id: int(a, "id"), short: text(a, "short"), long: textOrNull(a, "long") };
}

export function readNode(a: Attributes): PanelNode {
  const allocated = record(a, "allocated_resources");
  return {
    id: int(a, "id"),
    name: text(a, "name"),
    locationId: int(a, "location_id"),
    fqdn: text(a, "fqdn"),
    memoryMb: int(a, "memory"),
    memoryOverallocate: intOrZero(a, "memory_overallocate"),
    diskMb: int(a, "disk"),
    diskOverallocate: intOrZero(a, "disk_overallocate"),
    allocatedMemoryMb: intOrZero(allocated, "memory"),
    allocatedDiskMb: intOrZero(allocated, "disk"),
    maintenance: flag(a, "maintenance_mode"),
  };
}

export function readAllocation(a: Attributes, nodeId: number): PanelAllocation {
  return {
    id: int(a, "id"),
    nodeId,
    ip: text(a, "ip"),
    alias: textOrNull(a, "alias"),
    port: int(a, "port"),
    assigned: flag(a, "assigned"),
  };
}

export function readNest(a: Attributes): PanelNest {
  return { id: int(a, "id"), name: text(a, "name") };
}

export function readEgg(a: Attributes): PanelEgg {
  const relationships = field(a, "relationships");
  const variables = isRecord(relationships) ? relationships.variables : undefined;
  if (!isRecord(variables) || !Array.isArray(variables.data)) {
    throw new ShapeError(`the egg ${String(a.id)} came without its variables`);
  }
  const images = record(a, "docker_images");
  const dockerImages: Record<string, string> = {};
  for (const [label, image] of Object.entries(images)) {
    if (typeof image === "string") dockerImages[label] = image;
  }
  return {
    id: int(a, "id"),
    nestId: int(a, "nest"),
    name: text(a, "name"),
    dockerImage: textOrNull(a, "docker_image") ?? Object.values(dockerImages)[0] ?? "",
    dockerImages,
    startup: text(a, "startup"),
    variables: variables.data.map((item) => {
      const v = attributesOf(item);
      return {
        name: text(v, "name"),
        envVariable: text(v, "env_variable"),
        defaultValue: textOrNull(v, "default_value") ?? "",
        rules: text(v, "rules"),
        userEditable: flag(v, "user_editable"),
        description: textOrNull(v, "description") ?? "",
      };
    }),
  };
}

export function readUser(a: Attributes): PanelUser {
  return {
    id: int(a, "id"),
    externalId: textOrNull(a, "external_id"),
    email: text(a, "email"),
    username: text(a, "username"),
    firstName: textOrNull(a, "first_name") ?? "",
    lastName: textOrNull(a, "last_name") ?? "",
  };
}

export function readServerWithAllocations(a: Attributes): PanelServerWithAllocations {
  const server = readServer(a);
  const relationships = field(a, "relationships");
  const allocations = isRecord(relationships) ? relationships.allocations : undefined;
  if (!isRecord(allocations) || !Array.isArray(allocations.data)) {
    throw new ShapeError(`the server ${server.id} came without its allocations`);
  }
  return {
    ...server,
    allocations: allocations.data.map((item) => readAllocation(attributesOf(item), server.nodeId)),
  };
}

export function readServer(a: Attributes): PanelServer {
  const status = field(a, "status");
  if (!SERVER_STATUSES.includes(status as PanelServerStatus)) {
    throw new ShapeError(`unknown server status "${String(status)}"`);
  }
  const limits = record(a, "limits");
  const featureLimits = record(a, "feature_limits");
  const container = record(a, "container");
  const environment: Record<string, string> = {};
  for (const [key, value] of Object.entries(record(container, "environment"))) {
    environment[key] = value === null || value === undefined ? "" : String(value);
  }
  return {
    id: int(a, "id"),
    externalId: textOrNull(a, "external_id"),
    identifier: text(a, "identifier"),
    uuid: text(a, "uuid"),
    name: text(a, "name"),
    description: textOrNull(a, "description") ?? "",
    userId: int(a, "user"),
    nodeId: int(a, "node"),
    allocationId: int(a, "allocation"),
    suspended: flag(a, "suspended"),
    status: status as PanelServerStatus,
    limits: {
      memory: int(limits, "memory"),
      swap: int(limits, "swap"),
      disk: int(limits, "disk"),
      io: int(limits, "io"),
      cpu: int(limits, "cpu"),
    },
    featureLimits: {
      databases: intOrZero(featureLimits, "databases"),
      allocations: intOrZero(featureLimits, "allocations"),
      backups: intOrZero(featureLimits, "backups"),
    },
    nestId: int(a, "nest"),
    eggId: int(a, "egg"),
    startup: text(container, "startup_command"),
    image: text(container, "image"),
    environment,
  };
}
