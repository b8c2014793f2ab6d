import { describe, expect, it } from "vitest";
import { BACKUP_IDS } from "~/domain/orders/orders";
import { sampProvisioning } from "../../../tests/support/provisioning-fixtures";
import {
  acceptsGeneratedValue,
  backupLimitFor,
  EGG_RULE_MESSAGES,
  EGG_RULES,
  generatedEnvironment,
  GENERATED_VALUE_ALPHABET,
  GENERATED_VALUE_LENGTH,
  GENERATED_VALUE_SAMPLE,
  isSecretVariable,
  MTA_ANNOUNCE_OFFSET,
  mtaEnvironment,
  nodeHasRoom,
  PANEL_STATE_LABELS,
  panelLocationsFor,
  pickAcrossNodes,
  pickAllocations,
  PORT_LAYOUT_LABELS,
  serverBuildFor,
  validateEggVariables,
  type EggVariable,
  type PanelAllocation,
  type PanelNode,
  type PterodactylProvisioning,
} from "./provisioning";

function node(overrides: Partial<PanelNode> = {}): PanelNode {
  return {
    id: 1,
    locationId: 1,
    memoryMb: 8192,
    memoryOverallocate: 0,
    diskMb: 100_000,
    diskOverallocate: 0,
    allocatedMemoryMb: 0,
    allocatedDiskMb: 0,
    maintenance: false,
    ...overrides,
  };
}

let nextId = 1;
/** Free allocations on one IP and node, one a port, ids in the order given. */
function ports(list: number[], options: { ip?: string; nodeId?: number } = {}): PanelAllocation[] {
  return list.map((port) => ({
    id: nextId++,
    nodeId: options.nodeId ?? 1,
    ip: options.ip ?? "10.0.0.1",
    port,
    assigned: false,
  }));
}

const none = new Set<number>();

describe("label families", () => {
  it("has a key for every layout and panel state", () => {
    expect(PORT_LAYOUT_LABELS.mta).toBe("products.provisioning.layouts.mta");
    expect(PANEL_STATE_LABELS.installing).toBe("panelStates.installing");
  });
});

describe("nodeHasRoom", () => {
  it("takes a server up to the node's size exactly, and not one MB more", () => {
    const full = node({ memoryMb: 4096, allocatedMemoryMb: 3072 });
    expect(nodeHasRoom(full, { memoryMb: 1024, diskMb: 1 })).toBe(true);
    expect(nodeHasRoom(full, { memoryMb: 1025, diskMb: 1 })).toBe(false);
  });

  it("counts disk as memory is counted", () => {
    const disk = node({ diskMb: 10_000, allocatedDiskMb: 9_000 });
    expect(nodeHasRoom(disk, { memoryMb: 1, diskMb: 1_000 })).toBe(true);
    expect(nodeHasRoom(disk, { memoryMb: 1, diskMb: 1_001 })).toBe(false);
  });

  it("lets a node promise its overallocation percent more", () => {
    // 4096 + 50 % = 6144.
    const over = node({ memoryMb: 4096, memoryOverallocate: 50, allocatedMemoryMb: 5120 });
    expect(nodeHasRoom(over, { memoryMb: 1024, diskMb: 1 })).toBe(true);
    expect(nodeHasRoom(over, { memoryMb: 1025, diskMb: 1 })).toBe(false);
    // 1000 + 33 % = 1330: a boundary a float product (1000 * 1.33) could miss.
    const odd = node({ diskMb: 1000, diskOverallocate: 33, allocatedDiskMb: 1000 });
    expect(nodeHasRoom(odd, { memoryMb: 1, diskMb: 330 })).toBe(true);
    expect(nodeHasRoom(odd, { memoryMb: 1, diskMb: 331 })).toBe(false);
  });

  it("reads -1 as no limit, for memory and disk apart", () => {
    const memoryUnlimited = node({
      memoryMb: 1024,
      memoryOverallocate: -1,
      allocatedMemoryMb: 50_000,
    });
    expect(nodeHasRoom(memoryUnlimited, { memoryMb: 99_999, diskMb: 1 })).toBe(true);
    expect(nodeHasRoom(memoryUnlimited, { memoryMb: 1, diskMb: 100_001 })).toBe(false);
    const diskUnlimited = node({ diskMb: 1, diskOverallocate: -1, allocatedDiskMb: 9_999 });
    expect(nodeHasRoom(diskUnlimited, { memoryMb: 1, diskMb: 1_000_000 })).toBe(true);
  });

  it("never places on a node in maintenance", () => {
    expect(nodeHasRoom(node({ maintenance: true }), { memoryMb: 1, diskMb: 1 })).toBe(false);
    expect(
      nodeHasRoom(node({ maintenance: true, memoryOverallocate: -1, diskOverallocate: -1 }), {
        memoryMb: 1,
        diskMb: 1,
      }),
    ).toBe(false);
  });
});

