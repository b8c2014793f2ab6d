/**
 * What `npm run bench:provisioning` counts as errors once the worker is done, from our services, the
 * panel's servers and our port claims: pure, so its rules are unit tested (provisioning-checks.test.ts).
 */

/** One of the run's services, as hosting_services holds it. */
export interface CheckedService {
  id: number;
  layout: "single" | "mta";
  panelState: string | null;
  panelServerId: number | null;
  /** `panel_address`: "ip:game port". */
  address: string | null;
  /** `panel_ports`, parsed. */
  ports: { game: number; announce?: number; http?: number } | null;
  /** The egg variables its plan draws anew for each server (an RCON password); absent: none. */
  drawn?: readonly string[];
}

/** A server on the panel, with the allocations assigned to it. */
export interface CheckedServer {
  id: number;
  externalId: string | null;
  allocationId: number;
  environment: Record<string, string>;
  allocations: readonly { id: number; ip: string; port: number }[];
}

export interface CheckedClaim {
  allocationId: number;
  serviceId: number;
}

export interface PanelOutcome {
  /** Services not `ready`. */
  notReady: number[];
  /** Our external ids (hf-svc-…) the panel has more than one server of. */
  madeTwice: string[];
  /** Services with no server of their external id on the panel. */
  missing: number[];
  /** Services whose panel_server_id is not the server of their external id. */
  wrongServer: number[];
  /** Ports (ip:port) given to more than one service, on the panel or in our records. */
  portsTwice: string[];
  /** Services whose server breaks its layout: one allocation; MTA's P, P + 123 and H on one IP. */
  layoutBroken: number[];
  /** Services whose recorded address and ports are not their server's. */
  recordedWrong: number[];
  /** Claims on an allocation that the claiming service's server does not hold (a port kept from use). */
  strayClaims: number;
  /** Services whose server lacks its own value of a drawn variable: empty, or another server's too. */
  secretsShared: number[];
}

export const externalIdOf = (serviceId: number) => `hf-svc-${serviceId}`;

/** Whether a server's allocations keep MTA's rule: three on one IP, the game port P, P + 123, and H. */
export function keepsMtaRule(server: CheckedServer, httpVariable: string): boolean {
  const main = server.allocations.find((allocation) => allocation.id === server.allocationId);
  if (!main || server.allocations.length !== 3) return false;
  if (server.allocations.some((allocation) => allocation.ip !== main.ip)) return false;
  const announce = server.allocations.find((allocation) => allocation.port === main.port + 123);
  const http = server.allocations.find(
    (allocation) => allocation !== main && allocation !== announce,
  );
  return Boolean(announce && http && server.environment[httpVariable] === String(http.port));
}

export function checkPanelOutcome(input: {
  services: readonly CheckedService[];
  servers: readonly CheckedServer[];
  claims: readonly CheckedClaim[];
  httpVariable: string;
}): PanelOutcome {
  const outcome: PanelOutcome = {
    notReady: [],
    madeTwice: [],
    missing: [],
    wrongServer: [],
    portsTwice: [],
    layoutBroken: [],
    recordedWrong: [],
    strayClaims: 0,
    secretsShared: [],
  };
  const byExternal = new Map<string, CheckedServer[]>();
  for (const server of input.servers) {
    if (!server.externalId) continue;
    const key = server.externalId.toLowerCase();
    byExternal.set(key, [...(byExternal.get(key) ?? []), server]);
  }
  for (const [externalId, servers] of byExternal)
    if (externalId.startsWith("hf-svc-") && servers.length > 1) outcome.madeTwice.push(externalId);

  // Each port once: every allocation of every server on the panel, and every port we recorded.
  const panelHolders = new Map<string, Set<number>>();
  const recordedHolders = new Map<string, Set<number>>();
  const hold = (map: Map<string, Set<number>>, key: string, holder: number) =>
    map.set(key, (map.get(key) ?? new Set()).add(holder));
  for (const server of input.servers)
    for (const allocation of server.allocations)
      hold(panelHolders, `${allocation.ip}:${allocation.port}`, server.id);

  const serverOf = new Map<number, CheckedServer>();
  for (const service of input.services) {
    if (service.panelState !== "ready") outcome.notReady.push(service.id);
    const server = byExternal.get(externalIdOf(service.id))?.[0];
    if (!server) {
      outcome.missing.push(service.id);
      continue;
    }
    serverOf.set(service.id, server);
    if (service.panelServerId !== server.id) outcome.wrongServer.push(service.id);
    const keeps =
      service.layout === "mta"
        ? keepsMtaRule(server, input.httpVariable)
        : server.allocations.length === 1 && server.allocations[0]!.id === server.allocationId;
    if (!keeps) outcome.layoutBroken.push(service.id);

    const main = server.allocations.find((allocation) => allocation.id === server.allocationId);
    const expected: Record<string, number> = {};
    if (main) {
      expected.game = main.port;
      if (service.layout === "mta") {
        const announce = server.allocations.find((a) => a.port === main.port + 123);
        const http = server.allocations.find((a) => a !== main && a !== announce);
        if (announce) expected.announce = announce.port;
        if (http) expected.http = http.port;
      }
    }
    const recorded = service.ports ?? {};
    const same =
      main !== undefined &&
      service.address === `${main.ip}:${main.port}` &&
      JSON.stringify(Object.entries(recorded).sort()) ===
        JSON.stringify(Object.entries(expected).sort());
    if (!same) outcome.recordedWrong.push(service.id);
    const host = service.address?.split(":")[0];
    if (host && service.ports)
      for (const port of Object.values(service.ports))
        hold(recordedHolders, `${host}:${port}`, service.id);
  }
  for (const map of [panelHolders, recordedHolders])
    for (const [port, holders] of map)
      if (holders.size > 1 && !outcome.portsTwice.includes(port)) outcome.portsTwice.push(port);

  // A drawn value is the server's own: a value two servers share is a password every customer knows.
  const drawnHolders = new Map<string, number[]>();
  for (const service of input.services) {
    const server = serverOf.get(service.id);
    if (!server) continue;
    for (const variable of service.drawn ?? []) {
      const value = server.environment[variable];
      if (!value) {
        if (!outcome.secretsShared.includes(service.id)) outcome.secretsShared.push(service.id);
        continue;
      }
      const key = `${variable}=${value}`;
      drawnHolders.set(key, [...(drawnHolders.get(key) ?? []), service.id]);
    }
  }
  for (const holders of drawnHolders.values())
    if (holders.length > 1)
      for (const id of holders)
        if (!outcome.secretsShared.includes(id)) outcome.secretsShared.push(id);
  outcome.secretsShared.sort((a, b) => a - b);

  for (const claim of input.claims) {
    const server = serverOf.get(claim.serviceId);
    if (!server?.allocations.some((allocation) => allocation.id === claim.allocationId))
      outcome.strayClaims += 1;
  }
  return outcome;
}
