import { describe, expect, it } from "vitest";
import { percentile, warmUp, withoutJavaScript } from "./lib";

describe("benchmark helpers", () => {
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
    await warmUp(
      20,
      async (i) => {
        seen.push(i);
        most = Math.max(most, ++inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight--;
      },
      4,
    );
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(most).toBe(4);
  });
});
