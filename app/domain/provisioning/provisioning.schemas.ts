import { MAX_ROW_ID } from "~/lib/id-field";
import { customIssue, z } from "~/lib/zod";
import {
  DEFAULT_IO_WEIGHT,
  ENV_FIELD_PREFIX,
  GENERATE_FIELD_PREFIX,
  isEnvVariableName,
  LAYOUT_PORTS,
  MAX_DOCKER_IMAGE_LENGTH,
  MAX_ENV_VALUE_LENGTH,
  MAX_PANEL_IDS,
  MAX_STARTUP_LENGTH,
  PORT_LAYOUTS,
  PROVISIONERS,
  PROVISIONING_LIMITS,
  type PortLayout,
  type ProvisioningNumberField,
} from "./provisioning";

// Schemas only: actions, loaders, *.server.ts and tests import this file, never a page's code, so zod
// never reaches the browser (docs/architecture.md).

/** The product form's refusals, one a field (admin-catalogue namespace). */
export const PROVISIONING_FORM_ERRORS = {
  provisionerInvalid: "admin-catalogue.products.provisioning.errors.provisionerInvalid",
  nestInvalid: "admin-catalogue.products.provisioning.errors.nestInvalid",
  eggInvalid: "admin-catalogue.products.provisioning.errors.eggInvalid",
  dockerImageRequired: "admin-catalogue.products.provisioning.errors.dockerImageRequired",
  dockerImageTooLong: "admin-catalogue.products.provisioning.errors.dockerImageTooLong",
  startupRequired: "admin-catalogue.products.provisioning.errors.startupRequired",
  startupTooLong: "admin-catalogue.products.provisioning.errors.startupTooLong",
  allocationsMta: "admin-catalogue.products.provisioning.errors.allocationsMta",
  portLayoutInvalid: "admin-catalogue.products.provisioning.errors.portLayoutInvalid",
  locationIdsInvalid: "admin-catalogue.products.provisioning.errors.locationIdsInvalid",
  nodeIdsInvalid: "admin-catalogue.products.provisioning.errors.nodeIdsInvalid",
  variableNameInvalid: "admin-catalogue.products.provisioning.errors.variableNameInvalid",
  httpPortVariableRequired: "admin-catalogue.products.provisioning.errors.httpPortVariableRequired",
  sameVariable: "admin-catalogue.products.provisioning.errors.sameVariable",
  envNameInvalid: "admin-catalogue.products.provisioning.errors.envNameInvalid",
  envValueTooLong: "admin-catalogue.products.provisioning.errors.envValueTooLong",
  generatedTaken: "admin-catalogue.products.provisioning.errors.generatedTaken",
} as const;

/** A number field's refusal, which says the field's range. */
export const PROVISIONING_NUMBER_ERRORS = {
  memoryMb: "admin-catalogue.products.provisioning.errors.memoryMbInvalid",
  swapMb: "admin-catalogue.products.provisioning.errors.swapMbInvalid",
  diskMb: "admin-catalogue.products.provisioning.errors.diskMbInvalid",
  cpuPercent: "admin-catalogue.products.provisioning.errors.cpuPercentInvalid",
  ioWeight: "admin-catalogue.products.provisioning.errors.ioWeightInvalid",
  databases: "admin-catalogue.products.provisioning.errors.databasesInvalid",
  backups: "admin-catalogue.products.provisioning.errors.backupsInvalid",
  allocations: "admin-catalogue.products.provisioning.errors.allocationsInvalid",
} as const satisfies Record<ProvisioningNumberField, string>;

// ─── The block as stored on the product (JSON) ───

const panelId = z.number().int().positive().max(MAX_ROW_ID);
const envName = z.string().refine(isEnvVariableName);
function limited(field: ProvisioningNumberField) {
  const { min, max } = PROVISIONING_LIMITS[field];
  return z.number().int().min(min).max(max);
}

/** MTA's three ports need three allocations, and the egg variable its HTTP port goes to. */
function checkLayout(
  value: { portLayout: PortLayout; allocations: number; httpPortVariable: string | null },
  ctx: z.RefinementCtx,
): void {
  if (value.allocations < LAYOUT_PORTS[value.portLayout])
    customIssue(ctx, PROVISIONING_FORM_ERRORS.allocationsMta, "allocations");
  if (value.portLayout === "mta" && value.httpPortVariable === null)
    customIssue(ctx, PROVISIONING_FORM_ERRORS.httpPortVariableRequired, "httpPortVariable");
}

