import type { PanelSnapshot, SnapshotEgg } from "./panel-connection";
import {
  acceptsGeneratedValue,
  DEFAULT_IO_WEIGHT,
  envFieldName,
  generateFieldName,
  GENERATED_VALUE_SAMPLE,
  isSecretVariable,
  validateEggVariables,
  type EggRuleMessage,
  type ProductProvisioning,
  type PterodactylProvisioning,
} from "./provisioning";

// The product editor's provisioning block (docs/provisioning.md "The product editor"): the
// form's values of a stored block, what a chosen egg fills in, and the block checked against what the
// panel had at its last check. Pure, so the page and the save use-case read the same rules.

/** A panel location's and a panel node's checkbox in the product form: "location-3", "node-12". */
export const LOCATION_FIELD_PREFIX = "location-";
export const NODE_FIELD_PREFIX = "node-";

export function locationFieldName(id: number): string {
  return `${LOCATION_FIELD_PREFIX}${id}`;
}

export function nodeFieldName(id: number): string {
  return `${NODE_FIELD_PREFIX}${id}`;
}

/** Why a Pterodactyl block does not fit the panel as last checked (admin-catalogue keys). */
export const PROVISIONING_PANEL_ERRORS = {
  /** The reason of the whole refusal, above the form. */
  notFitting: "admin-catalogue.products.provisioning.errors.notFitting",
  panelNotChecked: "admin-catalogue.products.provisioning.errors.panelNotChecked",
  eggUnknown: "admin-catalogue.products.provisioning.errors.eggUnknown",
  variableUnknown: "admin-catalogue.products.provisioning.errors.variableUnknown",
  locationUnknown: "admin-catalogue.products.provisioning.errors.locationUnknown",
  nodeUnknown: "admin-catalogue.products.provisioning.errors.nodeUnknown",
  /** A variable to be given a random value whose rules refuse one ({{rules}}: the egg's). */
  generatedRefused: "admin-catalogue.products.provisioning.errors.generatedRefused",
} as const;
export type ProvisioningPanelError = Exclude<
  (typeof PROVISIONING_PANEL_ERRORS)[keyof typeof PROVISIONING_PANEL_ERRORS],
  typeof PROVISIONING_PANEL_ERRORS.notFitting
>;

/** One refusal of a field of the product form, with the values its text takes ({{min}}, {{pattern}}). */
export interface ProvisioningFieldError {
  field: string;
  message: ProvisioningPanelError | EggRuleMessage;
  values: Record<string, string | number>;
}

/**
 * The product form's fields as they hold a stored block (strings, as the form sends them back): the
 * panel's locations and nodes as their checkboxes, the environment as one `env.<VARIABLE>` field each.
 */
export function provisioningFormValues(block: ProductProvisioning): Record<string, string> {
  if (block.provisioner === "none") return { provisioner: "none" };
  return {
    provisioner: "pterodactyl",
    nestId: String(block.nestId),
    eggId: String(block.eggId),
    dockerImage: block.dockerImage,
    startup: block.startup,
    memoryMb: String(block.memoryMb),
    swapMb: String(block.swapMb),
    diskMb: String(block.diskMb),
    cpuPercent: String(block.cpuPercent),
    ioWeight: String(block.ioWeight),
    databases: String(block.databases),
    backups: String(block.backups),
    allocations: String(block.allocations),
    portLayout: block.portLayout,
    slotsVariable: block.slotsVariable ?? "",
    httpPortVariable: block.httpPortVariable ?? "",
    ...Object.fromEntries(block.locationIds.map((id) => [locationFieldName(id), "on"])),
    ...Object.fromEntries(block.nodeIds.map((id) => [nodeFieldName(id), "on"])),
    ...Object.fromEntries(
      Object.entries(block.environment).map(([name, value]) => [envFieldName(name), value]),
    ),
    ...Object.fromEntries(
      (block.generatedVariables ?? []).map((name) => [generateFieldName(name), "on"]),
    ),
  };
}

/**
 * What the form starts from when an egg is chosen for a product (a new block, or another egg than the
 * stored one): the egg's image, startup and variable defaults, the panel's usual limits, and what the
 * stored block says of the rest (limits, layout, locations; its slots and HTTP port variables where the
 * new egg has them).
 */