/** What pickAllocations picks for one layout, with nothing taken by a job unless said. */
function pickFor(layout: "single" | "mta") {
  return (allocations: PanelAllocation[], taken: Set<number> = none) =>
    pickAllocations({ layout, allocations, taken });
}
const single = pickFor("single");
const mta = pickFor("mta");
/** The ports an MTA pick takes among these free ports of one IP. */
const mtaPorts = (list: number[]) => mta(ports(list))?.ports;

describe("pickAllocations, one port", () => {
  it("takes the lowest free port, whatever order the panel listed them in", () => {
    const allocations = ports([7779, 7777, 7778]);
    const pick = single(allocations);
    expect(pick).toEqual({
      ip: "10.0.0.1",
      defaultId: allocations[1]!.id,
      additionalIds: [],
      ports: { game: 7777 },
    });
    expect(single([...allocations].reverse())).toEqual(pick);
  });

  it("skips assigned allocations and those a job of ours has taken", () => {
    const allocations = ports([7777, 7778, 7779]);
    allocations[0]!.assigned = true;
    const pick = single(allocations, new Set([allocations[1]!.id]));
    expect(pick?.ports.game).toBe(7779);
    expect(pick?.defaultId).toBe(allocations[2]!.id);
  });

  it("finds nothing on a full node", () => {
    const allocations = ports([7777]);
    allocations[0]!.assigned = true;
    expect(single(allocations)).toBeNull();
    expect(single([])).toBeNull();
  });

  it("breaks a tie between IPs by address", () => {
    const allocations = [
      ...ports([7777], { ip: "10.0.0.2" }),
      ...ports([7777], { ip: "10.0.0.1" }),
    ];
    expect(single(allocations)?.ip).toBe("10.0.0.1");
  });
});

describe("pickAllocations, MTA", () => {
  it("takes P, P + 123 and the lowest other port as HTTP, all on one IP", () => {
    const allocations = ports([22003, 22005, 22126, 22127]);
    expect(mta(allocations)).toEqual({
      ip: "10.0.0.1",
      defaultId: allocations[0]!.id,
      additionalIds: [allocations[2]!.id, allocations[1]!.id],
      ports: { game: 22003, announce: 22003 + MTA_ANNOUNCE_OFFSET, http: 22005 },
    });
  });

  it("may take an HTTP port below the game port", () => {
    expect(mtaPorts([22000, 22003, 22126])).toEqual({ game: 22003, announce: 22126, http: 22000 });
  });

  it("never uses P or P + 123 as the HTTP port: two ports are no set", () => {
    expect(mta(ports([22003, 22126]))).toBeNull();
  });

  it("refuses a P + 123 on another IP", () => {
    const allocations = [
      ...ports([22003, 22005], { ip: "10.0.0.1" }),
      ...ports([22126, 22127], { ip: "10.0.0.2" }),
    ];
    expect(mta(allocations)).toBeNull();
  });

  it("refuses a P + 123 that is assigned or taken, and moves on to the next P", () => {
    const allocations = ports([22003, 22005, 22126, 22010, 22133]);
    allocations[2]!.assigned = true;
    expect(mta(allocations)?.ports).toEqual({ game: 22010, announce: 22133, http: 22003 });
    const fresh = ports([22003, 22005, 22126, 22010, 22133]);
    expect(mta(fresh, new Set([fresh[2]!.id]))?.ports.game).toBe(22010);
    // Every candidate set broken: none.
    const broken = ports([22003, 22005, 22126]);
    expect(mta(broken, new Set([broken[1]!.id]))).toBeNull();
  });

  it("does not take an HTTP port that is taken", () => {
    const allocations = ports([22003, 22004, 22005, 22126]);
    const pick = mta(allocations, new Set([allocations[1]!.id]));
    expect(pick?.ports.http).toBe(22005);
    expect(pick?.additionalIds).toEqual([allocations[3]!.id, allocations[2]!.id]);
  });

  it("takes a P whose P + 123 is another set's P, keeping that one's ports intact", () => {
    // 22003 + 123 = 22126, 22126 + 123 = 22249.
    expect(mtaPorts([22003, 22126, 22249])).toEqual({ game: 22003, announce: 22126, http: 22249 });
  });

  it("prefers the IP with the lowest P, then the lower address", () => {
    const allocations = [
      ...ports([22010, 22133, 22134], { ip: "10.0.0.1" }),
      ...ports([22003, 22126, 22127], { ip: "10.0.0.3" }),
      ...ports([22003, 22126, 22127], { ip: "10.0.0.2" }),
    ];
    expect(mta(allocations)?.ip).toBe("10.0.0.2");
  });

  it("uses one allocation per IP and port when the panel lists one twice", () => {
    const [first] = ports([22003]);
    const duplicate = { ...first!, id: first!.id + 1000 };
    // The duplicate is no third port.
    expect(mta([duplicate, first!, ...ports([22126])])).toBeNull();
  });
});

