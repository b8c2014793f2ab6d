// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import {
  SERVER_STATES,
  type ServerState,
  type ServerStatusView,
} from "~/domain/servers/server-control";
import type { Locale } from "~/i18n/locales";
import { renderHtml } from "../../../tests/support/render-html";
import { ServerCard } from "./server-card";
import { pageView, statusView } from "../../../tests/support/server-fixtures";

// The server's card as the server sends it: its state with its age, the last known state kept beside a
// read error, the figures against the plan, the players or why they are not known, the last request.

function card(status: Partial<ServerStatusView> = {}, locale: Locale = "en") {
  return renderHtml(
    <ServerCard service={pageView().service} status={statusView(status)} locale={locale} />,
    locale,
  );
}

/** The server's HTML as a document to query. */
function dom(html: string) {
  const root = document.createElement("div");
  root.innerHTML = html;
  return root;
}

/** The text of the element with `data-testid` (Arabic isolates dropped, spaces folded), or null. */
function part(html: string, testId: string) {
  const element = dom(html).querySelector(`[data-testid="${testId}"]`);
  if (!element) return null;
  // Each text node on its own, so that blocks read apart ("CPU 42% of 200%").
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const texts: string[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    texts.push(node.nodeValue ?? "");
  return texts
    .join(" ")
    .replace(/[\u2066-\u2069]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

/** Each state's words and colour on the card. */
const BADGES: Record<ServerState, readonly [string, string]> = {
  running: ["Running", "bg-green-100"],
  starting: ["Starting", "bg-yellow-100"],
  stopping: ["Stopping", "bg-yellow-100"],
  offline: ["Offline", "bg-slate-100"],
  installing: ["Installing", "bg-yellow-100"],
  suspended: ["Suspended", "bg-red-100"],
  unknown: ["Not known yet", "bg-slate-100"],
};

const badge = (html: string) => dom(html).querySelector('[data-testid="server-state"]');

describe("the server's card", () => {
  it.each(Object.entries(BADGES))(
    "shows %s as its badge, in its colour",
    async (state, [label, tone]) => {
      const html = await card({ state: state as ServerState });
      expect(badge(html)?.textContent).toBe(label);
      expect(badge(html)?.className).toContain(tone);
      // Announced as it moves.
      expect(badge(html)?.parentElement?.getAttribute("role")).toBe("status");
      expect(html).toContain(`data-server-state="${state}"`);
    },
  );

  it("has a badge for every state the domain knows", () => {
    expect(Object.keys(BADGES).sort()).toEqual([...SERVER_STATES].sort());
  });

  it("says how old the state is, and that a fresher one is on its way", async () => {
    expect(part(await card({ ageSeconds: 12 }), "server-age")).toBe("Updated 12 s ago");
    expect(part(await card({ ageSeconds: 59 }), "server-age")).toBe("Updated 59 s ago");
    expect(part(await card({ ageSeconds: 185 }), "server-age")).toBe("Updated 3 min ago");
    expect(part(await card({ ageSeconds: 7300 }), "server-age")).toBe("Updated 2 h ago");
    expect(part(await card({ ageSeconds: 40, refreshing: true }), "server-age")).toBe(
      "Updated 40 s ago · refreshing…",
    );
    expect(
      part(await card({ readAt: null, ageSeconds: null, refreshing: true }), "server-age"),
    ).toBe("Not read yet · refreshing…");
  });

  it("keeps the last known state beside a read error", async () => {
    const html = await card({ state: "running", readError: "unreachable", ageSeconds: 95 });
    expect(badge(html)?.textContent).toBe("Running");
    expect(part(html, "server-read-error")).toBe("The game panel did not answer.");
    expect(part(html, "server-age")).toBe("Updated 1 min ago");
    expect(part(html, "server-players")).toContain("7 / 50");
    expect(part(await card(), "server-read-error")).toBe("");
  });

  it("writes CPU, memory and disk against the plan, and says when there is no limit", async () => {
    const html = await card();
    expect(part(html, "server-cpu")).toBe("CPU 42% of 200%");
    expect(part(html, "server-memory")).toBe("Memory 512 MB of 2 GB");
    expect(part(html, "server-disk")).toBe("Disk 3.5 GB of 10 GB");
    // Each bar's length: a share of the limit.
    expect(html).toContain('style="width:21%"');
    expect(html).toContain('style="width:25%"');
    expect(html).toContain('style="width:35%"');
    const unlimited = await card({ cpuLimitPercent: 0, diskLimitMib: 0 });
    expect(part(unlimited, "server-cpu")).toBe("CPU 42% (no limit)");
    expect(part(unlimited, "server-disk")).toBe("Disk 3.5 GB (no limit)");
    const unread = await card({ cpuPercent: null, memoryMib: null, diskMib: null });
    expect(part(unread, "server-memory")).toBe("Memory Not known");
  });

  it("writes the uptime in its two largest units, and none for a server not running", async () => {
    expect(part(await card({ uptimeSeconds: 93_780 }), "server-uptime")).toBe("Uptime 1 d 2 h");
    expect(part(await card({ uptimeSeconds: 3_900 }), "server-uptime")).toBe("Uptime 1 h 5 min");
    expect(part(await card({ uptimeSeconds: 45 }), "server-uptime")).toBe("Uptime 45 s");
    expect(part(await card({ state: "offline", uptimeSeconds: 0 }), "server-uptime")).toBe(
      "Uptime Not running",
    );
  });

  it("shows the players out of the maximum with the game's name, or why they are not known", async () => {
    const html = await card();
    expect(part(html, "server-players")).toBe("Players 7 / 50 Los Santos RP | Arabic");
    expect(html).toContain('<span dir="ltr" class="font-medium">7 / 50</span>');
    expect(part(await card({ players: null, playersError: "noAnswer" }), "server-players")).toBe(
      "Players The game did not answer (is the server full or still starting?).",
    );
    expect(part(await card({ players: null, playersError: "malformed" }), "server-players")).toBe(
      "Players The game's answer could not be read.",
    );
    expect(part(await card({ state: "offline", players: null }), "server-players")).toBe(
      "Players Not running",
    );
  });

  it("says what was last asked and how it stands, with why it failed", async () => {
    const at = "2026-04-01T08:59:00.000Z";
    expect(
      part(
        await card({ lastAction: { action: "restart", state: "done", at, error: null } }),
        "server-last-action",
      ),
    ).toBe("Last request: Restart · done");
    expect(
      part(
        await card({ lastAction: { action: "stop", state: "queued", at, error: null } }),
        "server-last-action",
      ),
    ).toBe("Last request: Stop · waiting");
    const failed = await card({
      lastAction: { action: "kill", state: "failed", at, error: "server.refused.installing" },
    });
    expect(part(failed, "server-last-action")).toBe(
      "Last request: Kill · failed This server is being installed: try again once it is done.",
    );
    expect(await card()).not.toContain("server-last-action");
  });

  it("keeps figures and addresses left to right in Arabic, with its own units", async () => {
    const html = await card({}, "ar");
    expect(html).toContain('<code id="server-address-7" dir="ltr"');
    expect(html).toContain('<span dir="ltr" class="font-medium">7 / 50</span>');
    expect(part(html, "server-memory")).toBe("الذاكرة 512 ميغابايت من 2 غيغابايت");
    expect(part(html, "server-disk")).toBe("القرص 3,5 غيغابايت من 10 غيغابايت");
    expect(badge(html)?.textContent).toBe("يعمل");
    expect(part(await card({}, "fr"), "server-memory")).toBe("Mémoire 512 Mo sur 2 Go");
  });
});