export const pterodactylProvisioningSchema = z
  .object({
    provisioner: z.literal("pterodactyl"),
    nestId: panelId,
    eggId: panelId,
    dockerImage: z.string().min(1).max(MAX_DOCKER_IMAGE_LENGTH),
    startup: z.string().min(1).max(MAX_STARTUP_LENGTH),
    memoryMb: limited("memoryMb"),
    swapMb: limited("swapMb"),
    diskMb: limited("diskMb"),
    cpuPercent: limited("cpuPercent"),
    ioWeight: limited("ioWeight"),
    databases: limited("databases"),
    backups: limited("backups"),
    allocations: limited("allocations"),
    portLayout: z.enum(PORT_LAYOUTS),
    /** Panel locations; empty: those the order's location maps to (panelLocationsFor). */
    locationIds: z.array(panelId).max(MAX_PANEL_IDS),
    /** Panel nodes the product is kept to; empty: any node of those locations. */
    nodeIds: z.array(panelId).max(MAX_PANEL_IDS),
    environment: z.record(envName, z.string().max(MAX_ENV_VALUE_LENGTH)),
    /**
     * Egg variables given a fresh random value for each server (an RCON password), never stored: the
     * create job draws them (generatedEnvironment). Absent in blocks saved before it existed: none.
     */
    generatedVariables: z.array(envName).max(MAX_PANEL_IDS).optional(),
    /** The egg variable the order's player slots go to. */
    slotsVariable: envName.nullable(),
    /** MTA: the egg variable the HTTP port goes to. */
    httpPortVariable: envName.nullable(),
  })
  .superRefine(checkLayout);

export const productProvisioningSchema = z.discriminatedUnion("provisioner", [
  z.object({ provisioner: z.literal("none") }),
  pterodactylProvisioningSchema,
]);
export type ProductProvisioning = z.infer<typeof productProvisioningSchema>;
export type PterodactylProvisioning = z.infer<typeof pterodactylProvisioningSchema>;

export interface StoredProvisioning {
  provisioning: ProductProvisioning;
  /** The stored block did not read (bad JSON, an older shape): the product is manual until saved. */
  unreadable: boolean;
}

/**
 * A product's stored provisioning block, never throwing: none stored is manual provisioning; one that
 * does not read is manual too, flagged so the admin is told (PROVISIONING_UNREADABLE) rather than a
 * server being made from half a block.
 */
export function parseStoredProvisioning(json: string | null): StoredProvisioning {
  if (json === null || json.trim() === "")
    return { provisioning: { provisioner: "none" }, unreadable: false };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { provisioning: { provisioner: "none" }, unreadable: true };
  }
  const parsed = productProvisioningSchema.safeParse(value);
  return parsed.success
    ? { provisioning: parsed.data, unreadable: false }
    : { provisioning: { provisioner: "none" }, unreadable: true };
}

// ─── The block as the admin's product form sends it ───

/** A whole number as typed: digits with an optional minus sign, nothing else. */
const WHOLE_NUMBER = /^-?\d{1,9}$/;

/**
 * The product form's provisioning fields (strings, as FormData gives them) read into the stored block,
 * each refusal on its own field. The fields: provisioner, nestId, eggId, dockerImage, startup,
 * memoryMb, swapMb (empty: 0), diskMb, cpuPercent, ioWeight (empty: the panel's 500), databases and
 * backups (empty: 0), allocations (empty: what the layout takes), portLayout (empty: single),
 * locationIds and nodeIds (ids separated by commas or spaces), slotsVariable, httpPortVariable, one
 * `env.<VARIABLE>` field a value of the egg's variables, and a `generate.<VARIABLE>` switch ("on") for
 * each variable whose value is drawn anew for each server (its `env.` value is then not kept). With provisioner "none" (or empty) every other
 * field is ignored. The values are not checked against the egg's rules here (that needs the egg, from
 * the panel: validateEggVariables).
 */
