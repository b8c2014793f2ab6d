import { labelKeys } from "~/lib/label-keys";
import { PLACEMENT_FAILURES, PORT_LAYOUTS } from "./placement";

export type {
  ProductProvisioning,
  PterodactylProvisioning,
  StoredProvisioning,
} from "./provisioning.schemas";
export {
  type AllocationPick,
  LAYOUT_PORTS,
  MTA_ANNOUNCE_OFFSET,
  nodeHasRoom,
  type NodeWithAllocations,
  type PanelAllocation,
  panelLocationsFor,
  type PanelNode,
  pickAcrossNodes,
  pickAllocations,
  type Placement,
  PLACEMENT_FAILURES,
  type PlacementFailure,
  PORT_LAYOUTS,
  type PortLayout,
} from "./placement";
export {
  backupLimitFor,
  mtaEnvironment,
  type MtaPorts,
  type OrderOptions,
  type PickedPorts,
  PREMIUM_EXTRA_BACKUPS,
  type ServerBuild,
  serverBuildFor,
} from "./server-build";
export {
  acceptsGeneratedValue,
  EGG_RULE_MESSAGES,
  EGG_RULE_UNCHECKED,
  EGG_RULES,
  type EggRuleMessage,
  type EggVariable,
  type EggVariableError,
  GENERATE_FIELD_PREFIX,
  GENERATED_VALUE_ALPHABET,
  GENERATED_VALUE_LENGTH,
  GENERATED_VALUE_SAMPLE,
  generatedEnvironment,
  generateFieldName,
  isSecretVariable,
  type UncheckedEggRule,
  validateEggVariables,
} from "./egg-variables";

// Provisioning on a Pterodactyl panel: the pure rules. What a product asks of the panel, how
// the order's options change it, where a server may go and which ports it gets (docs/provisioning.md).
// Messages are catalogue keys ("admin-catalogue.…", "services.…").
//
// Here, the words they share: provisioners, panel states, catalogue labels, the product form's limits
// and field names. The rules are in placement.ts (where a server goes, its ports), server-build.ts
// (what a create call sends) and egg-variables.ts (an egg's rules, the values made for each server),
// re-exported here so that a caller imports them from one place.

/**
 * How a product's servers come to be: by hand (as all were before the game panel) or on the Pterodactyl
 * panel.
 */
export const PROVISIONERS = ["none", "pterodactyl"] as const;
export type Provisioner = (typeof PROVISIONERS)[number];

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
