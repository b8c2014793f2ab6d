import { describe, expect, it } from "vitest";
import { probeCommitLatency } from "./disk-probe";

describe("disk probe", () => {
  it("times each durable SQLite commit and orders the figures", () => {
    const latency = probeCommitLatency({ commits: 50 });
    expect(latency.commits).toBe(50);
    expect(latency.p50).toBeGreaterThan(0);
    expect(latency.p50).toBeLessThanOrEqual(latency.p99);
    expect(latency.p99).toBeLessThanOrEqual(latency.max);
  });
});