describe("pickAcrossNodes", () => {
  type Request = Parameters<typeof pickAcrossNodes>[0];
  /** Where a server of 1 GB and 10 GB goes among `nodes`: one port and nothing taken unless said. */
  const place = (
    nodes: Request["nodes"],
    request: Pick<Request, "locationIds"> & Partial<Request>,
  ) =>
    pickAcrossNodes({
      nodes,
      layout: "single",
      taken: none,
      needs: { memoryMb: 1024, diskMb: 10_000 },
      ...request,
    });

  it("says when no node serves the locations", () => {
    const nodes = [{ node: node({ locationId: 2 }), allocations: ports([7777]) }];
    expect(place(nodes, { locationIds: [1] })).toEqual({ ok: false, reason: "noNodeInLocation" });
    expect(place(nodes, { locationIds: [] })).toEqual({ ok: false, reason: "noNodeInLocation" });
  });

  it("says when the nodes there are full or in maintenance", () => {
    const nodes = [
      { node: node({ id: 1, allocatedMemoryMb: 8000 }), allocations: ports([7777], { nodeId: 1 }) },
      { node: node({ id: 2, maintenance: true }), allocations: ports([7777], { nodeId: 2 }) },
    ];
    expect(place(nodes, { locationIds: [1] })).toEqual({ ok: false, reason: "noRoom" });
  });

  it("says when the nodes with room have no fitting ports", () => {
    const nodes = [{ node: node(), allocations: ports([22003, 22005]) }];
    expect(place(nodes, { layout: "mta", locationIds: [1] })).toEqual({
      ok: false,
      reason: "noPorts",
    });
  });

  it("takes the least loaded node by share of memory, ties by id", () => {
    const nodes = [
      // Half full.
      {
        node: node({ id: 1, memoryMb: 8192, allocatedMemoryMb: 4096 }),
        allocations: ports([1], { nodeId: 1 }),
      },
      // A quarter full, but more megabytes promised than node 1.
      {
        node: node({ id: 2, memoryMb: 32768, allocatedMemoryMb: 8192 }),
        allocations: ports([2], { nodeId: 2 }),
      },
      // A quarter full too: the tie goes to the lower id.
      {
        node: node({ id: 3, memoryMb: 4096, allocatedMemoryMb: 1024 }),
        allocations: ports([3], { nodeId: 3 }),
      },
    ];
    const placed = place(nodes, { locationIds: [1] });
    expect(placed).toMatchObject({ ok: true, nodeId: 2, pick: { ports: { game: 2 } } });
  });

  it("moves on to the next node when the least loaded has no ports", () => {
    const busy = ports([7777], { nodeId: 1 });
    const nodes = [
      { node: node({ id: 1 }), allocations: busy },
      { node: node({ id: 2, allocatedMemoryMb: 4096 }), allocations: ports([7777], { nodeId: 2 }) },
    ];
    const placed = place(nodes, { taken: new Set([busy[0]!.id]), locationIds: [1] });
    expect(placed).toMatchObject({ ok: true, nodeId: 2 });
  });

  it("keeps to the product's nodes, with or without locations", () => {
    const nodes = [
      { node: node({ id: 1 }), allocations: ports([1], { nodeId: 1 }) },
      {
        node: node({ id: 2, locationId: 2, allocatedMemoryMb: 100 }),
        allocations: ports([2], { nodeId: 2 }),
      },
    ];
    expect(place(nodes, { locationIds: [1, 2], nodeIds: [2] })).toMatchObject({
      ok: true,
      nodeId: 2,
    });
    expect(place(nodes, { locationIds: [], nodeIds: [2] })).toMatchObject({ ok: true, nodeId: 2 });
    expect(place(nodes, { locationIds: [1], nodeIds: [2] })).toEqual({
      ok: false,
      reason: "noNodeInLocation",
    });
  });

  it("ignores an allocation listed under the wrong node", () => {
    const nodes = [{ node: node({ id: 1 }), allocations: ports([7777], { nodeId: 9 }) }];
    expect(place(nodes, { locationIds: [1] })).toEqual({ ok: false, reason: "noPorts" });
  });
});

