import { describe, expect, it } from "vitest";
import {
  buildPageView,
  buildStatusView,
  hasPanelServer,
  isReadable,
  parseAccess,
  parseVariables,
  stateOfPanel,
  type ServerServiceRow,
  type ServerStatusRow,
} from "./server-status-view";

const NOW = new Date("2031-03-12T12:00:00.000Z");

const plan = {
  eggId: 2,
  dockerImage: "ghcr.io/parkervcp/games:samp",
  startup: "./samp03svr",
  portLayout: "single",
  locationIds: [1],
  limits: { memory: 1024, swap: 0, disk: 5120, io: 500, cpu: 150 },
  featureLimits: { databases: 0, allocations: 1, backups: 1 },
  environment: {},
};

function service(fields: Partial<ServerServiceRow> = {}): ServerServiceRow {
  return {
    id: 7,
    name: "SAMP Starter",
    server_name: "Karim RP",
    type: "samp",
    status: "active",
    panel_state: "ready",
    panel_plan: JSON.stringify(plan),
    panel_identifier: "abcd1234",
    panel_address: "10.0.1.10:7777",
    panel_ports: JSON.stringify({ game: 7777 }),
    offline_notice: 0,
    ...fields,
  };
}

function status(fields: Partial<ServerStatusRow> = {}): ServerStatusRow {
  return {
    state: "running",
    cpu_tenths: 425,
    memory_mib: 512,
    disk_mib: 900,
    uptime_seconds: 3600,
    read_at: "2031-03-12T11:59:48.000Z",
    read_error: null,
    game_name: "Karim RP | Roleplay",
    players_online: 12,
    players_max: 50,
    players_error: null,
    access: null,
    variables: null,
    ...fields,
  };
}

const view = (
  fields: Partial<Parameters<typeof buildStatusView>[0]> = {},
): ReturnType<typeof buildStatusView> =>
  buildStatusView({
    service: service(),
    status: status(),
    lastAction: null,
    refreshing: false,
    now: NOW,
    ...fields,
  });

describe("a server's card built from its rows", () => {
  it("shows the last state read with its age, the figures against the plan's limits and the players", () => {
    expect(view()).toEqual({
      serviceId: 7,
      state: "running",
      readAt: "2031-03-12T11:59:48.000Z",
      ageSeconds: 12,
      refreshing: false,
      readError: null,
      cpuPercent: 42.5,
      cpuLimitPercent: 150,
      memoryMib: 512,
      memoryLimitMib: 1024,
      diskMib: 900,
      diskLimitMib: 5120,
      uptimeSeconds: 3600,
      players: { online: 12, max: 50, name: "Karim RP | Roleplay" },
      playersError: null,
      lastAction: null,
      refusal: null,
    });
  });

  it("says it knows nothing yet before the first read, and that a read is under way", () => {
    const first = view({ status: null, refreshing: true });
    expect(first).toMatchObject({
      state: "unknown",
      readAt: null,
      ageSeconds: null,
      refreshing: true,
      cpuPercent: null,
      memoryMib: null,
      players: null,
    });
    // The plan's limits are known all the same; a plan that does not read has none (0).
    expect(first.memoryLimitMib).toBe(1024);
    expect(view({ service: service({ panel_plan: "{" }) }).memoryLimitMib).toBe(0);
  });

  it("keeps the last state with the reason the last read failed, and no players a query did not give", () => {
    const failed = view({ status: status({ read_error: "nodeDown" }) });
    expect(failed.state).toBe("running");
    expect(failed.readError).toBe("nodeDown");
    const quiet = view({
      status: status({ players_online: null, players_max: null, players_error: "noAnswer" }),
    });
    expect(quiet.players).toBeNull();
    expect(quiet.playersError).toBe("noAnswer");
    // Words the card does not know are not passed on.
    expect(view({ status: status({ read_error: "bogus", state: "exploded" }) })).toMatchObject({
      readError: null,
      state: "unknown",
    });
  });

  it("shows a server not ready on the panel by its panel state, without figures or a refresh", () => {
    for (const [panelState, state] of [
      ["pending", "installing"],
      ["creating", "installing"],
      ["installing", "installing"],
      ["suspended", "suspended"],
      ["failed", "unknown"],
    ] as const) {
      const card = view({ service: service({ panel_state: panelState }), refreshing: true });
      expect(card.state, panelState).toBe(state);
      expect(card.cpuPercent).toBeNull();
      expect(card.players).toBeNull();
      expect(card.refreshing).toBe(false);
      expect(card.refusal).not.toBeNull();
    }
    expect(stateOfPanel(null)).toBe("unknown");
  });

  it("refuses actions while suspended (ours, the panel's or read) or installing", () => {
    expect(view({ service: service({ status: "suspended" }) }).refusal).toBe("suspended");
    expect(view({ status: status({ state: "suspended" }) }).refusal).toBe("suspended");
    expect(view({ status: status({ state: "installing" }) }).refusal).toBe("installing");
    expect(view({ service: service({ panel_state: "installing" }) }).refusal).toBe("installing");
    expect(view({ status: status({ state: "offline" }) }).refusal).toBeNull();
  });

  it("shows the last action asked, and leaves out one it does not know", () => {
    const lastAction = {
      action: "restart",
      state: "failed",
      error: "services.server.refused.installing",
      created_at: "2031-03-12T11:58:00.000Z",
    };
    expect(view({ lastAction }).lastAction).toEqual({
      action: "restart",
      state: "failed",
      at: "2031-03-12T11:58:00.000Z",
      error: "services.server.refused.installing",
    });
    expect(view({ lastAction: { ...lastAction, action: "explode" } }).lastAction).toBeNull();
  });

  it("never gives a negative age to a clock a little behind the worker's", () => {
    expect(view({ status: status({ read_at: "2031-03-12T12:00:03.000Z" }) }).ageSeconds).toBe(0);
  });
});

