import { describe, expect, it } from "vitest";
import { OFFLINE_NOTICE_AFTER_MS } from "./server-control";
import {
  conflictState,
  gameQueryTarget,
  nextOfflineSpell,
  offlineNoticeDue,
  resourceColumns,
} from "./server-readings";

const NOW = new Date("2031-03-12T12:00:00.000Z");
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe("what the status job makes of the panel's answers", () => {
  it("reads the resources into the row's units", () => {
    expect(
      resourceColumns({
        state: "running",
        suspended: false,
        cpuAbsolute: 142.37,
        memoryBytes: 536_870_912,
        diskBytes: 1_073_741_824 + 400_000,
        uptimeMs: 3_601_999,
      }),
    ).toEqual({
      state: "running",
      cpu_tenths: 1424,
      memory_mib: 512,
      disk_mib: 1024,
      uptime_seconds: 3601,
    });
    // Suspended says so whatever the power state; nonsense reads as nothing.
    expect(
      resourceColumns({
        state: "offline",
        suspended: true,
        cpuAbsolute: Number.NaN,
        memoryBytes: -5,
        diskBytes: 0,
        uptimeMs: 0,
      }),
    ).toEqual({ state: "suspended", cpu_tenths: 0, memory_mib: 0, disk_mib: 0, uptime_seconds: 0 });
  });

  it("tells a suspended server from one installing in a 409, by its words or by our side", () => {
    const active = { status: "active", panel_state: "ready" };
    expect(
      conflictState(
        "This server is currently suspended and the functionality requested is unavailable.",
        active,
      ),
    ).toBe("suspended");
    expect(
      conflictState(
        "This server has not yet completed its installation process, please try again later.",
        active,
      ),
    ).toBe("installing");
    const other =
      "This server is currently being transferred to a new machine, please try again later.";
    expect(conflictState(other, active)).toBe("installing");
    expect(conflictState(other, { status: "suspended", panel_state: "ready" })).toBe("suspended");
    expect(conflictState(null, { status: "active", panel_state: "suspended" })).toBe("suspended");
  });

  it("queries SA-MP on the game port and MTA by its layout, at the recorded address", () => {
    expect(gameQueryTarget("single", "10.0.1.10:7777", { game: 7777 })).toEqual({
      kind: "samp",
      host: "10.0.1.10",
      port: 7777,
    });
    expect(
      gameQueryTarget("mta", "de2.play.example.test:22003", {
        game: 22003,
        announce: 22126,
        http: 22004,
      }),
    ).toEqual({ kind: "mta", host: "de2.play.example.test", port: 22003 });
    expect(gameQueryTarget("single", "[2001:db8::1]:7777", null)).toEqual({
      kind: "samp",
      host: "2001:db8::1",
      port: 7777,
    });
    expect(gameQueryTarget(null, "10.0.1.10:7777", { game: 7777 })).toBeNull();
    expect(gameQueryTarget("single", null, { game: 7777 })).toBeNull();
    expect(gameQueryTarget("single", "10.0.1.10", null)).toBeNull();
    expect(gameQueryTarget("single", "10.0.1.10:99999", null)).toBeNull();
  });
});

describe("the offline spell and its notice", () => {
  it("starts at the first offline read, lasts while offline, and ends at the first read that is not", () => {
    const first = nextOfflineSpell(null, "offline", NOW);
    expect(first).toEqual({ offline_since: NOW.toISOString(), offline_notified_at: null });
    const told = { offline_since: ago(20 * 60_000), offline_notified_at: ago(5 * 60_000) };
    expect(nextOfflineSpell(told, "offline", NOW)).toEqual(told);
    for (const state of ["running", "starting", "installing", "suspended"] as const)
      expect(nextOfflineSpell(told, state, NOW)).toEqual({
        offline_since: null,
        offline_notified_at: null,
      });
    // A notice left from a spell that ended is not this spell's.
    expect(
      nextOfflineSpell({ offline_since: null, offline_notified_at: ago(1000) }, "offline", NOW),
    ).toEqual({ offline_since: NOW.toISOString(), offline_notified_at: null });
  });

  it("tells the customer who asked, once the spell is long enough, once", () => {
    const due = (
      spell: { offline_since: string | null; offline_notified_at: string | null },
      noticeOn = true,
      serviceStatus = "active",
    ) => offlineNoticeDue({ spell, noticeOn, serviceStatus, now: NOW });
    const long = { offline_since: ago(OFFLINE_NOTICE_AFTER_MS), offline_notified_at: null };
    expect(due(long)).toBe(true);
    expect(due({ ...long, offline_since: ago(OFFLINE_NOTICE_AFTER_MS - 1) })).toBe(false);
    expect(due({ ...long, offline_notified_at: ago(1) })).toBe(false);
    expect(due(long, false)).toBe(false);
    expect(due(long, true, "suspended")).toBe(false);
    expect(due({ offline_since: null, offline_notified_at: null })).toBe(false);
  });
});
