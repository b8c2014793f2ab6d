import { describe, expect, it } from "vitest";
import { testPanelSnapshot } from "../../../tests/support/panel-snapshot";
import { sampProvisioning } from "../../../tests/support/provisioning-fixtures";
import {
  checkAgainstPanel,
  dockerImageChoices,
  eggChoices,
  findEgg,
  provisioningFormValues,
  provisioningStartValues,
  uncheckedRules,
  valuesForEgg,
  withPanelIdLists,
} from "./product-editor";
import type { PterodactylProvisioning } from "./provisioning";
import { productProvisioningFormSchema } from "./provisioning.schemas";

const snapshot = testPanelSnapshot();

/** A SA-MP product as stored. */
const samp = sampProvisioning({
  swapMb: -1,
  locationIds: [1],
  nodeIds: [3],
  environment: { VERSION: "0.3.7", RCON_PASS: "s3cret", MAX_PLAYERS: "100" },
});

describe("the product editor's provisioning values", () => {
  it("writes a stored block as the form's fields, which read back as the same block", () => {
    const values = provisioningFormValues(samp);
    expect(values).toMatchObject({
      provisioner: "pterodactyl",
      eggId: "2",
      swapMb: "-1",
      "location-1": "on",
      "node-3": "on",
      "env.RCON_PASS": "s3cret",
      slotsVariable: "MAX_PLAYERS",
      httpPortVariable: "",
    });
    expect(productProvisioningFormSchema.parse(withPanelIdLists(values))).toEqual(samp);
    expect(provisioningFormValues({ provisioner: "none" })).toEqual({ provisioner: "none" });
  });

  it("fills in a chosen egg's image, startup and defaults, keeping the stored limits and places", () => {
    const mta = findEgg(snapshot, 3)!;
    const values = valuesForEgg(mta, samp);
    expect(values).toEqual({
      provisioner: "pterodactyl",
      nestId: "2",
      eggId: "3",
      dockerImage: "ghcr.io/parkervcp/games:mta",
      startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
      memoryMb: "1024",
      diskMb: "5120",
      cpuPercent: "100",
      allocations: "1",
      swapMb: "-1",
      ioWeight: "500",
      databases: "0",
      backups: "1",
      portLayout: "single",
      // MAX_PLAYERS is SA-MP's: the MTA egg has no such variable.
      slotsVariable: "",
      httpPortVariable: "",
      "location-1": "on",
      "node-3": "on",
      "env.SERVER_WEBPORT": "22005",
    });
    // A product with no block yet: the panel's usual limits, the number fields left to the admin.
    expect(valuesForEgg(mta, { provisioner: "none" })).toMatchObject({
      memoryMb: "",
      swapMb: "0",
      ioWeight: "500",
      databases: "0",
      backups: "0",
      portLayout: "single",
    });
  });

  it("starts an egg's remote-admin password as drawn for each server, and reads the switch back", () => {
    const values = valuesForEgg(findEgg(snapshot, 2)!, { provisioner: "none" });
    expect(values).toMatchObject({ "env.RCON_PASS": "", "generate.RCON_PASS": "on" });
    // Only a remote-admin password, and only where its rules take a random value.
    expect(Object.keys(values).filter((field) => field.startsWith("generate."))).toEqual([
      "generate.RCON_PASS",
    ]);
    const stored = { ...samp, generatedVariables: ["RCON_PASS"] };
    const { RCON_PASS: _dropped, ...environment } = samp.environment;
    const form = provisioningFormValues({ ...stored, environment });
    expect(form).toMatchObject({ "generate.RCON_PASS": "on" });
    expect(productProvisioningFormSchema.parse(withPanelIdLists(form))).toEqual({
      ...stored,
      environment,
    });
  });

  it("starts from the stored block, or the egg chosen with the picker", () => {
    expect(provisioningStartValues(samp, snapshot)).toEqual(provisioningFormValues(samp));
    // The same egg chosen again changes nothing; another one starts afresh; an unknown one is ignored.
    expect(provisioningStartValues(samp, snapshot, 2)).toEqual(provisioningFormValues(samp));
    expect(provisioningStartValues(samp, snapshot, 3)).toEqual(
      valuesForEgg(findEgg(snapshot, 3)!, samp),
    );
    expect(provisioningStartValues(samp, snapshot, 99)).toEqual(provisioningFormValues(samp));
    expect(provisioningStartValues({ provisioner: "none" }, null, 3)).toEqual({
      provisioner: "none",
    });
    // A variable the egg gained on the panel since the product was saved starts at its default.
    const older = { ...samp, environment: { VERSION: "0.3.7", RCON_PASS: "s3cret" } };
    expect(provisioningStartValues(older, snapshot)).toMatchObject({
      "env.RCON_PASS": "s3cret",
      "env.MAX_PLAYERS": "50",
    });
  });

  it("offers the panel's eggs and an egg's images, never dropping the stored image unsaid", () => {
    expect(eggChoices(snapshot)).toEqual([
      { value: "2", label: "GTA San Andreas: SA-MP" },
      { value: "3", label: "GTA San Andreas: Multi Theft Auto" },
    ]);
    const sampEgg = findEgg(snapshot, 2)!;
    expect(dockerImageChoices(sampEgg, "ghcr.io/parkervcp/games:samp")).toEqual([
      { value: "ghcr.io/parkervcp/games:samp", label: "Samp (ghcr.io/parkervcp/games:samp)" },
    ]);
    expect(dockerImageChoices(sampEgg, "my/own:image").map((choice) => choice.value)).toEqual([
      "my/own:image",
      "ghcr.io/parkervcp/games:samp",
    ]);
    expect(dockerImageChoices(findEgg(snapshot, 3)!, "")).toEqual([
      { value: "ghcr.io/parkervcp/games:mta", label: "ghcr.io/parkervcp/games:mta" },
    ]);
    // A snapshot taken before the images were kept: no choices, the field is typed.
    expect(dockerImageChoices({ ...sampEgg, dockerImages: undefined }, "x")).toEqual([]);
  });

  it("lists the rules only the panel checks, by variable", () => {
    const egg = {
      ...findEgg(snapshot, 2)!,
      variables: [
        {
          name: "A",
          envVariable: "A",
          defaultValue: "1",
          rules: "required|string|required_if:B,1",
          userEditable: true,
        },
        {
          name: "B",
          envVariable: "B",
          defaultValue: "x",
          rules: "nullable|string",
          userEditable: true,
        },
      ],
    };
    expect(uncheckedRules(egg, { A: "1", B: "" })).toEqual(new Map([["A", ["required_if:B,1"]]]));
  });

  it("turns the location and node checkboxes into lists, keeping sent lists without them", () => {
    expect(
      withPanelIdLists({
        "location-3": "on",
        "location-1": "on",
        "node-2": "on",
        "node-9": "",
        x: 1,
      }),
    ).toEqual({
      "location-3": "on",
      "location-1": "on",
      "node-2": "on",
      "node-9": "",
      locationIds: "3,1",
      nodeIds: "2",
    });
    expect(withPanelIdLists({ locationIds: "4, 5" })).toEqual({ locationIds: "4, 5" });
  });
});