describe("a server's page built from its rows", () => {
  const access = { host: "node1.example.test", port: 2022, username: "karim.abcd1234" };
  const variable = {
    env: "MAX_PLAYERS",
    name: "Max players",
    description: "Slots",
    value: "50",
    defaultValue: "50",
    rules: "required|integer|between:1,1000",
    editable: true,
  };

  it("gives the service, its access, its variables, the panel's pages and the notice switch", () => {
    const page = buildPageView({
      service: service({ offline_notice: 1 }),
      status: status({ access: JSON.stringify(access), variables: JSON.stringify([variable]) }),
      lastAction: null,
      refreshing: false,
      panelUrl: "https://panel.example.test/",
      now: NOW,
    });
    expect(page.service).toEqual({
      id: 7,
      name: "SAMP Starter",
      serverName: "Karim RP",
      type: "samp",
      status: "active",
      address: "10.0.1.10:7777",
      ports: { game: 7777 },
    });
    expect(page.access).toEqual(access);
    expect(page.variables).toEqual([variable]);
    expect(page.panelLinks).toEqual({
      console: "https://panel.example.test/server/abcd1234",
      files: "https://panel.example.test/server/abcd1234/files",
      startup: "https://panel.example.test/server/abcd1234/startup",
    });
    expect(page.offlineNotice).toBe(true);
    expect(page.status.state).toBe("running");
  });

  it("has no panel links without a panel or an identifier, nor access or variables not read yet", () => {
    const page = buildPageView({
      service: service({ panel_identifier: null, panel_state: "creating" }),
      status: null,
      lastAction: null,
      refreshing: false,
      panelUrl: "https://panel.example.test",
      now: NOW,
    });
    expect(page.panelLinks).toBeNull();
    expect(page.access).toBeNull();
    expect(page.variables).toEqual([]);
    expect(page.offlineNotice).toBe(false);
    expect(
      buildPageView({
        service: service(),
        status: null,
        lastAction: null,
        refreshing: false,
        panelUrl: null,
        now: NOW,
      }).panelLinks,
    ).toBeNull();
  });

  it("reads stored access and variables defensively", () => {
    expect(parseAccess("{")).toBeNull();
    expect(parseAccess(JSON.stringify({ host: "h", port: "2022", username: "u" }))).toBeNull();
    expect(parseVariables("{}")).toEqual([]);
    expect(parseVariables(JSON.stringify([{ env: "A" }, variable, null]))).toEqual([variable]);
    expect(parseVariables(JSON.stringify([{ env: "A", name: "A", value: "1" }]))).toEqual([
      {
        env: "A",
        name: "A",
        description: "",
        value: "1",
        defaultValue: "",
        rules: "",
        editable: false,
      },
    ]);
  });

  it("knows which services have a server and which are read", () => {
    expect(hasPanelServer({ panel_state: null })).toBe(false);
    expect(hasPanelServer({ panel_state: "deleted" })).toBe(false);
    expect(hasPanelServer({ panel_state: "failed" })).toBe(true);
    expect(isReadable({ panel_state: "ready", panel_identifier: "abcd1234" })).toBe(true);
    expect(isReadable({ panel_state: "ready", panel_identifier: null })).toBe(false);
    expect(isReadable({ panel_state: "suspended", panel_identifier: "abcd1234" })).toBe(false);
  });
});
