import { labelKeys } from "~/lib/label-keys";
import { PHP_REGEX_MAX_SUBJECT, phpRegex } from "./php-regex";
import type { PterodactylProvisioning } from "./provisioning.schemas";

export type {
  ProductProvisioning,
  PterodactylProvisioning,
  StoredProvisioning,
} from "./provisioning.schemas";

// Provisioning on a Pterodactyl panel: the pure rules. What a product asks of the panel, how
// the order's options change it, where a server may go and which ports it gets (docs/provisioning.md).
// Messages are catalogue keys ("admin-catalogue.…", "services.…").

/**
 * How a product's servers come to be: by hand (as all were before the game panel) or on the Pterodactyl
 * panel.
 */
export const PROVISIONERS = ["none", "pterodactyl"] as const;
export type Provisioner = (typeof PROVISIONERS)[number];

/**
 * The ports a product's server takes: one (SA-MP, open.mp and most games), or MTA's three on one IP:
 * the game port P, P + 123 (where MTA answers the server list, fixed by MTA itself) and an HTTP port H.
 */
export const PORT_LAYOUTS = ["single", "mta"] as const;
export type PortLayout = (typeof PORT_LAYOUTS)[number];
export const MTA_ANNOUNCE_OFFSET = 123;
/** The allocations a layout takes at creation, the least a product of it may allow. */
export const LAYOUT_PORTS = { single: 1, mta: 3 } as const satisfies Record<PortLayout, number>;

/** Where a service stands on the panel, as the lead's jobs store it on the hosting service. */
export const PANEL_STATES = [
  "pending",
  "creating",
  "installing",
  "ready",
  "failed",
  "suspended",
  "deleted",
] as const;
export type PanelState = (typeof PANEL_STATES)[number];

/** Why no node could take a server (placement, below). */
export const PLACEMENT_FAILURES = ["noNodeInLocation", "noRoom", "noPorts"] as const;
export type PlacementFailure = (typeof PLACEMENT_FAILURES)[number];

// Catalogue keys, one family a set of values (docs/i18n.md, ADR 26).
export const PROVISIONER_LABELS = labelKeys(
  "admin-catalogue",
  "products.provisioning.provisioners",
  PROVISIONERS,
);
export const PORT_LAYOUT_LABELS = labelKeys(
  "admin-catalogue",
  "products.provisioning.layouts",
  PORT_LAYOUTS,
);
/** Shown to admins and customers alike, so in the services namespace both read. */
export const PANEL_STATE_LABELS = labelKeys("services", "panelStates", PANEL_STATES);
export const PLACEMENT_FAILURE_LABELS = labelKeys(
  "services",
  "placementFailures",
  PLACEMENT_FAILURES,
);

/** A stored provisioning block that no longer reads: the product is provisioned by hand meanwhile. */
export const PROVISIONING_UNREADABLE = "admin-catalogue.products.provisioning.unreadable";

// Typo guards of the product form, not business limits; the panel's own rules where it has one.
export const PROVISIONING_LIMITS = {
  memoryMb: { min: 1, max: 1_048_576 },
  // -1: unlimited swap (the panel's "min:-1").
  swapMb: { min: -1, max: 1_048_576 },
  diskMb: { min: 1, max: 16_777_216 },
  // 100 is one core; 0: unlimited.
  cpuPercent: { min: 0, max: 25_600 },
  // The panel's "between:10,1000".
  ioWeight: { min: 10, max: 1000 },
  databases: { min: 0, max: 1000 },
  backups: { min: 0, max: 1000 },
  allocations: { min: 1, max: 100 },
} as const;
export type ProvisioningNumberField = keyof typeof PROVISIONING_LIMITS;
/** The panel's default IO weight, for a form that leaves it empty. */
export const DEFAULT_IO_WEIGHT = 500;
/** The panel's "image" rule: a string of at most 191 characters. */
export const MAX_DOCKER_IMAGE_LENGTH = 191;
export const MAX_STARTUP_LENGTH = 4000;
export const MAX_ENV_VALUE_LENGTH = 2000;
export const MAX_PANEL_IDS = 50;
/** The panel's rule for an egg variable's name ("regex:/^[\w]{1,191}$/"). */
export const ENV_VARIABLE_PATTERN = /^\w{1,191}$/;
/** The product form's field of an egg variable's value: "env.SERVER_JARFILE". */
export const ENV_FIELD_PREFIX = "env.";