export function valuesForEgg(
  egg: SnapshotEgg,
  stored: ProductProvisioning,
): Record<string, string> {
  const kept = stored.provisioner === "pterodactyl" ? provisioningFormValues(stored) : {};
  const names = new Set(egg.variables.map((variable) => variable.envVariable));
  const variable = (value: string | undefined) => (value && names.has(value) ? value : "");
  // Memory and disk are the product's to say; CPU and ports start where a plain server does (one core,
  // one port: MTA's layout asks for three when chosen).
  const limits = {
    memoryMb: kept.memoryMb ?? "",
    diskMb: kept.diskMb ?? "",
    cpuPercent: kept.cpuPercent ?? "100",
    allocations: kept.allocations ?? "1",
  };
  return {
    ...Object.fromEntries(
      Object.entries(kept).filter(
        ([field]) => field.startsWith(LOCATION_FIELD_PREFIX) || field.startsWith(NODE_FIELD_PREFIX),
      ),
    ),
    provisioner: "pterodactyl",
    nestId: String(egg.nestId),
    eggId: String(egg.id),
    dockerImage: egg.dockerImage,
    startup: egg.startup,
    ...limits,
    swapMb: kept.swapMb ?? "0",
    ioWeight: kept.ioWeight ?? String(DEFAULT_IO_WEIGHT),
    databases: kept.databases ?? "0",
    backups: kept.backups ?? "0",
    portLayout: kept.portLayout ?? "single",
    slotsVariable: variable(kept.slotsVariable),
    httpPortVariable: variable(kept.httpPortVariable),
    ...Object.fromEntries(
      egg.variables.map((each) => [envFieldName(each.envVariable), each.defaultValue]),
    ),
    // A remote-admin password starts drawn per server: the same one on every server of a plan would
    // open each customer's server to the others.
    ...Object.fromEntries(
      egg.variables
        .filter((each) => isSecretVariable(each.envVariable) && acceptsGeneratedValue(each))
        .map((each) => [generateFieldName(each.envVariable), "on"]),
    ),
  };
}

/**
 * What the product form's provisioning fields start from: the stored block, or, when another egg is
 * chosen in the editor (`chosenEggId`, "Choose egg"), that egg's values (valuesForEgg). A variable the
 * stored egg has gained on the panel since the product was saved starts at its default.
 */
export function provisioningStartValues(
  stored: ProductProvisioning,
  snapshot: PanelSnapshot | null,
  chosenEggId?: number,
): Record<string, string> {
  const storedEggId = stored.provisioner === "pterodactyl" ? stored.eggId : null;
  const chosen =
    chosenEggId !== undefined && chosenEggId !== storedEggId
      ? findEgg(snapshot, chosenEggId)
      : null;
  if (chosen) return valuesForEgg(chosen, stored);
  const values = provisioningFormValues(stored);
  const egg = storedEggId === null ? null : findEgg(snapshot, storedEggId);
  if (!egg) return values;
  return {
    ...Object.fromEntries(
      egg.variables.map((variable) => [envFieldName(variable.envVariable), variable.defaultValue]),
    ),
    ...values,
  };
}

/** An egg of the snapshot by its id (the panel's egg ids are unique across nests). */
export function findEgg(snapshot: PanelSnapshot | null, eggId: number): SnapshotEgg | null {
  for (const nest of snapshot?.nests ?? [])
    for (const egg of nest.eggs) if (egg.id === eggId) return egg;
  return null;
}

/** The snapshot's eggs as choices, "Nest: Egg", in the panel's order. */
export function eggChoices(snapshot: PanelSnapshot): { value: string; label: string }[] {
  return snapshot.nests.flatMap((nest) =>
    nest.eggs.map((egg) => ({ value: String(egg.id), label: `${nest.name}: ${egg.name}` })),
  );
}

/**
 * The Docker images an egg offers (label → image), the current one first when the egg does not list
 * it, so a select never changes what is stored without a word; empty when the egg lists none.
 */
export function dockerImageChoices(
  egg: SnapshotEgg,
  current: string,
): { value: string; label: string }[] {
  const listed = Object.entries(egg.dockerImages ?? {}).map(([label, image]) => ({
    value: image,
    label: label === image ? image : `${label} (${image})`,
  }));
  if (listed.length === 0) return [];
  return current !== "" && !listed.some((choice) => choice.value === current)
    ? [{ value: current, label: current }, ...listed]
    : listed;
}

/** The rules of each variable that only the panel checks, for the values the form holds. */
export function uncheckedRules(
  egg: SnapshotEgg,
  values: Readonly<Record<string, string>>,
): Map<string, string[]> {
  const { unchecked } = validateEggVariables(egg.variables, values);
  const byVariable = new Map<string, string[]>();
  for (const rule of unchecked)
    byVariable.set(rule.envVariable, [...(byVariable.get(rule.envVariable) ?? []), rule.rule]);
  return byVariable;
}

