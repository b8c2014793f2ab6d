import type { AppServices } from "~/context.server";
import type { PanelSnapshot } from "~/domain/provisioning/panel-connection";
import { updateSettingsSection } from "~/domain/settings/settings.server";

/**
 * What a "Check connection" of the fake panel's seed reads, in part (tests/support/fake-pterodactyl/
 * seed.ts): two locations, two nodes, and the GTA nest with SA-MP (egg 2) and MTA (egg 3), their
 * variables and rules as the fake has them.
 */
export function testPanelSnapshot(): PanelSnapshot {
  const node = {
    memoryOverallocate: 0,
    diskOverallocate: 0,
    allocatedDiskMb: 0,
    maintenance: false,
  };
  return {
    locations: [
      { id: 1, short: "de", long: "Germany (Falkenstein)" },
      { id: 2, short: "us", long: null },
    ],
    nodes: [
      {
        ...node,
        id: 1,
        name: "de-fsn-1",
        locationId: 1,
        memoryMb: 65_536,
        diskMb: 1_000_000,
        allocatedMemoryMb: 0,
      },
      {
        ...node,
        id: 3,
        name: "us-ash-1",
        locationId: 2,
        memoryMb: 32_768,
        diskMb: 500_000,
        allocatedMemoryMb: 0,
      },
    ],
    nests: [
      {
        id: 2,
        name: "GTA San Andreas",
        eggs: [
          {
            id: 2,
            nestId: 2,
            name: "SA-MP",
            dockerImage: "ghcr.io/parkervcp/games:samp",
            dockerImages: { Samp: "ghcr.io/parkervcp/games:samp" },
            startup: "./samp03svr",
            variables: [
              {
                name: "Version",
                envVariable: "VERSION",
                defaultValue: "0.3.7",
                rules: "required|string|max:32",
                userEditable: true,
              },
              {
                name: "Rcon password",
                envVariable: "RCON_PASS",
                defaultValue: "",
                rules: "required|string|max:32",
                userEditable: true,
              },
              {
                name: "Max players",
                envVariable: "MAX_PLAYERS",
                defaultValue: "50",
                rules: "required|integer|between:1,1000",
                userEditable: true,
              },
            ],
          },
          {
            id: 3,
            nestId: 2,
            name: "Multi Theft Auto",
            dockerImage: "ghcr.io/parkervcp/games:mta",
            dockerImages: { "ghcr.io/parkervcp/games:mta": "ghcr.io/parkervcp/games:mta" },
            startup: "./mta-server64 --port {{SERVER_PORT}} --httpport {{SERVER_WEBPORT}} -n",
            variables: [
              {
                name: "SERVER_WEBPORT",
                envVariable: "SERVER_WEBPORT",
                defaultValue: "22005",
                rules: "required|numeric",
                userEditable: false,
              },
            ],
          },
        ],
      },
    ],
  };
}

/**
 * Stores `snapshot` as the last check's reading of the game panel (no panel behind it: the product
 * editor and its save read only the snapshot); null forgets the panel altogether.
 */
export async function savePanelSnapshot(
  db: AppServices["db"],
  snapshot: PanelSnapshot | null,
): Promise<void> {
  await db.deleteFrom("panel_connections").execute();
  if (snapshot === null) return;
  const now = new Date().toISOString();
  await db
    .insertInto("panel_connections")
    .values({
      id: 1,
      url: "https://panel.example.test",
      api_key_encrypted: "",
      api_key_last4: "",
      snapshot: JSON.stringify(snapshot),
      checked_at: now,
      updated_by: null,
      updated_at: now,
    })
    .execute();
}

/**
 * Turns the setting "allow a game panel on the local network" on (or off): the fake panel listens on
 * 127.0.0.1, which the panel's rules refuse while it is off (docs/provisioning.md).
 */
export async function allowLocalPanel(app: AppServices, allowed = true): Promise<void> {
  await updateSettingsSection(app.db, "gamePanel", { allowLocalNetwork: allowed });
  app.settings.invalidate();
}
