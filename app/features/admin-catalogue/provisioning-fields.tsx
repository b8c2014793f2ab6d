import { Form } from "react-router";
import { Link } from "~/components/ui/link";
import { Button } from "~/components/ui/button";
import { Hint } from "~/components/ui/field";
import { Fieldset } from "~/components/ui/fieldset";
import { choicesOf, type FieldSpec } from "~/components/ui/form-card";
import { Notice } from "~/components/ui/notice";
import type { PanelSnapshot, SnapshotEgg } from "~/domain/provisioning/panel-connection";
import {
  dockerImageChoices,
  eggChoices,
  findEgg,
  locationFieldName,
  nodeFieldName,
  uncheckedRules,
} from "~/domain/provisioning/product-editor";
import {
  acceptsGeneratedValue,
  EGG_RULE_UNCHECKED,
  envFieldName,
  generateFieldName,
  MAX_DOCKER_IMAGE_LENGTH,
  MAX_ENV_VALUE_LENGTH,
  MAX_STARTUP_LENGTH,
  PORT_LAYOUT_LABELS,
  PORT_LAYOUTS,
  PROVISIONER_LABELS,
  PROVISIONERS,
  PROVISIONING_LIMITS,
  PROVISIONING_UNREADABLE,
  type ProvisioningNumberField,
} from "~/domain/provisioning/provisioning";
import { useMessage } from "~/i18n/use-message";
import { useTranslation } from "~/i18n/use-translation";
import {
  EditorFields,
  editorRow,
  type EditorFormState,
} from "~/components/list-editor/editor-page";

/** The GET form "Choose egg" submits: it opens the editor again with the egg (`?edit=…&eggId=…`). */
export const EGG_PICKER_FORM = "product-egg-picker";

// The labels of the number fields (admin-catalogue keys, written out).
const NUMBER_LABELS = {
  memoryMb: "products.provisioning.fields.memoryMb",
  swapMb: "products.provisioning.fields.swapMb",
  diskMb: "products.provisioning.fields.diskMb",
  cpuPercent: "products.provisioning.fields.cpuPercent",
  ioWeight: "products.provisioning.fields.ioWeight",
  databases: "products.provisioning.fields.databases",
  backups: "products.provisioning.fields.backups",
  allocations: "products.provisioning.fields.allocations",
} as const satisfies Record<ProvisioningNumberField, string>;

/**
 * The product's provisioning block in its editor (docs/provisioning.md "The product
 * editor"): how its servers are made and, for the Pterodactyl panel, the egg and everything the server
 * is created with, the choices read from what the panel had at its last check (`panel`). Every field is
 * on the page whatever the provisioner, so the form works without JavaScript; the egg is chosen with
 * the picker form (EggPicker), which opens the editor again with the egg's own values.
 */
export function ProvisioningFields({
  form,
  panel,
  unreadable,
  names,
}: {
  form: EditorFormState;
  panel: PanelSnapshot | null;
  unreadable: boolean;
  /** The fields the block started with (its stored values), sent back as they are without a panel. */
  names: readonly string[];
}) {
  const { t } = useTranslation("admin-catalogue");
  const message = useMessage();
  const provisioner = form.value("provisioner") || "none";
  const eggId = Number(form.value("eggId"));
  const egg = panel && eggId > 0 ? findEgg(panel, eggId) : null;
  const provisionerField: FieldSpec = {
    kind: "select",
    name: "provisioner",
    variant: "validated",
    label: t("products.provisioning.fields.provisioner"),
    // Without a checked panel there is nothing to make a server from: Pterodactyl stays offered only to
    // a product that has it already, whose save then says why it is refused.
    options: choicesOf(
      panel || provisioner === "pterodactyl" ? PROVISIONERS : (["none"] as const),
      (value) => t(PROVISIONER_LABELS[value]),
    ),
  };
  return (
    <fieldset className="grid gap-4">
      <legend className="text-base font-semibold">{t("products.provisioning.legend")}</legend>
      <p className="text-sm text-muted-foreground">{t("products.provisioning.intro")}</p>
      {unreadable ? <Notice>{message(PROVISIONING_UNREADABLE)}</Notice> : null}
      {panel ? null : (
        <Notice title={t("products.provisioning.noPanelTitle")}>
          {t("products.provisioning.noPanel")}{" "}
          <Link className="font-medium underline" to="/admin/settings/game-panel">
            {t("products.provisioning.noPanelLink")}
          </Link>
        </Notice>
      )}
      <EditorFields editor={form} fields={[provisionerField]} />
      {panel ? (
        <PanelFields form={form} panel={panel} egg={egg} eggId={eggId} />
      ) : (
        // What is stored goes back as it is: the save keeps it, or says why it cannot.
        names
          .filter((name) => name !== "provisioner")
          .map((name) => <input key={name} type="hidden" name={name} value={form.value(name)} />)
      )}
    </fieldset>
  );
}

