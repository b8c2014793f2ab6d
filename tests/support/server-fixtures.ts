import type { ServerPageView, ServerStatusView } from "~/domain/servers/server-control";

// What the server page's tests render (app/features/servers): a running SA-MP server with its players,
// its access and its game settings.

export function statusView(overrides: Partial<ServerStatusView> = {}): ServerStatusView {
  return {
    serviceId: 7,
    state: "running",
    readAt: "2026-04-01T08:59:48.000Z",
    ageSeconds: 12,
    refreshing: false,
    readError: null,
    cpuPercent: 42,
    cpuLimitPercent: 200,
    memoryMib: 512,
    memoryLimitMib: 2048,
    diskMib: 3584,
    diskLimitMib: 10_240,
    uptimeSeconds: 93_780,
    players: { online: 7, max: 50, name: "Los Santos RP | Arabic" },
    playersError: null,
    lastAction: null,
    refusal: null,
    ...overrides,
  };
}

export function pageView(overrides: Partial<ServerPageView> = {}): ServerPageView {
  return {
    service: {
      id: 7,
      name: "SAMP Premium",
      serverName: "Los Santos RP",
      type: "samp",
      status: "active",
      address: "10.0.1.10:7777",
      ports: { game: 7777 },
    },
    status: statusView(),
    access: { host: "node1.panel.example", port: 2022, username: "alice.1a2b3c4d" },
    variables: [
      {
        env: "MAX_PLAYERS",
        name: "Max players",
        description: "How many may play at once.",
        value: "50",
        defaultValue: "50",
        rules: "required|integer|between:1,1000",
        editable: true,
      },
      {
        env: "SERVER_JAR",
        name: "Server binary",
        description: "The file the server runs.",
        value: "samp03svr",
        defaultValue: "samp03svr",
        rules: "required|string",
        editable: false,
      },
    ],
    panelLinks: {
      console: "https://panel.example/server/1a2b3c4d",
      files: "https://panel.example/server/1a2b3c4d/files",
      startup: "https://panel.example/server/1a2b3c4d/startup",
    },
    offlineNotice: false,
    ...overrides,
  };
}
