/**
 * The value axis of a bar chart: round steps (1, 2 or 5 times a power of ten, in whole units: cents or
 * orders) from at most 0 to at least 0, covering every bar. An empty chart still gets a 0-to-1 axis.
 */
export function niceScale(min: number, max: number, targetTicks = 4) {
  const low0 = Math.min(0, min);
  const high0 = Math.max(0, max);
  const range = high0 - low0 || 1;
  const raw = Math.max(1, range / targetTicks);
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  // "+ 0" turns a -0 into 0, so the zero line is labelled 0.
  const low = Math.floor(low0 / step) * step + 0;
  const ceiling = Math.ceil(high0 / step) * step + 0;
  const high = ceiling === low ? low + step : ceiling;
  const ticks: number[] = [];
  for (let value = low; value <= high; value += step) ticks.push(value);
  return { low, high, step, ticks };
}

/** For each month, the segments of a stacked bar: positives stack up from 0, negatives down. */
export function stackSegments(values: number[]) {
  let up = 0;
  let down = 0;
  return values.map((value) => {
    if (value >= 0) {
      const segment = { from: up, to: up + value };
      up += value;
      return segment;
    }
    const segment = { from: down + value, to: down };
    down += value;
    return segment;
  });
}