export function envFieldName(envVariable: string): string {
  return `${ENV_FIELD_PREFIX}${envVariable}`;
}

/** A name the panel takes for a variable, and one that is safe as a key of our own records. */
export function isEnvVariableName(name: string): boolean {
  return ENV_VARIABLE_PATTERN.test(name) && name !== "__proto__";
}

// ─── Values made for each server ───

/**
 * The product form's switch that makes a variable's value anew for each server: "generate.RCON_PASS".
 * A product's own values are the same for every server it makes; an RCON or admin password shared by
 * every customer of a plan would let each of them into the others' servers (their addresses are public
 * on the server lists), so such a variable takes a fresh random value at each create instead.
 */
export const GENERATE_FIELD_PREFIX = "generate.";

export function generateFieldName(envVariable: string): string {
  return `${GENERATE_FIELD_PREFIX}${envVariable}`;
}

/** What a generated value is made of: letters and digits, which every string rule we know takes. */
export const GENERATED_VALUE_ALPHABET =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
export const GENERATED_VALUE_LENGTH = 16;
/**
 * A value of the generated kind, to check an egg's rules against before a product is saved: a real
 * one is random, so rules are checked on one that has every class of character a real one may have.
 */
export const GENERATED_VALUE_SAMPLE = "Hf7kQ2mZ9xLp4RtB";

/** Egg variables whose switch starts on when an egg is chosen: remote-admin passwords. */
const SECRET_VARIABLE = /RCON|ADMIN_?PASS/i;

export function isSecretVariable(envVariable: string): boolean {
  return SECRET_VARIABLE.test(envVariable);
}

/**
 * A fresh value for each generated variable, drawn with `randomIndex(n)` (an integer in [0, n): the
 * server's crypto.randomInt), without modulo bias since the alphabet's length is the bound.
 */
export function generatedEnvironment(
  names: readonly string[],
  randomIndex: (bound: number) => number,
): Record<string, string> {
  return Object.fromEntries(
    names.map((name) => {
      let value = "";
      for (let index = 0; index < GENERATED_VALUE_LENGTH; index++)
        value += GENERATED_VALUE_ALPHABET[randomIndex(GENERATED_VALUE_ALPHABET.length)];
      return [name, value];
    }),
  );
}

/** Whether a variable's rules take a generated value, so its switch is worth offering. */
export function acceptsGeneratedValue(variable: EggVariable): boolean {
  return validateEggVariables([variable], { [variable.envVariable]: GENERATED_VALUE_SAMPLE }).ok;
}

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

export interface EggVariable {
  name: string;
  envVariable: string;
  defaultValue: string;
  /** Laravel's validation rules, "|"-separated: "required|string|max:20". */
  rules: string;
  userEditable: boolean;
}

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

// ─── The egg's rules for its variables ───

/** The rules checked here; any other is the panel's alone, reported as unchecked. */
export const EGG_RULES = [
  "required",
  "nullable",
  "sometimes",
  "bail",
  "string",
  "integer",
  "numeric",
  "boolean",
  "min",
  "max",
  "between",
  "in",
  "regex",
  "digits",
  "digits_between",
  "alpha_num",
  "alpha_dash",
  "url",
] as const;