describe("panelLocationsFor", () => {
  const map = { germany: [1, 2], usa: [3], uk: [] };

  it("uses the order's locations when the product names none", () => {
    expect(panelLocationsFor("germany", map, [])).toEqual([1, 2]);
  });

  it("keeps the product's among the order's", () => {
    expect(panelLocationsFor("germany", map, [2, 5])).toEqual([2]);
    expect(panelLocationsFor("usa", map, [1, 2])).toEqual([]);
  });

  it("uses the product's when the order's location is not mapped", () => {
    expect(panelLocationsFor("france", map, [4])).toEqual([4]);
    expect(panelLocationsFor("uk", map, [4, 4])).toEqual([4]);
    expect(panelLocationsFor("france", map, [])).toEqual([]);
    // A location named like an object's property is no mapping.
    expect(panelLocationsFor("constructor", map, [4])).toEqual([4]);
  });
});

const product = sampProvisioning({
  nestId: 1,
  eggId: 5,
  dockerImage: "ghcr.io/pterodactyl/yolks:debian",
  databases: 1,
  environment: { HOSTNAME: "Hostfront server", RCON_PASSWORD: "changeme" },
});

const order = { playerSlots: 100, backup: "choliba", ddosProtection: true, location: "germany" };

const eggVariables: EggVariable[] = [
  egg("MAX_PLAYERS", "50", "required|integer|between:1,1000"),
  egg("HOSTNAME", "SA-MP server", "required|string|max:64"),
  egg("WEB_PORT", "22005", "required|integer"),
  egg("VERSION", "latest", "required|string"),
];

function egg(envVariable: string, defaultValue: string, rules: string): EggVariable {
  return { name: envVariable, envVariable, defaultValue, rules, userEditable: true };
}

