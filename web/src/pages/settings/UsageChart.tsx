// Requests per day as bars, drawn in SVG, against the most the plan allows in a day (its
// per-minute budget for every minute of the day). Usage is usually far below that ceiling, so
// the scale turns logarithmic when the ceiling is over twenty times the busiest day: both stay
// readable. A table with the same numbers follows for screen readers and exact values.
import { formatNumber, formatUtc } from '../../app/format.ts';

export interface DayCount {
  /** YYYY-MM-DD (UTC) */
  day: string;
  requests: number;
}

const WIDTH = 720;
const HEIGHT = 260;
const PAD = { top: 16, right: 12, bottom: 34, left: 58 };

/** 0, 1, 2, 5, 10, 20, 50…: round steps for a linear axis. */
function niceStep(max: number, ticks: number): number {
  const rough = max / ticks;
  const power = 10 ** Math.floor(Math.log10(rough));
  const unit = rough / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

function shortNumber(value: number): string {
  if (value >= 1_000_000) return `${value / 1_000_000}M`;
  if (value >= 1_000) return `${value / 1_000}k`;
  return String(value);
}

export function UsageChart({ days, dailyCeiling, title }: { days: DayCount[]; dailyCeiling: number | null; title: string }) {
  const busiest = Math.max(0, ...days.map((entry) => entry.requests));
  const logarithmic = dailyCeiling !== null && dailyCeiling > 20 * Math.max(1, busiest);
  const plotWidth = WIDTH - PAD.left - PAD.right;
  const plotHeight = HEIGHT - PAD.top - PAD.bottom;

  let top: number;
  let ticks: number[];
  let y: (value: number) => number;
  if (logarithmic) {
    top = 10 ** Math.ceil(Math.log10(dailyCeiling!));
    ticks = [];
    for (let tick = 1; tick <= top; tick *= 10) ticks.push(tick);
    const span = Math.log10(top);
    // Values under 1 sit on the baseline: a day with no requests has no bar.
    y = (value) => PAD.top + plotHeight - (value < 1 ? 0 : (Math.log10(value) / span) * plotHeight);
  } else {
    const highest = Math.max(busiest, dailyCeiling ?? 0, 10);
    const step = niceStep(highest, 4);
    top = Math.ceil(highest / step) * step;
    ticks = [];
    for (let tick = 0; tick <= top; tick += step) ticks.push(tick);
    y = (value) => PAD.top + plotHeight - (value / top) * plotHeight;
  }

  const slot = plotWidth / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const labelEvery = Math.ceil(days.length / 8);
  const titleId = 'usage-chart-title';
  return (
    <figure class="usage-chart">
      <svg class="chart" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-labelledby={titleId}>
        <title id={titleId}>{title}</title>
        {ticks.map((tick) => (
          <g key={tick}>
            <line class="grid" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(tick)} y2={y(tick)} />
            <text x={PAD.left - 8} y={y(tick) + 4} text-anchor="end">{shortNumber(tick)}</text>
          </g>
        ))}
        <line class="axis" x1={PAD.left} x2={WIDTH - PAD.right} y1={PAD.top + plotHeight} y2={PAD.top + plotHeight} />
        {days.map((entry, index) => {
          const x = PAD.left + index * slot + (slot - barWidth) / 2;
          const barTop = y(entry.requests);
          return (
            <g key={entry.day}>
              {entry.requests > 0 && (
                <rect class="bar" x={x} y={barTop} width={barWidth} height={Math.max(1, PAD.top + plotHeight - barTop)} rx="1.5">
                  <title>{`${formatUtc(entry.day, { show: 'date' })}: ${formatNumber(entry.requests)} requests`}</title>
                </rect>
              )}
              {index % labelEvery === 0 && (
                <text x={x + barWidth / 2} y={HEIGHT - PAD.bottom + 16} text-anchor="middle">{formatUtc(entry.day, { show: 'date', year: false })}</text>
              )}
            </g>
          );
        })}
        {dailyCeiling !== null && (
          <g>
            <line class="limit" x1={PAD.left} x2={WIDTH - PAD.right} y1={y(dailyCeiling)} y2={y(dailyCeiling)} />
            <text class="limit-label" x={WIDTH - PAD.right} y={y(dailyCeiling) - 6} text-anchor="end">
              plan ceiling: {formatNumber(dailyCeiling)} a day
            </text>
          </g>
        )}
      </svg>
      <figcaption class="muted small">
        Requests per UTC day, all keys together{logarithmic ? '; the scale is logarithmic (each line ten times the one below)' : ''}.
      </figcaption>
    </figure>
  );
}