/**
 * A Pterodactyl block checked against what the panel had at its last check, before it is saved: the egg
 * must be there (in the nest the block names), the variables the slots and the HTTP port go to must be
 * the egg's, the locations and nodes the panel's, and the environment must pass the egg's own rules
 * (validateEggVariables); each refusal is on its form field. The environment kept is the egg's
 * variables only: a value of another egg (a form made before the egg changed) is dropped.
 */
export function checkAgainstPanel(
  block: PterodactylProvisioning,
  snapshot: PanelSnapshot | null,
): { ok: true; block: PterodactylProvisioning } | { ok: false; errors: ProvisioningFieldError[] } {
  const error = (field: string, message: ProvisioningPanelError): ProvisioningFieldError => ({
    field,
    message,
    values: {},
  });
  if (!snapshot)
    return { ok: false, errors: [error("provisioner", PROVISIONING_PANEL_ERRORS.panelNotChecked)] };
  const egg = findEgg(snapshot, block.eggId);
  if (!egg || egg.nestId !== block.nestId)
    return { ok: false, errors: [error("eggId", PROVISIONING_PANEL_ERRORS.eggUnknown)] };

  const errors: ProvisioningFieldError[] = [];
  const names = new Set(egg.variables.map((variable) => variable.envVariable));
  for (const field of ["slotsVariable", "httpPortVariable"] as const) {
    const name = block[field];
    if (name !== null && !names.has(name))
      errors.push(error(field, PROVISIONING_PANEL_ERRORS.variableUnknown));
  }
  const locations = new Set(snapshot.locations.map((location) => location.id));
  if (block.locationIds.some((id) => !locations.has(id)))
    errors.push(error("locationIds", PROVISIONING_PANEL_ERRORS.locationUnknown));
  const nodes = new Set(snapshot.nodes.map((node) => node.id));
  if (block.nodeIds.some((id) => !nodes.has(id)))
    errors.push(error("nodeIds", PROVISIONING_PANEL_ERRORS.nodeUnknown));

  const generated = (block.generatedVariables ?? []).filter((name) => names.has(name));
  const environment = Object.fromEntries(
    Object.entries(block.environment).filter(
      ([name]) => names.has(name) && !generated.includes(name),
    ),
  );
  // A generated variable is checked on a value of the kind the create job draws.
  const checked = validateEggVariables(egg.variables, {
    ...environment,
    ...Object.fromEntries(generated.map((name) => [name, GENERATED_VALUE_SAMPLE])),
  });
  // One message a field, the first, as the form shows one.
  const seen = new Set<string>();
  for (const each of checked.errors) {
    if (seen.has(each.envVariable)) continue;
    seen.add(each.envVariable);
    if (generated.includes(each.envVariable)) {
      const rules = egg.variables.find((variable) => variable.envVariable === each.envVariable);
      errors.push({
        // On the value's field: the switch beside it shows no message of its own.
        field: envFieldName(each.envVariable),
        message: PROVISIONING_PANEL_ERRORS.generatedRefused,
        values: { rules: rules?.rules ?? "" },
      });
      continue;
    }
    errors.push({
      field: envFieldName(each.envVariable),
      message: each.message,
      values: each.values,
    });
  }
  if (errors.length > 0) return { ok: false, errors };
  const kept: PterodactylProvisioning = { ...block, environment };
  if (generated.length > 0) kept.generatedVariables = generated;
  else delete kept.generatedVariables;
  return { ok: true, block: kept };
}

/**
 * The product form's panel location and node checkboxes ("location-3": "on") as the lists the
 * provisioning fields read ("locationIds": "1,3"). A form without any such checkbox keeps the lists it
 * sent, if any.
 */
export function withPanelIdLists(
  fields: Readonly<Record<string, unknown>>,
): Record<string, string> {
  const text: Record<string, string> = {};
  const locations: string[] = [];
  const nodes: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value !== "string") continue;
    text[field] = value;
    if (value === "") continue;
    if (field.startsWith(LOCATION_FIELD_PREFIX))
      locations.push(field.slice(LOCATION_FIELD_PREFIX.length));
    else if (field.startsWith(NODE_FIELD_PREFIX)) nodes.push(field.slice(NODE_FIELD_PREFIX.length));
  }
  if (locations.length > 0) text.locationIds = locations.join(",");
  if (nodes.length > 0) text.nodeIds = nodes.join(",");
  return text;
}
