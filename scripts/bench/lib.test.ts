import { isbot } from "isbot";
import { serverArguments } from "../../server/command";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  atMost,
  below,
  benchServerArguments,
  BROWSER_HEADERS,
  none,
  passes,
  percentile,
  reportVerdicts,
  verdictTable,
  warmUp,
  withExtraFlags,
  withoutJavaScript,
} from "./lib";

afterEach(() => {
  vi.restoreAllMocks();
  process.exitCode = 0;
});

describe("benchmark helpers", () => {
  it("starts the server as production does, an experiment's flags after production's own", () => {
    expect(benchServerArguments(".tmp/bench-build", [])).toEqual(
      serverArguments(".tmp/bench-build"),
    );
    const args = benchServerArguments(".tmp/bench-build", ["--max-semi-space-size=16"]);
    expect(args.at(-1)).toBe(".tmp/bench-build/server/main.js");
    expect(args.at(-2)).toBe("--max-semi-space-size=16");
    expect(args.indexOf("--max-semi-space-size=8")).toBeLessThan(args.length - 2);
    // The runtime benchmark's other commands (no flags of their own, or tsx's) alike.
    expect(withExtraFlags(["--import", "tsx", "server/index.ts"], ["--trace-gc"])).toEqual([
      "--import",
      "tsx",
      "--trace-gc",
      "server/index.ts",
    ]);
    expect(withExtraFlags(["main.js"], [])).toEqual(["main.js"]);
  });

  it("takes percentiles by nearest rank", () => {
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 0.5)).toBe(50);
    expect(percentile(values, 0.95)).toBe(95);
    expect(percentile(values, 0.99)).toBe(99);
    expect(percentile([7], 0.95)).toBe(7);
    expect(percentile([], 0.95)).toBeNaN();
  });

  it("makes a static copy of a page: no script of any kind, the stylesheet kept", () => {
    const page = `<html><head><link rel="modulepreload" href="/assets/a.js" nonce="n"/>
<link rel="stylesheet" href="/assets/root.css"/><script nonce="n">window.x = "</p>";</script></head>
<body><p>Hello</p><SCRIPT type="module" async="">import("/assets/entry.js");</SCRIPT></body></html>`;
    const copy = withoutJavaScript(page);
    expect(copy).not.toMatch(/<script|modulepreload|import\(/i);
    expect(copy).toContain('<link rel="stylesheet" href="/assets/root.css"/>');
    expect(copy).toContain("<p>Hello</p>");
  });

  it("warms up with several requests in flight, so every server process gets some", async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    // Each request is answered when the test says so, the oldest first.
    const answers: (() => void)[] = [];
    const done = warmUp(
      20,
      async (i) => {
        seen.push(i);
        most = Math.max(most, ++inFlight);
        await new Promise<void>((resolve) => answers.push(resolve));
        inFlight--;
      },
      4,
    );
    // Four at once before any answer, then the next as each is answered: four in flight till the last.
    expect(seen).toEqual([0, 1, 2, 3]);
    for (let answered = 0; answered < 20; answered++) {
      expect(inFlight).toBe(Math.min(4, 20 - answered));
      answers.shift()!();
      // The next task: every step the answer set off (the next request sent) has been taken.
      await new Promise((resolve) => setImmediate(resolve));
    }
    await done;
    expect(seen).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(4);
  });

  it("asks for pages as a browser does: compressed, in a language, not as a crawler", () => {
    expect(BROWSER_HEADERS["accept-encoding"]).toBe("gzip, deflate, br");
    expect(BROWSER_HEADERS.accept).toContain("text/html");
    expect(BROWSER_HEADERS["accept-language"]).toBeTruthy();
    expect(isbot(BROWSER_HEADERS["user-agent"]!)).toBe(false);
  });
});

describe("verdicts", () => {
  it("judges each figure against its budget; no figure at all is a miss", () => {
    expect(below("orders p95", 49.9, 50, " ms")).toEqual({
      measure: "orders p95",
      figure: "49.9 ms",
      budget: "< 50 ms",
      met: true,
    });
    expect(below("orders p95", 50, 50, " ms").met).toBe(false);
    expect(below("orders p95", NaN, 50, " ms")).toMatchObject({ figure: "none", met: false });
    expect(atMost("ratio", 1.5, 1.5).met).toBe(true);
    expect(atMost("ratio", 1.51, 1.5).met).toBe(false);
    expect(atMost("ratio", NaN, 1.5).met).toBe(false);
    expect(none("errors", 0)).toMatchObject({ figure: "0", met: true });
    expect(none("errors", 3, "2 timeout, 1 status 500")).toMatchObject({
      figure: "3 (2 timeout, 1 status 500)",
      met: false,
    });
    expect(passes("ledger", false)).toMatchObject({ figure: "FAILED", met: false });
  });

  it("prints markdown rows the doc can copy, and fails the run when any budget is missed", () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const rows = verdictTable([below("a | b", 1, 2), none("errors", 1)]);
    expect(rows).toEqual([
      "| measure | figure | budget | verdict |",
      "|---------|--------|--------|---------|",
      "| a \\| b  | 1      | < 2    | met     |",
      "| errors  | 1      | 0      | missed  |",
    ]);
    expect(reportVerdicts("all met", [below("p95", 1, 2)])).toBe(true);
    expect(process.exitCode ?? 0).toBe(0);
    expect(reportVerdicts("one missed", [below("p95", 1, 2), none("errors", 1)])).toBe(false);
    expect(process.exitCode).toBe(1);
    process.exitCode = 0;
    expect(reportVerdicts("nothing measured", [])).toBe(false);
    expect(process.exitCode).toBe(1);
    expect(log).toHaveBeenCalled();
  });
});