describe("serverBuildFor", () => {
  it("sends the product's limits", () => {
    const build = serverBuildFor(product, order);
    expect(build.limits).toEqual({ memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 100 });
    expect(build.featureLimits).toEqual({ databases: 1, allocations: 1, backups: 1 });
  });

  it("lays the egg's defaults, then the product's values, then the order's slots", () => {
    const build = serverBuildFor(product, order, { eggVariables });
    expect(build.environment).toEqual({
      MAX_PLAYERS: "100",
      HOSTNAME: "Hostfront server",
      WEB_PORT: "22005",
      VERSION: "latest",
      RCON_PASSWORD: "changeme",
    });
  });

  it("leaves the slots variable alone without slots or without a slots variable", () => {
    expect(
      serverBuildFor(product, { ...order, playerSlots: null }, { eggVariables }).environment
        .MAX_PLAYERS,
    ).toBe("50");
    expect(
      serverBuildFor({ ...product, slotsVariable: null }, order, { eggVariables }).environment
        .MAX_PLAYERS,
    ).toBe("50");
  });

  it("gives backups by the order's choice", () => {
    const backups = (productBackups: number, backup: string) =>
      serverBuildFor({ ...product, backups: productBackups }, { ...order, backup }).featureLimits
        .backups;
    expect(backups(3, "none")).toBe(0);
    expect(backups(0, "choliba")).toBe(1);
    expect(backups(3, "choliba")).toBe(3);
    expect(backups(0, "premium")).toBe(2);
    expect(backups(3, "premium")).toBe(5);
    // An old order's unknown value is the free default.
    expect(backups(0, "weekly")).toBe(1);
    // Every backup the order form offers has its own answer here: a choice added to the form fails
    // this until it is given one (an unknown value falls back to the free default, which may not be
    // what the new choice means).
    expect(Object.fromEntries(BACKUP_IDS.map((id) => [id, backupLimitFor(1, id)]))).toEqual({
      none: 0,
      choliba: 1,
      premium: 3,
    });
  });

  it("records DDoS protection, which the panel has no setting for", () => {
    expect(serverBuildFor(product, order).notes).toEqual({ ddosProtection: true });
    expect(serverBuildFor(product, { ...order, ddosProtection: false }).notes).toEqual({
      ddosProtection: false,
    });
  });

  it("writes MTA's HTTP port into the product's variable once the ports are picked", () => {
    const mta: PterodactylProvisioning = {
      ...product,
      portLayout: "mta",
      allocations: 3,
      httpPortVariable: "WEB_PORT",
    };
    const ports = { game: 22003, announce: 22126, http: 22005 };
    const build = serverBuildFor(mta, order, {
      eggVariables,
      ports: { ...ports, http: 22010 },
    });
    expect(build.environment.WEB_PORT).toBe("22010");
    expect(build.featureLimits.allocations).toBe(3);
    // Before the ports are picked, the egg's default stands.
    expect(serverBuildFor(mta, order, { eggVariables }).environment.WEB_PORT).toBe("22005");
  });
});

describe("mtaEnvironment", () => {
  const ports = { game: 22003, announce: 22126, http: 22005 };

  it("fills the variables named, and only those", () => {
    expect(mtaEnvironment(ports, { http: "SERVER_WEBPORT" })).toEqual({ SERVER_WEBPORT: "22005" });
    expect(mtaEnvironment(ports, { game: "GAME_PORT", announce: "ASE_PORT", http: "WEB" })).toEqual(
      { GAME_PORT: "22003", ASE_PORT: "22126", WEB: "22005" },
    );
    expect(mtaEnvironment(ports, { http: null })).toEqual({});
  });
});