export const productProvisioningFormSchema = z
  .record(z.string(), z.string())
  .transform((fields, ctx): ProductProvisioning => {
    const text = (name: string) => (Object.hasOwn(fields, name) ? fields[name]!.trim() : "");
    const provisioner = text("provisioner") || "none";
    if (!(PROVISIONERS as readonly string[]).includes(provisioner)) {
      customIssue(ctx, PROVISIONING_FORM_ERRORS.provisionerInvalid, "provisioner");
      return z.NEVER;
    }
    if (provisioner === "none") return { provisioner: "none" };

    let refused = false;
    const refuse = (field: string, message: string) => {
      customIssue(ctx, message, field);
      refused = true;
    };
    const id = (field: string, message: string): number => {
      const value = text(field);
      if (/^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_ROW_ID)
        return Number(value);
      refuse(field, message);
      return 0;
    };
    const whole = (field: ProvisioningNumberField, empty?: number): number => {
      const value = text(field);
      if (value === "" && empty !== undefined) return empty;
      const { min, max } = PROVISIONING_LIMITS[field];
      if (WHOLE_NUMBER.test(value) && Number(value) >= min && Number(value) <= max)
        return Number(value);
      refuse(field, PROVISIONING_NUMBER_ERRORS[field]);
      return 0;
    };
    const idList = (field: string, message: string): number[] => {
      const value = text(field);
      if (value === "") return [];
      const parts = value.split(/[\s,]+/).filter((part) => part !== "");
      const ids = [...new Set(parts)].map(Number);
      if (
        parts.every((part) => /^\d{1,10}$/.test(part)) &&
        ids.every((each) => each >= 1 && each <= MAX_ROW_ID) &&
        ids.length <= MAX_PANEL_IDS
      )
        return ids;
      refuse(field, message);
      return [];
    };
    const variableName = (field: string): string | null => {
      const value = text(field);
      if (value === "") return null;
      if (isEnvVariableName(value)) return value;
      refuse(field, PROVISIONING_FORM_ERRORS.variableNameInvalid);
      return null;
    };

    const nestId = id("nestId", PROVISIONING_FORM_ERRORS.nestInvalid);
    const eggId = id("eggId", PROVISIONING_FORM_ERRORS.eggInvalid);
    const dockerImage = text("dockerImage");
    if (dockerImage === "") refuse("dockerImage", PROVISIONING_FORM_ERRORS.dockerImageRequired);
    else if (dockerImage.length > MAX_DOCKER_IMAGE_LENGTH)
      refuse("dockerImage", PROVISIONING_FORM_ERRORS.dockerImageTooLong);
    const startup = text("startup").replace(/\r\n?/g, "\n");
    if (startup === "") refuse("startup", PROVISIONING_FORM_ERRORS.startupRequired);
    else if (startup.length > MAX_STARTUP_LENGTH)
      refuse("startup", PROVISIONING_FORM_ERRORS.startupTooLong);

    const layoutText = text("portLayout") || "single";
    const portLayout = (PORT_LAYOUTS as readonly string[]).includes(layoutText)
      ? (layoutText as PortLayout)
      : null;
    if (portLayout === null) refuse("portLayout", PROVISIONING_FORM_ERRORS.portLayoutInvalid);
    const allocations = whole("allocations", LAYOUT_PORTS[portLayout ?? "single"]);
    if (portLayout === "mta" && allocations > 0 && allocations < LAYOUT_PORTS.mta)
      refuse("allocations", PROVISIONING_FORM_ERRORS.allocationsMta);

    const slotsVariable = variableName("slotsVariable");
    // Only MTA has an HTTP port: the field of another layout is left behind.
    const httpPortVariable = portLayout === "mta" ? variableName("httpPortVariable") : null;
    if (portLayout === "mta" && httpPortVariable === null && text("httpPortVariable") === "")
      refuse("httpPortVariable", PROVISIONING_FORM_ERRORS.httpPortVariableRequired);
    if (httpPortVariable !== null && httpPortVariable === slotsVariable)
      refuse("httpPortVariable", PROVISIONING_FORM_ERRORS.sameVariable);

    const generated = new Set<string>();
    for (const [field, value] of Object.entries(fields)) {
      if (!field.startsWith(GENERATE_FIELD_PREFIX) || value.trim() === "") continue;
      const name = field.slice(GENERATE_FIELD_PREFIX.length);
      if (isEnvVariableName(name)) generated.add(name);
      else refuse(field, PROVISIONING_FORM_ERRORS.envNameInvalid);
    }
    if (generated.size > MAX_PANEL_IDS)
      refuse(GENERATE_FIELD_PREFIX, PROVISIONING_FORM_ERRORS.envNameInvalid);
    // The slots and the HTTP port are the order's and the port pick's to write, not a random value's.
    for (const name of [slotsVariable, httpPortVariable])
      if (name !== null && generated.has(name))
        refuse(`${ENV_FIELD_PREFIX}${name}`, PROVISIONING_FORM_ERRORS.generatedTaken);

    const environment: [string, string][] = [];
    for (const [field, value] of Object.entries(fields)) {
      if (!field.startsWith(ENV_FIELD_PREFIX)) continue;
      const name = field.slice(ENV_FIELD_PREFIX.length);
      // The panel trims what it is sent: what is stored is what it will keep.
      const trimmed = value.trim();
      if (!isEnvVariableName(name)) refuse(field, PROVISIONING_FORM_ERRORS.envNameInvalid);
      else if (generated.has(name)) continue;
      else if (trimmed.length > MAX_ENV_VALUE_LENGTH)
        refuse(field, PROVISIONING_FORM_ERRORS.envValueTooLong);
      else environment.push([name, trimmed]);
    }

    const provisioning = {
      provisioner: "pterodactyl" as const,
      nestId,
      eggId,
      dockerImage,
      startup,
      memoryMb: whole("memoryMb"),
      swapMb: whole("swapMb", 0),
      diskMb: whole("diskMb"),
      cpuPercent: whole("cpuPercent"),
      ioWeight: whole("ioWeight", DEFAULT_IO_WEIGHT),
      databases: whole("databases", 0),
      backups: whole("backups", 0),
      allocations,
      portLayout: portLayout ?? "single",
      locationIds: idList("locationIds", PROVISIONING_FORM_ERRORS.locationIdsInvalid),
      nodeIds: idList("nodeIds", PROVISIONING_FORM_ERRORS.nodeIdsInvalid),
      environment: Object.fromEntries(environment),
      ...(generated.size > 0 ? { generatedVariables: [...generated].sort() } : {}),
      slotsVariable,
      httpPortVariable,
    };
    return refused ? z.NEVER : provisioning;
  });
