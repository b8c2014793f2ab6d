import type { PterodactylProvisioning } from "~/domain/provisioning/provisioning";

/**
 * A product's provisioning block as stored: a SA-MP plan on the panel's GTA nest (2) and SA-MP egg (2),
 * one port, no databases, nowhere in particular; a test overrides what it is about.
 */
export function sampProvisioning(
  overrides: Partial<PterodactylProvisioning> = {},
): PterodactylProvisioning {
  return {
    provisioner: "pterodactyl",
    nestId: 2,
    eggId: 2,
    dockerImage: "ghcr.io/parkervcp/games:samp",
    startup: "./samp03svr",
    memoryMb: 1024,
    swapMb: 0,
    diskMb: 5120,
    cpuPercent: 100,
    ioWeight: 500,
    databases: 0,
    backups: 1,
    allocations: 1,
    portLayout: "single",
    locationIds: [],
    nodeIds: [],
    environment: { VERSION: "0.3.7", RCON_PASS: "change-me-now" },
    slotsVariable: "MAX_PLAYERS",
    httpPortVariable: null,
    ...overrides,
  };
}

/**
 * An MTA plan on the same nest's MTA egg (3): three ports (game, announce, HTTP), the HTTP port written
 * into SERVER_WEBPORT, no slots variable.
 */
export function mtaProvisioning(
  overrides: Partial<PterodactylProvisioning> = {},
): PterodactylProvisioning {
  return sampProvisioning({
    eggId: 3,
    dockerImage: "ghcr.io/parkervcp/games:mta",
    startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
    environment: {},
    slotsVariable: null,
    allocations: 3,
    portLayout: "mta",
    httpPortVariable: "SERVER_WEBPORT",
    ...overrides,
  });
}