describe("validateEggVariables", () => {
  /** The errors of one variable's rules for one value, as [rule, message, values]. */
  function errorsOf(rules: string, value: string | undefined, defaultValue = "") {
    const result = validateEggVariables(
      [egg("VAR", defaultValue, rules)],
      value === undefined ? {} : { VAR: value },
    );
    return result.errors.map((error) => [error.rule, error.message, error.values]);
  }
  function uncheckedOf(rules: string, value: string) {
    return validateEggVariables([egg("VAR", "", rules)], { VAR: value }).unchecked.map(
      (entry) => entry.rule,
    );
  }

  it("takes the egg's default for a value left out", () => {
    expect(errorsOf("required|integer", undefined, "25")).toEqual([]);
    expect(errorsOf("required|integer", undefined, "lots")).toEqual([
      ["integer", EGG_RULE_MESSAGES.integer, {}],
    ]);
    expect(errorsOf("required", undefined, "")).toEqual([
      ["required", EGG_RULE_MESSAGES.required, {}],
    ]);
  });

  it("reads a blank value as empty, as the panel trims it", () => {
    expect(errorsOf("required|string", "   ")).toEqual([
      ["required", EGG_RULE_MESSAGES.required, {}],
    ]);
    expect(errorsOf("required|max:3", "  abc  ")).toEqual([]);
  });

  it("lets an empty value through nullable, but not through required", () => {
    expect(errorsOf("nullable|string|max:20|integer", "")).toEqual([]);
    expect(errorsOf("nullable|required|string", "")).toEqual([
      ["required", EGG_RULE_MESSAGES.required, {}],
    ]);
    // Without nullable, an empty value is no string, no number.
    expect(errorsOf("string|max:20", "")).toEqual([["string", EGG_RULE_MESSAGES.string, {}]]);
    expect(errorsOf("sometimes|integer", "")).toEqual([["integer", EGG_RULE_MESSAGES.integer, {}]]);
  });

  it("checks integers and numbers as PHP reads them", () => {
    for (const good of ["0", "-5", "+7", "9223372036854775807"])
      expect(errorsOf("integer", good), good).toEqual([]);
    for (const bad of ["007", "1.0", "1e3", "9223372036854775808", "12a"])
      expect(errorsOf("integer", bad), bad).toEqual([["integer", EGG_RULE_MESSAGES.integer, {}]]);
    for (const good of ["1.5", ".5", "5.", "-1e3", "+0.0"])
      expect(errorsOf("numeric", good), good).toEqual([]);
    for (const bad of ["0x1A", "1,5", "abc", "1e"])
      expect(errorsOf("numeric", bad), bad).toEqual([["numeric", EGG_RULE_MESSAGES.numeric, {}]]);
  });

  it("takes only 0 and 1 as booleans, as Laravel does", () => {
    expect(errorsOf("required|boolean", "1")).toEqual([]);
    expect(errorsOf("required|boolean", "0")).toEqual([]);
    expect(errorsOf("required|boolean", "true")).toEqual([
      ["boolean", EGG_RULE_MESSAGES.boolean, {}],
    ]);
  });

  it("measures min, max and between on a number's value and on a text's length", () => {
    expect(errorsOf("integer|max:100", "150")).toEqual([
      ["max", EGG_RULE_MESSAGES.maxNumber, { max: 100 }],
    ]);
    // Without a numeric rule, "150" is three characters.
    expect(errorsOf("string|max:100", "150")).toEqual([]);
    expect(errorsOf("string|max:2", "150")).toEqual([
      ["max", EGG_RULE_MESSAGES.maxLength, { max: 2 }],
    ]);
    expect(errorsOf("numeric|min:1.5", "1.4")).toEqual([
      ["min", EGG_RULE_MESSAGES.minNumber, { min: 1.5 }],
    ]);
    expect(errorsOf("string|min:3", "ab")).toEqual([
      ["min", EGG_RULE_MESSAGES.minLength, { min: 3 }],
    ]);
    expect(errorsOf("integer|between:10,20", "21")).toEqual([
      ["between", EGG_RULE_MESSAGES.betweenNumber, { min: 10, max: 20 }],
    ]);
    expect(errorsOf("integer|between:10,20", "10")).toEqual([]);
    expect(errorsOf("string|between:10,20", "15")).toEqual([
      ["between", EGG_RULE_MESSAGES.betweenLength, { min: 10, max: 20 }],
    ]);
    // Characters, not bytes or UTF-16 units.
    expect(errorsOf("string|max:3", "éè😀")).toEqual([]);
    // A numeric rule that fails leaves max to the length, as Laravel's size does.
    expect(errorsOf("integer|max:5", "abc")).toEqual([["integer", EGG_RULE_MESSAGES.integer, {}]]);
  });

  it("checks in, digits and digits_between", () => {
    expect(errorsOf("in:vanilla,oxide,carbon", "oxide")).toEqual([]);
    expect(errorsOf("in:vanilla,oxide", "Oxide")).toEqual([
      ["in", EGG_RULE_MESSAGES.in, { values: "vanilla, oxide" }],
    ]);
    // PHP compares numeric strings as numbers.
    expect(errorsOf("in:1,2", "1.0")).toEqual([]);
    expect(errorsOf('in:"a,b",c', "a,b")).toEqual([]);
    expect(errorsOf("digits:4", "0420")).toEqual([]);
    expect(errorsOf("digits:4", "420")).toEqual([
      ["digits", EGG_RULE_MESSAGES.digits, { digits: 4 }],
    ]);
    expect(errorsOf("digits:4", "4.20")).toEqual([
      ["digits", EGG_RULE_MESSAGES.digits, { digits: 4 }],
    ]);
    expect(errorsOf("digits_between:2,4", "123")).toEqual([]);
    expect(errorsOf("digits_between:2,4", "12345")).toEqual([
      ["digits_between", EGG_RULE_MESSAGES.digitsBetween, { min: 2, max: 4 }],
    ]);
    expect(errorsOf("digits_between:2,4", "1.2")).toEqual([
      ["digits_between", EGG_RULE_MESSAGES.digitsBetween, { min: 2, max: 4 }],
    ]);
  });

  it("checks alpha_num, alpha_dash and url", () => {
    expect(errorsOf("alpha_num", "Serveur2")).toEqual([]);
    expect(errorsOf("alpha_num", "خادم1")).toEqual([]);
    expect(errorsOf("alpha_num:ascii", "خادم1")).toEqual([
      ["alpha_num", EGG_RULE_MESSAGES.alphaNum, {}],
    ]);
    expect(errorsOf("alpha_num", "my server")).toEqual([
      ["alpha_num", EGG_RULE_MESSAGES.alphaNum, {}],
    ]);
    expect(errorsOf("alpha_dash", "my-server_2")).toEqual([]);
    expect(errorsOf("alpha_dash", "my.server")).toEqual([
      ["alpha_dash", EGG_RULE_MESSAGES.alphaDash, {}],
    ]);
    expect(errorsOf("url", "https://example.com/pack.zip")).toEqual([]);
    expect(errorsOf("url", "example.com")).toEqual([["url", EGG_RULE_MESSAGES.url, {}]]);
    expect(errorsOf("url", "https://exa mple.com")).toEqual([["url", EGG_RULE_MESSAGES.url, {}]]);
  });

  it("checks a regex rule, PHP delimiters and all", () => {
    const jar = "required|regex:/^([\\w\\d._-]+)(\\.jar)$/";
    expect(errorsOf(jar, "server.jar")).toEqual([]);
    expect(errorsOf(jar, "server.zip")).toEqual([
      ["regex", EGG_RULE_MESSAGES.regex, { pattern: "/^([\\w\\d._-]+)(\\.jar)$/" }],
    ]);
    // Commas belong to the pattern, not to a parameter list.
    expect(errorsOf("regex:/^[0-9]{1,3}$/", "12")).toEqual([]);
    expect(errorsOf("regex:#^[a-z]+$#i", "ABC")).toEqual([]);
  });

  it("reports a regex split at its | as the panel's own failure", () => {
    // Laravel splits "regex:/^(true|false)$/" into "regex:/^(true" and "false)$/".
    expect(errorsOf("required|regex:/^(true|false)$/", "true")).toEqual([
      ["regex", EGG_RULE_MESSAGES.regexBroken, { pattern: "/^(true" }],
    ]);
    expect(uncheckedOf("required|regex:/^(true|false)$/", "true")).toEqual(["false)$/"]);
  });

  it("leaves a pattern it cannot run to the panel", () => {
    expect(errorsOf("regex:/^(?>a+)$/", "b")).toEqual([]);
    expect(uncheckedOf("regex:/^(?>a+)$/", "b")).toEqual(["regex:/^(?>a+)$/"]);
    // A pattern that can backtrack for ages is never run.
    expect(uncheckedOf("regex:/^(a+)+$/", `${"a".repeat(40)}b`)).toEqual(["regex:/^(a+)+$/"]);
    // Nor is a value too long to be sure of.
    expect(uncheckedOf("regex:/^a+$/", "a".repeat(300))).toEqual(["regex:/^a+$/"]);
  });

  it("checks every rule it lists", () => {
    const parameters: Partial<Record<(typeof EGG_RULES)[number], string>> = {
      min: ":1",
      max: ":9",
      between: ":1,9",
      in: ":a,b",
      regex: ":/^a$/",
      digits: ":1",
      digits_between: ":1,2",
    };
    for (const rule of EGG_RULES)
      expect(uncheckedOf(`${rule}${parameters[rule] ?? ""}`, "a"), rule).toEqual([]);
  });

  it("lists the rules it does not check, and passes on", () => {
    expect(uncheckedOf("required|string|required_if:OTHER,1|ip", "x")).toEqual([
      "required_if:OTHER,1",
      "ip",
    ]);
    expect(uncheckedOf("max:lots", "x")).toEqual(["max:lots"]);
    expect(errorsOf("required|string|required_if:OTHER,1|ip", "x")).toEqual([]);
  });

  it("reads rule names as Laravel does, in any case or spelling", () => {
    expect(errorsOf("REQUIRED|Digits-Between:2,3", "1")).toEqual([
      ["digits-between", EGG_RULE_MESSAGES.digitsBetween, { min: 2, max: 3 }],
    ]);
    expect(errorsOf("required||string", "x")).toEqual([]);
  });

  it("stops a variable's checks after a failed required, or at the first failure with bail", () => {
    expect(errorsOf("required|integer|min:5", "")).toHaveLength(1);
    expect(errorsOf("integer|min:5", "abc")).toHaveLength(2);
    expect(errorsOf("bail|integer|min:5", "abc")).toEqual([
      ["integer", EGG_RULE_MESSAGES.integer, {}],
    ]);
  });

  it("checks every variable, editable or not, and names each error's variable", () => {
    const result = validateEggVariables(
      [
        { ...egg("A", "x", "required|integer"), userEditable: false },
        egg("B", "1", "required|integer"),
      ],
      { B: "2" },
    );
    expect(result.ok).toBe(false);
    expect(result.errors.map((error) => error.envVariable)).toEqual(["A"]);
    expect(validateEggVariables(eggVariables, {}).ok).toBe(true);
  });
});

