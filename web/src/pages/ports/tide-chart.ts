// The tide chart's geometry, apart from any DOM: scales, the water-level curve as SVG path data,
// the high and low waters, the tidal windows of a draught as bands, the height of tide the draught
// needs as a line, the axes, and every text label placed so that no two overlap. Times run left to
// right in UTC; heights are metres on the datum.
import { formatUtc } from '../../app/format.ts';

export interface TideLevel {
  time: string;
  height_m: number;
}

export interface TideExtreme {
  time: string;
  type: 'high' | 'low';
  height_m: number;
}

export interface TideWindow {
  start: string;
  end: string;
}

export interface TideChartInput {
  levels: readonly TideLevel[];
  extremes: readonly TideExtreme[];
  windows?: readonly TideWindow[];
  /** Height of tide above the datum the draught needs (required depth less charted depth). */
  neededHeight?: number | null;
  /** Epoch ms of "now", marked when it falls in the chart. */
  now?: number;
  width: number;
  height: number;
  /** The drawn width of a label in px (the browser measures it); estimated from the font size when absent. */
  textWidth?: (text: string, kind: LabelKind) => number;
}

export interface ChartBox {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

export interface PlacedExtreme extends TideExtreme {
  x: number;
  y: number;
}

export interface PlacedWindow extends TideWindow {
  x: number;
  width: number;
}

export interface Tick {
  position: number;
  label: string;
}

export type LabelKind = 'axis' | 'date' | 'now' | 'needed' | 'high' | 'low';

/** A text label: `y` is its baseline; `box` the room it takes. */
export interface ChartLabel {
  kind: LabelKind;
  text: string;
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  box: ChartBox;
}

export interface TideChartModel {
  plot: ChartBox;
  /** The water level as a line, and closed down to the bottom of the plot for a fill. */
  curve: string;
  area: string;
  extremes: PlacedExtreme[];
  windows: PlacedWindow[];
  needed: { y: number; height: number } | null;
  now: number | null;
  xTicks: Tick[];
  /** Day boundaries (00:00 UTC) with the date, for a second row of labels. */
  days: Tick[];
  yTicks: Tick[];
  /** Every text label, none overlapping another; a label with no free place is left out. */
  labels: ChartLabel[];
}

const HOUR = 3_600_000;
const PADDING = { left: 44, right: 14, top: 22, bottom: 44 };
/** Labels are 11 px; without a measurement a character is taken as 0.62 em wide, the dashboard's sans-serif at weight 600 on average. */
const FONT = 11;
const CHAR_WIDTH = FONT * 0.62;
const estimatedWidth = (text: string) => text.length * CHAR_WIDTH;
const GAP = 2;

/** A round step for about `count` intervals across `span`: 1, 2 or 5 times a power of ten. */
export function niceStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const factor of [1, 2, 5, 10]) if (factor * power >= raw) return factor * power;
  return 10 * power;
}