/** Why a value breaks an egg's rule, with the values its text takes. */
export const EGG_RULE_MESSAGES = {
  required: "admin-catalogue.products.provisioning.rules.required",
  string: "admin-catalogue.products.provisioning.rules.string",
  integer: "admin-catalogue.products.provisioning.rules.integer",
  numeric: "admin-catalogue.products.provisioning.rules.numeric",
  boolean: "admin-catalogue.products.provisioning.rules.boolean",
  minNumber: "admin-catalogue.products.provisioning.rules.minNumber",
  minLength: "admin-catalogue.products.provisioning.rules.minLength",
  maxNumber: "admin-catalogue.products.provisioning.rules.maxNumber",
  maxLength: "admin-catalogue.products.provisioning.rules.maxLength",
  betweenNumber: "admin-catalogue.products.provisioning.rules.betweenNumber",
  betweenLength: "admin-catalogue.products.provisioning.rules.betweenLength",
  in: "admin-catalogue.products.provisioning.rules.in",
  regex: "admin-catalogue.products.provisioning.rules.regex",
  regexBroken: "admin-catalogue.products.provisioning.rules.regexBroken",
  digits: "admin-catalogue.products.provisioning.rules.digits",
  digitsBetween: "admin-catalogue.products.provisioning.rules.digitsBetween",
  alphaNum: "admin-catalogue.products.provisioning.rules.alphaNum",
  alphaDash: "admin-catalogue.products.provisioning.rules.alphaDash",
  url: "admin-catalogue.products.provisioning.rules.url",
} as const;
export type EggRuleMessage = (typeof EGG_RULE_MESSAGES)[keyof typeof EGG_RULE_MESSAGES];
/** The note beside a rule checked by the panel only: "{{variable}}: the panel also checks {{rule}}". */
export const EGG_RULE_UNCHECKED = "admin-catalogue.products.provisioning.rules.unchecked";

export interface EggVariableError {
  envVariable: string;
  /** The rule as the egg writes it, lower case ("max", "regex"). */
  rule: string;
  message: EggRuleMessage;
  values: Record<string, string | number>;
}

export interface UncheckedEggRule {
  envVariable: string;
  /** The rule as the egg writes it, parameters included ("required_if:X,1", a regex we cannot run). */
  rule: string;
}

interface ParsedRule {
  /** Laravel's reading of the name: "digits_between", "DigitsBetween" and "digits-between" are one. */
  key: string;
  name: string;
  parameters: string[];
  raw: string;
}

/**
 * An egg's rules as Laravel reads a rules string: split at every "|" (a "|" inside a regex splits it
 * too, and the panel then fails on that variable), each "name:parameters", parameters comma-separated
 * as CSV but a regex's, which is whole.
 */
function parseRules(rules: string): ParsedRule[] {
  const parsed: ParsedRule[] = [];
  for (const raw of rules.split("|")) {
    const colon = raw.indexOf(":");
    const name = (colon === -1 ? raw : raw.slice(0, colon)).trim();
    if (name === "") continue;
    const key = name.replace(/[-_\s]/g, "").toLowerCase();
    const rest = colon === -1 ? null : raw.slice(colon + 1);
    const parameters =
      rest === null ? [] : key === "regex" || key === "notregex" ? [rest] : csvFields(rest);
    parsed.push({ key, name: name.toLowerCase(), parameters, raw });
  }
  return parsed;
}