describe("a Pterodactyl block against the panel's last check", () => {
  it("passes a block that fits, keeping only the egg's own variables", () => {
    const stale = { ...samp, environment: { ...samp.environment, SERVER_WEBPORT: "22005" } };
    expect(checkAgainstPanel(stale, snapshot)).toEqual({ ok: true, block: samp });
  });

  it("refuses each field that does not fit, with the egg's rule and its values", () => {
    const broken: PterodactylProvisioning = {
      ...samp,
      environment: { VERSION: "x".repeat(33), RCON_PASS: "  ", MAX_PLAYERS: "0100" },
      httpPortVariable: "SERVER_WEBPORT",
      locationIds: [1, 7],
      nodeIds: [8],
    };
    const result = checkAgainstPanel(broken, snapshot);
    expect(result).toEqual({
      ok: false,
      errors: [
        {
          field: "httpPortVariable",
          message: "admin-catalogue.products.provisioning.errors.variableUnknown",
          values: {},
        },
        {
          field: "locationIds",
          message: "admin-catalogue.products.provisioning.errors.locationUnknown",
          values: {},
        },
        {
          field: "nodeIds",
          message: "admin-catalogue.products.provisioning.errors.nodeUnknown",
          values: {},
        },
        {
          field: "env.VERSION",
          message: "admin-catalogue.products.provisioning.rules.maxLength",
          values: { max: 32 },
        },
        {
          field: "env.RCON_PASS",
          message: "admin-catalogue.products.provisioning.rules.required",
          values: {},
        },
        // PHP's FILTER_VALIDATE_INT refuses a leading zero; one message a field, the first.
        {
          field: "env.MAX_PLAYERS",
          message: "admin-catalogue.products.provisioning.rules.integer",
          values: {},
        },
      ],
    });
  });

  it("checks a variable given a random value on a value of that kind, and keeps no value of its own", () => {
    const generated: PterodactylProvisioning = {
      ...samp,
      // RCON_PASS is required with no default: a random value stands in for it.
      environment: { VERSION: "0.3.7", RCON_PASS: "typed-before", MAX_PLAYERS: "100" },
      generatedVariables: ["RCON_PASS", "SERVER_WEBPORT"],
    };
    expect(checkAgainstPanel(generated, snapshot)).toEqual({
      ok: true,
      block: {
        ...samp,
        environment: { VERSION: "0.3.7", MAX_PLAYERS: "100" },
        generatedVariables: ["RCON_PASS"],
      },
    });
    // An integer can never be drawn from letters and digits: refused on the value's field.
    expect(
      checkAgainstPanel(
        { ...samp, slotsVariable: null, generatedVariables: ["MAX_PLAYERS"] },
        snapshot,
      ),
    ).toEqual({
      ok: false,
      errors: [
        {
          field: "env.MAX_PLAYERS",
          message: "admin-catalogue.products.provisioning.errors.generatedRefused",
          values: { rules: "required|integer|between:1,1000" },
        },
      ],
    });
    // A list of none is stored as no list.
    expect(
      checkAgainstPanel({ ...samp, generatedVariables: ["SERVER_WEBPORT"] }, snapshot),
    ).toEqual({ ok: true, block: samp });
  });

  it("refuses an egg the panel did not have, and any block before the panel was checked", () => {
    const egg = "admin-catalogue.products.provisioning.errors.eggUnknown";
    expect(checkAgainstPanel({ ...samp, eggId: 99 }, snapshot)).toEqual({
      ok: false,
      errors: [{ field: "eggId", message: egg, values: {} }],
    });
    // The egg of another nest than the block names.
    expect(checkAgainstPanel({ ...samp, nestId: 1 }, snapshot)).toEqual({
      ok: false,
      errors: [{ field: "eggId", message: egg, values: {} }],
    });
    expect(checkAgainstPanel(samp, null)).toEqual({
      ok: false,
      errors: [
        {
          field: "provisioner",
          message: "admin-catalogue.products.provisioning.errors.panelNotChecked",
          values: {},
        },
      ],
    });
  });
});