function formatHeight(value: number, step: number): string {
  const decimals = step >= 1 ? 0 : step >= 0.1 ? 1 : 2;
  return `${value.toFixed(decimals)} m`;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

function placedLabel(kind: LabelKind, text: string, x: number, y: number, anchor: ChartLabel['anchor'], width: number): ChartLabel {
  const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width;
  // Ascent above the baseline, descent below it.
  return { kind, text, x, y, anchor, box: { left, right: left + width, top: y - FONT, bottom: y + FONT * 0.3 } };
}

export function overlap(a: ChartBox, b: ChartBox, gap = 0): boolean {
  return a.left < b.right + gap && b.left < a.right + gap && a.top < b.bottom + gap && b.top < a.bottom + gap;
}

/** Labels placed in turn: each takes its first candidate inside the chart and clear of those placed. */
class LabelPlacer {
  readonly placed: ChartLabel[] = [];
  readonly #width: number;
  readonly #height: number;

  constructor(width: number, height: number) {
    this.#width = width;
    this.#height = height;
  }

  place(...candidates: ChartLabel[]): boolean {
    const fits = candidates.find((candidate) => candidate.box.left >= 0 && candidate.box.right <= this.#width
      && candidate.box.top >= 0 && candidate.box.bottom <= this.#height
      && !this.placed.some((other) => overlap(candidate.box, other.box, GAP)));
    if (fits) this.placed.push(fits);
    return fits !== undefined;
  }
}

export function tideChart(input: TideChartInput): TideChartModel {
  const plot: ChartBox = {
    left: PADDING.left,
    top: PADDING.top,
    right: Math.max(PADDING.left + 10, input.width - PADDING.right),
    bottom: Math.max(PADDING.top + 10, input.height - PADDING.bottom),
  };
  const times = input.levels.map((level) => Date.parse(level.time));
  const start = times[0] ?? 0;
  const end = times.at(-1) ?? start + HOUR;
  const span = Math.max(end - start, 1);

  const heights = input.levels.map((level) => level.height_m);
  for (const extreme of input.extremes) heights.push(extreme.height_m);
  if (input.neededHeight !== null && input.neededHeight !== undefined) heights.push(input.neededHeight);
  let low = heights.length ? Math.min(...heights) : 0;
  let high = heights.length ? Math.max(...heights) : 1;
  if (high - low < 0.2) {
    low -= 0.1;
    high += 0.1;
  }
  const yStep = niceStep(high - low, 4);
  low = Math.floor(low / yStep) * yStep;
  high = Math.ceil(high / yStep) * yStep;

  const x = (time: number) => plot.left + ((time - start) / span) * (plot.right - plot.left);
  const y = (height: number) => plot.bottom - ((height - low) / (high - low)) * (plot.bottom - plot.top);
  const round = (value: number) => Math.round(value * 10) / 10;

  const points = input.levels.map((level, index) => `${round(x(times[index]!))},${round(y(level.height_m))}`);
  const curve = points.length ? `M${points.join('L')}` : '';
  const area = points.length ? `${curve}L${round(x(end))},${plot.bottom}L${round(x(start))},${plot.bottom}Z` : '';

  const inRange = (time: number) => time >= start && time <= end;
  const extremes = input.extremes
    .filter((extreme) => inRange(Date.parse(extreme.time)))
    .map((extreme) => ({ ...extreme, x: round(x(Date.parse(extreme.time))), y: round(y(extreme.height_m)) }));

  const windows = (input.windows ?? []).flatMap((window) => {
    const from = Math.max(start, Date.parse(window.start));
    const to = Math.min(end, Date.parse(window.end));
    if (to <= from) return [];
    return [{ ...window, x: round(x(from)), width: round(x(to) - x(from)) }];
  });

  const needed = input.neededHeight === null || input.neededHeight === undefined
    ? null
    : { y: round(y(input.neededHeight)), height: input.neededHeight };

  // An hour label every 3, 6 or 12 hours, so labels keep about 60 px apart.
  const hoursPerLabel = [1, 3, 6, 12, 24].find((hours) => ((hours * HOUR) / span) * (plot.right - plot.left) >= 56) ?? 24;
  const xTicks: Tick[] = [];
  const days: Tick[] = [];
  for (let time = Math.ceil(start / HOUR) * HOUR; time <= end; time += HOUR) {
    const date = new Date(time);
    const hour = date.getUTCHours();
    if (hour === 0) days.push({ position: round(x(time)), label: formatUtc(date.toISOString(), { show: 'date', year: false }) });
    if (hour % hoursPerLabel === 0) xTicks.push({ position: round(x(time)), label: `${pad(hour)}:00` });
  }

  const yTicks: Tick[] = [];
  for (let height = low; height <= high + yStep / 1000; height += yStep) {
    yTicks.push({ position: round(y(height)), label: formatHeight(Math.abs(height) < 1e-9 ? 0 : height, yStep) });
  }

  const now = input.now !== undefined && inRange(input.now) ? round(x(input.now)) : null;

  // The axes first, then what is read off the curve: the needed height, high and low waters, now.
  const textWidth = input.textWidth ?? estimatedWidth;
  const label = (kind: LabelKind, text: string, x: number, y: number, anchor: ChartLabel['anchor']) => placedLabel(kind, text, x, y, anchor, textWidth(text, kind));
  const labels = new LabelPlacer(input.width, input.height);
  for (const tick of yTicks) labels.place(label('axis', tick.label, plot.left - 6, tick.position + 4, 'end'));
  labels.place(label('axis', 'UTC', plot.left - 6, plot.bottom + 32, 'end'));
  for (const tick of xTicks) labels.place(label('axis', tick.label, tick.position, plot.bottom + 16, 'middle'));
  for (const day of days) labels.place(label('date', day.label, day.position + 4, plot.bottom + 32, 'start'));
  if (needed) {
    const text = `needed ${needed.height.toFixed(2)} m`;
    labels.place(
      label('needed', text, plot.right - 4, needed.y - 4, 'end'), label('needed', text, plot.right - 4, needed.y + 13, 'end'),
      label('needed', text, plot.left + 4, needed.y - 4, 'start'), label('needed', text, plot.left + 4, needed.y + 13, 'start'),
    );
  }
  for (const extreme of extremes) {
    const text = `${extreme.type === 'high' ? 'HW' : 'LW'} ${extreme.height_m.toFixed(1)}`;
    const above = label(extreme.type, text, extreme.x, extreme.y - 9, 'middle');
    const below = label(extreme.type, text, extreme.x, extreme.y + 17, 'middle');
    const inside = (candidate: ChartLabel) => candidate.box.bottom <= plot.bottom && candidate.box.top >= plot.top - FONT - 4;
    const sides = [label(extreme.type, text, extreme.x + 8, extreme.y + 4, 'start'), label(extreme.type, text, extreme.x - 8, extreme.y + 4, 'end')];
    labels.place(...[...(extreme.type === 'high' ? [above, below] : [below, above]).filter(inside), ...sides]);
  }
  if (now !== null) labels.place(label('now', 'now', now, plot.top - 6, 'middle'));

  return { plot, curve, area, extremes, windows, needed, now, xTicks, days, yTicks, labels: labels.placed };
}