/** The Pterodactyl block's fields, from the panel's last check and the chosen egg (if known). */
function PanelFields({
  form,
  panel,
  egg,
  eggId,
}: {
  form: EditorFormState;
  panel: PanelSnapshot;
  egg: SnapshotEgg | null;
  eggId: number;
}) {
  const { t } = useTranslation("admin-catalogue");
  const eggError = form.errors.eggId ?? form.errors.nestId;
  const variableChoices = (current: string) => {
    const names = (egg?.variables ?? []).map((variable) => ({
      value: variable.envVariable,
      label: variableLabel(variable, t),
    }));
    // A stored name the egg does not list stays a choice, so saving never drops it unsaid.
    return current && !names.some((choice) => choice.value === current)
      ? [...names, { value: current, label: current }]
      : names;
  };
  const imageChoices = egg ? dockerImageChoices(egg, form.value("dockerImage")) : [];
  // The egg is chosen in the picker form; the save sends the egg the fields below were made for.
  const picker: FieldSpec = {
    kind: "select",
    name: "eggId",
    form: EGG_PICKER_FORM,
    variant: "validated",
    label: t("products.provisioning.fields.egg"),
    hint: t("products.provisioning.hints.egg"),
    options: [{ value: "", label: t("products.provisioning.pickEgg") }, ...eggChoices(panel)],
  };
  const fields: FieldSpec[] = [
    editorRow(2, [
      picker,
      {
        kind: "custom",
        key: "choose-egg",
        content: (
          <Button type="submit" form={EGG_PICKER_FORM} variant="outline" className="w-fit sm:mt-8">
            {t("products.provisioning.chooseEgg")}
          </Button>
        ),
      },
    ]),
    editorRow(2, [
      imageChoices.length > 0
        ? {
            kind: "select",
            name: "dockerImage",
            variant: "validated",
            label: t("products.provisioning.fields.dockerImage"),
            hint: t("products.provisioning.hints.dockerImage"),
            dir: "ltr",
            options: imageChoices,
          }
        : {
            kind: "input",
            name: "dockerImage",
            label: t("products.provisioning.fields.dockerImage"),
            hint: t("products.provisioning.hints.dockerImage"),
            dir: "ltr",
            maxLength: MAX_DOCKER_IMAGE_LENGTH,
            autoComplete: "off",
          },
      {
        kind: "textarea",
        name: "startup",
        label: t("products.provisioning.fields.startup"),
        hint: t("products.provisioning.hints.startup"),
        rows: 3,
        dir: "ltr",
        maxLength: MAX_STARTUP_LENGTH,
        variant: "validated",
      },
    ]),
    {
      kind: "custom",
      key: "limits-hint",
      content: (
        <p className="text-sm text-muted-foreground">{t("products.provisioning.limitsHint")}</p>
      ),
    },
    editorRow(4, numberFields(["memoryMb", "swapMb", "diskMb", "cpuPercent"], t)),
    editorRow(4, numberFields(["ioWeight", "databases", "backups", "allocations"], t)),
    editorRow(3, [
      {
        kind: "select",
        name: "portLayout",
        variant: "validated",
        label: t("products.provisioning.fields.portLayout"),
        options: choicesOf(PORT_LAYOUTS, (layout) => t(PORT_LAYOUT_LABELS[layout])),
      },
      {
        kind: "select",
        name: "httpPortVariable",
        variant: "validated",
        label: t("products.provisioning.fields.httpPortVariable"),
        hint: t("products.provisioning.hints.httpPortVariable"),
        options: [
          { value: "", label: t("products.provisioning.pickVariable") },
          ...variableChoices(form.value("httpPortVariable")),
        ],
      },
      {
        kind: "select",
        name: "slotsVariable",
        variant: "validated",
        label: t("products.provisioning.fields.slotsVariable"),
        hint: t("products.provisioning.hints.slotsVariable"),
        options: [
          { value: "", label: t("products.provisioning.noVariable") },
          ...variableChoices(form.value("slotsVariable")),
        ],
      },
    ]),
  ];
  const locationName = (id: number) =>
    panel.locations.find((location) => location.id === id)?.short ?? String(id);
  return (
    <>
      <input type="hidden" name="nestId" value={egg ? String(egg.nestId) : form.value("nestId")} />
      <input type="hidden" name="eggId" value={eggId > 0 ? String(eggId) : ""} />
      <EditorFields
        editor={{
          ...form,
          // The nest goes with the egg: a refusal of either is the picker's.
          errors: eggError ? { ...form.errors, eggId: eggError } : form.errors,
        }}
        fields={fields}
      />
      {eggId > 0 && !egg ? (
        <Notice>{t("products.provisioning.eggMissing", { id: eggId })}</Notice>
      ) : null}
      <CheckboxGroup
        form={form}
        field="locationIds"
        label={t("products.provisioning.fields.locations")}
        hint={t("products.provisioning.hints.locations")}
        boxes={panel.locations.map((location) => ({
          kind: "switch",
          name: locationFieldName(location.id),
          label: location.long
            ? t("products.provisioning.locationLabel", {
                short: location.short,
                long: location.long,
              })
            : location.short,
        }))}
      />
      <CheckboxGroup
        form={form}
        field="nodeIds"
        label={t("products.provisioning.fields.nodes")}
        hint={t("products.provisioning.hints.nodes")}
        boxes={panel.nodes.map((node) => ({
          kind: "switch",
          name: nodeFieldName(node.id),
          label: t("products.provisioning.nodeLabel", {
            name: node.name,
            location: locationName(node.locationId),
          }),
        }))}
      />
      {egg ? (
        <EggVariables form={form} egg={egg} />
      ) : (
        <p className="text-sm text-muted-foreground">{t("products.provisioning.noEgg")}</p>
      )}
    </>
  );
}

