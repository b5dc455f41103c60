// The congestion chart's geometry, apart from any DOM: vessels waiting and at berth at the start of
// each hour as two step lines, with a day on each x tick and whole vessels on the y axis.
import { formatUtc } from '../../app/format.ts';
import type { ChartBox, Tick } from './tide-chart.ts';
import { niceStep } from './tide-chart.ts';

export interface CongestionHour {
  at: string;
  waiting: number;
  at_berth: number;
}

export interface CongestionChartModel {
  plot: ChartBox;
  /** Step lines as SVG path data. */
  waiting: string;
  atBerth: string;
  xTicks: Tick[];
  yTicks: Tick[];
  /** The most of each at once over the chart. */
  peakWaiting: number;
  peakAtBerth: number;
}

const HOUR = 3_600_000;
const PADDING = { left: 36, right: 14, top: 14, bottom: 30 };

export function congestionChart(hours: readonly CongestionHour[], width: number, height: number): CongestionChartModel {
  const plot: ChartBox = {
    left: PADDING.left,
    top: PADDING.top,
    right: Math.max(PADDING.left + 10, width - PADDING.right),
    bottom: Math.max(PADDING.top + 10, height - PADDING.bottom),
  };
  const start = hours.length ? Date.parse(hours[0]!.at) : 0;
  // Each count holds for its hour: the last one to the hour's end.
  const end = hours.length ? Date.parse(hours.at(-1)!.at) + HOUR : start + HOUR;
  const peakWaiting = Math.max(0, ...hours.map((hour) => hour.waiting));
  const peakAtBerth = Math.max(0, ...hours.map((hour) => hour.at_berth));
  const yStep = Math.max(1, niceStep(Math.max(peakWaiting, peakAtBerth, 1), 4));
  const top = Math.max(yStep, Math.ceil(Math.max(peakWaiting, peakAtBerth) / yStep) * yStep);

  const round = (value: number) => Math.round(value * 10) / 10;
  const x = (time: number) => round(plot.left + ((time - start) / (end - start)) * (plot.right - plot.left));
  const y = (count: number) => round(plot.bottom - (count / top) * (plot.bottom - plot.top));
  const steps = (value: (hour: CongestionHour) => number) => {
    if (hours.length === 0) return '';
    let path = `M${x(start)},${y(value(hours[0]!))}`;
    hours.forEach((hour, index) => {
      const from = Date.parse(hour.at);
      if (index > 0) path += `V${y(value(hour))}`;
      path += `H${x(from + HOUR)}`;
    });
    return path;
  };

  const days = (end - start) / (24 * HOUR);
  const daysPerLabel = [1, 2, 7].find((every) => ((every * 24 * HOUR) / (end - start)) * (plot.right - plot.left) >= 48) ?? 7;
  const xTicks: Tick[] = [];
  for (let time = Math.ceil(start / (24 * HOUR)) * 24 * HOUR; time <= end; time += 24 * HOUR) {
    const date = new Date(time);
    if (days > 1 && Math.round((time - start) / (24 * HOUR)) % daysPerLabel !== 0) continue;
    xTicks.push({ position: x(time), label: formatUtc(date.toISOString(), { show: 'date', year: false }) });
  }
  const yTicks: Tick[] = [];
  for (let count = 0; count <= top; count += yStep) yTicks.push({ position: y(count), label: String(count) });

  return { plot, waiting: steps((hour) => hour.waiting), atBerth: steps((hour) => hour.at_berth), xTicks, yTicks, peakWaiting, peakAtBerth };
}
