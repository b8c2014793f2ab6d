import { cn } from "~/lib/utils";
import { niceScale, stackSegments } from "./chart-scale";

export interface ChartSeries {
  key: string;
  label: string;
  /** Tailwind fill class for the bars (the legend uses the matching bg class). */
  fill: string;
  /** One value per month, in whole units (cents or orders). */
  values: number[];
}

export interface MonthLabel {
  short: string;
  long: string;
  /** Shown under the month for the first month and every January. */
  year: string | null;
}

const HEIGHT = 180;
const PAD = 10;
/** The value axis' width, in px (w-14 in the month row below matches it). */
const GUTTER = 56;

const pct = (value: number) => `${value.toFixed(3)}%`;

/**
 * A hand-written stacked bar chart: one bar per month, one segment per series, negatives below the zero
 * line. Bars are SVG with their horizontal positions in percent and their heights in px, so the chart
 * fills any width while its text keeps a readable size (12 months fit a 375 px phone). The axis labels
 * and the month row are plain text around it.
 *
 * Right to left, time runs right to left too: the oldest month sits at the right, where an Arabic reader
 * starts, beside the value axis, and the month row (an HTML grid) mirrors by itself. This keeps the chart
 * in the same order as the page it is on and as the table under it.
 *
 * The whole chart is hidden from screen readers: the table beside it carries the same figures.
 */
export function StackedBarChart({
  months,
  series,
  rtl,
  formatTick,
  formatValue,
}: {
  months: MonthLabel[];
  series: ChartSeries[];
  rtl: boolean;
  formatTick: (value: number) => string;
  formatValue: (value: number) => string;
}) {
  const count = months.length;
  const stacks = months.map((_, i) => stackSegments(series.map((s) => s.values[i] ?? 0)));
  const tops = stacks.map((segments) => Math.max(0, ...segments.map((s) => s.to)));
  const bottoms = stacks.map((segments) => Math.min(0, ...segments.map((s) => s.from)));
  const scale = niceScale(Math.min(0, ...bottoms), Math.max(0, ...tops));
  const y = (value: number) =>
    PAD + ((scale.high - value) / (scale.high - scale.low)) * (HEIGHT - 2 * PAD);
  const slot = 100 / count;
  const slotStart = (i: number) => (rtl ? count - 1 - i : i) * slot;

  return (
    <div aria-hidden="true" className="grid gap-1" data-testid="report-chart">
      <div className="flex">
        <svg
          width={GUTTER}
          height={HEIGHT}
          className="shrink-0 overflow-visible fill-muted-foreground text-[10px]"
        >
          {scale.ticks.map((tick) => (
            // "end" is the side next to the bars in both directions: the text's own direction follows
            // the page, so in Arabic "end" is the left edge.
            <text key={tick} x={rtl ? 4 : GUTTER - 4} y={y(tick)} dy="0.32em" textAnchor="end">
              {formatTick(tick)}
            </text>
          ))}
        </svg>
        <svg width="100%" height={HEIGHT} className="min-w-0 flex-1 overflow-visible">
          {scale.ticks.map((tick) => (
            <line
              key={tick}
              x1="0"
              x2="100%"
              y1={y(tick)}
              y2={y(tick)}
              className={tick === 0 ? "stroke-slate-400" : "stroke-slate-200"}
              strokeWidth={1}
            />
          ))}
          {stacks.map((segments, i) =>
            segments.map((segment, s) => {
              const item = series[s]!;
              if (segment.to === segment.from) return null;
              return (
                <rect
                  key={`${i}-${item.key}`}
                  x={pct(slotStart(i) + slot * 0.18)}
                  width={pct(slot * 0.64)}
                  y={y(segment.to)}
                  height={y(segment.from) - y(segment.to)}
                  className={item.fill}
                >
                  <title>{`${months[i]!.long} · ${item.label}: ${formatValue(item.values[i] ?? 0)}`}</title>
                </rect>
              );
            }),
          )}
        </svg>
      </div>
      <div className="flex">
        <span className="w-14 shrink-0" />
        <ol
          className="grid min-w-0 flex-1 text-center text-[10px] leading-tight text-muted-foreground sm:text-xs"
          style={{ gridTemplateColumns: `repeat(${count}, minmax(0, 1fr))` }}
        >
          {months.map((month, i) => (
            // On a phone every other label is left out (the newest kept) and the rest may spill into
            // their empty neighbours, centred, so names are never cut.
            <li
              key={month.long}
              className={cn(
                "flex min-w-0 flex-col items-center whitespace-nowrap",
                (count - 1 - i) % 2 === 1 && "max-sm:invisible",
              )}
            >
              <span>{month.short}</span>
              {month.year ? <span>{month.year}</span> : null}
            </li>
          ))}
        </ol>
      </div>
    </div>
  );
}