/** PHP's str_getcsv, enough for rule parameters: commas, double quotes, "" for a quote. */
function csvFields(text: string): string[] {
  const fields: string[] = [];
  let field = "";
  let quoted = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"';
        at++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field.trim() === "") {
      quoted = true;
      field = "";
    } else if (char === ",") {
      fields.push(field);
      field = "";
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/** PHP 8's is_numeric: optional white space around, a sign, digits with a point, an exponent. */
function isNumeric(value: string): boolean {
  return /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?[ \t\n\r\v\f]*$/.test(value);
}

/** PHP's FILTER_VALIDATE_INT: an optional sign, no leading zero, within 64 bits. */
function isInteger(value: string): boolean {
  const trimmed = value.trim();
  if (!/^[+-]?(0|[1-9]\d*)$/.test(trimmed)) return false;
  const number = BigInt(trimmed);
  return number >= -(2n ** 63n) && number <= 2n ** 63n - 1n;
}

/** PHP 8's == between two strings: numerically when both are numeric, else exactly. */
function looselyEqual(a: string, b: string): boolean {
  if (isNumeric(a) && isNumeric(b)) return Number(a) === Number(b);
  return a === b;
}

/**
 * Laravel's size of a value: the number itself under a numeric rule (numeric, integer) when it is one,
 * else its length in characters (mb_strlen); null counts as empty.
 */
function sizeOf(value: string | null, numericRule: boolean): { size: number; numeric: boolean } {
  if (value !== null && numericRule && isNumeric(value))
    return { size: Number(value), numeric: true };
  return { size: [...(value ?? "")].length, numeric: false };
}

/** A rule's numeric parameter as Laravel trims and compares it, or null when it is none. */
function numberParameter(parameter: string | undefined): number | null {
  if (parameter === undefined || !isNumeric(parameter)) return null;
  return Number(parameter.trim());
}

/** Laravel's url rule, near enough: a scheme, "://", a host, no white space; the panel has the last word. */
function isUrl(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#]+([/?#]\S*)?$/.test(value)) return false;
  try {
    return new URL(value).host !== "";
  } catch {
    return false;
  }
}

type RuleOutcome =
  | { pass: true }
  | { pass: false; message: EggRuleMessage; values?: Record<string, string | number> }
  | { unchecked: true };

const PASS = { pass: true } as const;
const UNCHECKED = { unchecked: true } as const;

function fail(message: EggRuleMessage, values?: Record<string, string | number>): RuleOutcome {
  return values ? { pass: false, message, values } : { pass: false, message };
}

/** One rule on one value as Laravel's validator (10.x) decides it; null is an empty value. */
function checkRule(rule: ParsedRule, value: string | null, numericRule: boolean): RuleOutcome {
  const [first, second] = rule.parameters;
  switch (rule.key) {
    case "required":
      return value === null ? fail(EGG_RULE_MESSAGES.required) : PASS;
    case "nullable":
    case "sometimes":
    case "bail":
      return PASS;
    case "string":
      return value === null ? fail(EGG_RULE_MESSAGES.string) : PASS;
    case "integer":
      return value !== null && isInteger(value) ? PASS : fail(EGG_RULE_MESSAGES.integer);
    case "numeric":
      return value !== null && isNumeric(value) ? PASS : fail(EGG_RULE_MESSAGES.numeric);
    case "boolean":
      // Laravel takes true, false, 0, 1, "0" and "1": a text "true" is refused.
      return value === "0" || value === "1" ? PASS : fail(EGG_RULE_MESSAGES.boolean);
    case "min":
    case "max":
    case "between": {
      const low = rule.key === "max" ? null : numberParameter(first);
      const high = rule.key === "min" ? null : numberParameter(rule.key === "max" ? first : second);
      if ((rule.key !== "max" && low === null) || (rule.key !== "min" && high === null))
        return UNCHECKED;
      const { size, numeric } = sizeOf(value, numericRule);
      if ((low === null || size >= low) && (high === null || size <= high)) return PASS;
      if (rule.key === "min")
        return fail(numeric ? EGG_RULE_MESSAGES.minNumber : EGG_RULE_MESSAGES.minLength, {
          min: low!,
        });
      if (rule.key === "max")
        return fail(numeric ? EGG_RULE_MESSAGES.maxNumber : EGG_RULE_MESSAGES.maxLength, {
          max: high!,
        });
      return fail(numeric ? EGG_RULE_MESSAGES.betweenNumber : EGG_RULE_MESSAGES.betweenLength, {
        min: low!,
        max: high!,
      });
    }
    case "in": {
      const text = value ?? "";
      return rule.parameters.some((allowed) => looselyEqual(text, allowed))
        ? PASS
        : fail(EGG_RULE_MESSAGES.in, { values: rule.parameters.join(", ") });
    }
    case "digits": {
      const digits = numberParameter(first);
      if (digits === null) return UNCHECKED;
      const text = value ?? "";
      return /^[0-9]*$/.test(text) && text.length === digits
        ? PASS
        : fail(EGG_RULE_MESSAGES.digits, { digits });
    }
    case "digitsbetween": {
      const low = numberParameter(first);
      const high = numberParameter(second);
      if (low === null || high === null) return UNCHECKED;
      const text = value ?? "";
      return /^[0-9]*$/.test(text) && text.length >= low && text.length <= high
        ? PASS
        : fail(EGG_RULE_MESSAGES.digitsBetween, { min: low, max: high });
    }
    case "alphanum":
    case "alphadash": {
      const ascii = first === "ascii";
      const dash = rule.key === "alphadash";
      const pattern = ascii
        ? dash
          ? /^[a-zA-Z0-9_-]+$/
          : /^[a-zA-Z0-9]+$/
        : dash
          ? /^[\p{L}\p{M}\p{N}_-]+$/u
          : /^[\p{L}\p{M}\p{N}]+$/u;
      if (value !== null && pattern.test(value)) return PASS;
      return fail(dash ? EGG_RULE_MESSAGES.alphaDash : EGG_RULE_MESSAGES.alphaNum);
    }
    case "url":
      return value !== null && isUrl(value) ? PASS : fail(EGG_RULE_MESSAGES.url);
    case "regex": {
      const pattern = phpRegex(first ?? "");
      if (!pattern.ok)
        return pattern.reason === "broken"
          ? fail(EGG_RULE_MESSAGES.regexBroken, { pattern: first ?? "" })
          : UNCHECKED;
      if (value === null) return fail(EGG_RULE_MESSAGES.regex, { pattern: first ?? "" });
      if (value.length > PHP_REGEX_MAX_SUBJECT) return UNCHECKED;
      return pattern.matches(value)
        ? PASS
        : fail(EGG_RULE_MESSAGES.regex, { pattern: first ?? "" });
    }
    default:
      return UNCHECKED;
  }
}

/**
 * An egg's variables checked as the panel checks them when a server is created (its
 * VariableValidatorService, at admin level: every variable, editable or not), against the values a
 * product gives (a variable left out takes the egg's default). The panel trims each value and reads an
 * empty one as null: only `required` looks at an empty value when the rules say `nullable`, and without
 * `nullable` most rules refuse it (an empty value is no string). A failed `required` ends a variable's
 * checks, as `bail` ends them at its first failure. A rule checked by the panel alone is listed in
 * `unchecked`, so the admin knows the panel may still refuse.
 */
export function validateEggVariables(
  variables: readonly EggVariable[],
  values: Readonly<Record<string, string>>,
): { ok: boolean; errors: EggVariableError[]; unchecked: UncheckedEggRule[] } {
  const errors: EggVariableError[] = [];
  const unchecked: UncheckedEggRule[] = [];
  for (const variable of variables) {
    const given = Object.hasOwn(values, variable.envVariable)
      ? values[variable.envVariable]!
      : variable.defaultValue;
    const trimmed = given.trim();
    const value = trimmed === "" ? null : trimmed;
    const rules = parseRules(variable.rules);
    const keys = new Set(rules.map((rule) => rule.key));
    const nullable = keys.has("nullable");
    const numericRule = keys.has("numeric") || keys.has("integer");
    for (const rule of rules) {
      // Laravel skips every rule but an implicit one (required) on a null value marked nullable.
      if (value === null && nullable && rule.key !== "required") continue;
      const outcome = checkRule(rule, value, numericRule);
      if ("unchecked" in outcome) {
        unchecked.push({ envVariable: variable.envVariable, rule: rule.raw.trim() });
        continue;
      }
      if (outcome.pass) continue;
      errors.push({
        envVariable: variable.envVariable,
        rule: rule.name,
        message: outcome.message,
        values: outcome.values ?? {},
      });
      if (rule.key === "required" || keys.has("bail")) break;
    }
  }
  return { ok: errors.length === 0, errors, unchecked };
}