describe("values drawn for each server", () => {
  it("draws each value from the whole alphabet, one draw a character", () => {
    const draws: number[] = [];
    let next = 0;
    const values = generatedEnvironment(["RCON_PASS", "ADMIN_PASSWORD"], (bound) => {
      draws.push(bound);
      return next++ % bound;
    });
    expect(Object.keys(values)).toEqual(["RCON_PASS", "ADMIN_PASSWORD"]);
    expect(values.RCON_PASS).toBe(GENERATED_VALUE_ALPHABET.slice(0, GENERATED_VALUE_LENGTH));
    expect(values.ADMIN_PASSWORD).toBe(
      GENERATED_VALUE_ALPHABET.slice(GENERATED_VALUE_LENGTH, 2 * GENERATED_VALUE_LENGTH),
    );
    // The bound is the alphabet's length: every character can come out, none more often.
    expect(new Set(draws)).toEqual(new Set([62]));
    expect(GENERATED_VALUE_ALPHABET).toHaveLength(62);
    expect(generatedEnvironment([], () => 0)).toEqual({});
  });

  it("checks rules on a sample of the drawn kind", () => {
    expect(GENERATED_VALUE_SAMPLE).toMatch(
      new RegExp(`^[${GENERATED_VALUE_ALPHABET}]{${GENERATED_VALUE_LENGTH}}$`),
    );
    // Upper case, lower case and digits, as a drawn value may hold.
    expect(GENERATED_VALUE_SAMPLE).toMatch(/[A-Z]/);
    expect(GENERATED_VALUE_SAMPLE).toMatch(/[a-z]/);
    expect(GENERATED_VALUE_SAMPLE).toMatch(/\d/);
    const variable = (rules: string): EggVariable => ({
      name: "Rcon password",
      envVariable: "RCON_PASS",
      defaultValue: "",
      rules,
      userEditable: true,
    });
    expect(acceptsGeneratedValue(variable("required|string|max:32"))).toBe(true);
    expect(acceptsGeneratedValue(variable("required|alpha_num|between:8,20"))).toBe(true);
    expect(acceptsGeneratedValue(variable("nullable|string"))).toBe(true);
    expect(acceptsGeneratedValue(variable("required|string|max:8"))).toBe(false);
    expect(acceptsGeneratedValue(variable("required|integer"))).toBe(false);
    expect(acceptsGeneratedValue(variable("required|in:true,false"))).toBe(false);
    expect(acceptsGeneratedValue(variable("required|regex:/^[a-z]+$/"))).toBe(false);
  });

  it("starts on for remote-admin passwords only", () => {
    for (const name of [
      "RCON_PASS",
      "RCON_PASSWORD",
      "rcon_password",
      "ADMIN_PASSWORD",
      "ADMINPASS",
    ])
      expect(isSecretVariable(name), name).toBe(true);
    // A join password locks players out when drawn; a Steam token must be the real one.
    for (const name of ["SERVER_PASSWORD", "STEAM_ACC", "GSLT_TOKEN", "MAX_PLAYERS", "VERSION"])
      expect(isSecretVariable(name), name).toBe(false);
  });
});
