import { percentile } from "./lib";

/**
 * How fast this machine's CPU is at the moment, on Lighthouse's scale (`benchmarkIndex`, which every
 * Lighthouse report records and under 1,000 of which Lighthouse calls a device slow): how many times a
 * second one core builds a 10,000-character string a character at a time, divided by 10. The loop is
 * Lighthouse's idea, written here for Node.
 *
 * Why the benchmarks print it: on this two-core machine the same build read 13.8 ms of server CPU a
 * signed-in page on 2026-11-27 where it read about 7 the day before, and a latency figure alone cannot
 * tell a slower host from slower code. A reading beside every run can.
 *
 * `now` is the clock the loop is timed on, in milliseconds (default performance.now).
 */
export function cpuIndex(durationMs = 500, now: () => number = () => performance.now()): number {
  const start = now();
  let builds = 0;
  let elapsed: number;
  do {
    let text = "";
    for (let i = 0; i < 10_000; i++) text += "a";
    // Uses the string, so the loop cannot be optimised away.
    if (text.length !== 10_000) throw new Error("the string was not built");
    builds++;
    elapsed = now() - start;
  } while (elapsed < durationMs);
  return Math.round(builds / 10 / (elapsed / 1000));
}

export interface CpuReading {
  rounds: number;
  min: number;
  median: number;
  max: number;
}

/**
 * `rounds` readings of `cpuIndex` one after the other: the host's speed and how much it moved. `now` is
 * the clock each reading is timed on, in milliseconds (default performance.now).
 */
export function probeCpu(
  options: { rounds?: number; durationMs?: number; now?: () => number } = {},
): CpuReading {
  const rounds = options.rounds ?? 5;
  const readings: number[] = [];
  for (let i = 0; i < rounds; i++) readings.push(cpuIndex(options.durationMs, options.now));
  return summariseCpu(readings);
}

/** Lowest, median and highest of some CPU index readings (the probe's, or Lighthouse's own). */
export function summariseCpu(readings: number[]): CpuReading {
  if (readings.length === 0) throw new Error("no CPU readings");
  const sorted = [...readings].sort((a, b) => a - b);
  return {
    rounds: sorted.length,
    min: sorted[0]!,
    median: Math.round(percentile(sorted, 0.5)),
    max: sorted[sorted.length - 1]!,
  };
}

/** One line for a benchmark's output. */
export function describeCpu(when: string, reading: CpuReading): string {
  return `Host CPU ${when}: index ${reading.median} (median of ${reading.rounds}; ${reading.min} to ${reading.max}; Lighthouse's benchmarkIndex scale, under 1000 it calls a device slow).`;
}