type Translate = ReturnType<typeof useTranslation<"admin-catalogue">>["t"];

/** An egg variable's name and, when the egg names it otherwise, the variable itself. */
function variableLabel(variable: SnapshotEgg["variables"][number], t: Translate): string {
  return variable.name === variable.envVariable
    ? variable.name
    : t("products.provisioning.variableLabel", {
        name: variable.name,
        variable: variable.envVariable,
      });
}

function numberFields(names: readonly ProvisioningNumberField[], t: Translate): FieldSpec[] {
  return names.map((name) => ({
    kind: "input",
    name,
    label: t(NUMBER_LABELS[name]),
    ...(name === "allocations" ? { hint: t("products.provisioning.hints.allocations") } : {}),
    inputMode: "numeric",
    dir: "ltr",
    autoComplete: "off",
    min: PROVISIONING_LIMITS[name].min,
    max: PROVISIONING_LIMITS[name].max,
  }));
}

/** Checkboxes of panel ids (locations, nodes): their list's error and hint under the group's name. */
function CheckboxGroup({
  form,
  field,
  label,
  hint,
  boxes,
}: {
  form: EditorFormState;
  field: "locationIds" | "nodeIds";
  label: string;
  hint: string;
  boxes: FieldSpec[];
}) {
  const id = form.id(field);
  const error = form.error(field);
  return (
    <fieldset
      className="grid gap-2"
      aria-describedby={error ? `${id}-hint ${id}-error` : `${id}-hint`}
    >
      <legend className="text-sm font-medium">{label}</legend>
      <Hint id={`${id}-hint`}>{hint}</Hint>
      <div className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
        <EditorFields editor={form} fields={boxes} />
      </div>
      {error ? (
        <p id={`${id}-error`} className="text-sm text-destructive" role="alert">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/**
 * One field per variable of the egg, with its rules (and those only the panel checks) as its hint;
 * the values are checked against the rules when the product is saved.
 */
function EggVariables({ form, egg }: { form: EditorFormState; egg: SnapshotEgg }) {
  const { t } = useTranslation("admin-catalogue");
  const message = useMessage();
  const values = Object.fromEntries(
    egg.variables.map((variable) => [
      variable.envVariable,
      form.value(envFieldName(variable.envVariable)),
    ]),
  );
  const unchecked = uncheckedRules(egg, values);
  const fields: FieldSpec[] = egg.variables.map((variable) => {
    const input: FieldSpec = {
      kind: "input",
      name: envFieldName(variable.envVariable),
      label: variableLabel(variable, t),
      hint: (
        <>
          {variable.rules.trim()
            ? t("products.provisioning.variableRules", { rules: variable.rules })
            : t("products.provisioning.variableNoRules")}
          {(unchecked.get(variable.envVariable) ?? []).map((rule) => (
            <span key={rule} className="block">
              {message(EGG_RULE_UNCHECKED, { variable: variable.envVariable, rule })}
            </span>
          ))}
        </>
      ),
      dir: "ltr",
      maxLength: MAX_ENV_VALUE_LENGTH,
      autoComplete: "off",
    };
    const generate = generateFieldName(variable.envVariable);
    // Offered where the egg's rules take a random value, and kept on the page where it is on already.
    if (!acceptsGeneratedValue(variable) && form.value(generate) === "")
      return editorRow(2, [input]);
    return editorRow(2, [
      input,
      {
        kind: "switch",
        name: generate,
        // Named after its variable: a screen reader lists these switches side by side.
        label: t("products.provisioning.generateLabel", { name: variable.name }),
        hint: t("products.provisioning.generateHint"),
      },
    ]);
  });
  return (
    <Fieldset legend={t("products.provisioning.variablesLegend")}>
      <p className="text-sm text-muted-foreground">{t("products.provisioning.variablesIntro")}</p>
      <div className="grid gap-4">
        <EditorFields editor={form} fields={fields} />
      </div>
    </Fieldset>
  );
}

/**
 * The picker form, after the product's form (forms do not nest): its egg select and "Choose egg"
 * button sit in the product's form and point here with `form=`, so choosing an egg opens the editor
 * again on `?edit=<id>&eggId=<egg>` without saving, JavaScript or not.
 */
export function EggPicker({ edit }: { edit: number | "new" }) {
  return (
    // The admin stays by the egg's fields when the editor comes back with them.
    <Form method="get" id={EGG_PICKER_FORM} hidden preventScrollReset>
      <input type="hidden" name="edit" value={String(edit)} />
    </Form>
  );
}
