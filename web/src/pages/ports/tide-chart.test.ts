import assert from 'node:assert/strict';
import { test } from 'node:test';
import { niceStep, overlap, tideChart, type TideLevel } from './tide-chart.ts';

// A semi-diurnal tide of 12 h 25 min, 1 m either side of 1.2 m, every 10 minutes for 24 hours.
const START = Date.parse('2026-11-21T21:20:00Z');
const PERIOD = 12.42 * 3_600_000;
const levels: TideLevel[] = Array.from({ length: 145 }, (_, index) => {
  const time = START + index * 600_000;
  return { time: new Date(time).toISOString(), height_m: 1.2 + Math.cos((2 * Math.PI * (time - START)) / PERIOD) };
});
const extremes = [
  { time: new Date(START + PERIOD / 2).toISOString(), type: 'low' as const, height_m: 0.2 },
  { time: new Date(START + PERIOD).toISOString(), type: 'high' as const, height_m: 2.2 },
];

test('the curve spans the plot, highs up and lows down', () => {
  const chart = tideChart({ levels, extremes, width: 640, height: 260 });
  assert.match(chart.curve, /^M44,/);
  assert.equal(chart.curve.split('L').length, levels.length);
  assert.ok(chart.area.endsWith('Z'));
  const [low, high] = chart.extremes;
  assert.ok(high!.y < low!.y, 'a high water is drawn above a low water');
  assert.ok(high!.y >= chart.plot.top && low!.y <= chart.plot.bottom);
  assert.ok(Math.abs(low!.x - (44 + (640 - 44 - 14) * (PERIOD / 2) / (24 * 3_600_000))) < 0.2);
});

test('tidal windows become bands clipped to the chart; the needed height is a line', () => {
  const windows = [
    { start: '2026-11-21T20:00:00Z', end: '2026-11-21T23:00:00Z' },
    { start: '2026-11-22T09:00:00Z', end: '2026-11-22T12:00:00Z' },
    { start: '2026-11-23T09:00:00Z', end: '2026-11-23T12:00:00Z' },
  ];
  const chart = tideChart({ levels, extremes, windows, neededHeight: 1.5, width: 640, height: 260 });
  assert.equal(chart.windows.length, 2, 'a window after the chart ends is left out');
  assert.equal(chart.windows[0]!.x, chart.plot.left, 'a window that began earlier starts at the left edge');
  const hour = (chart.plot.right - chart.plot.left) / 24;
  assert.ok(Math.abs(chart.windows[1]!.width - 3 * hour) < 0.2);
  assert.ok(chart.needed!.y > chart.plot.top && chart.needed!.y < chart.plot.bottom);
});

test('a needed height above every tide widens the scale to show it', () => {
  const chart = tideChart({ levels, extremes, neededHeight: 3.4, width: 640, height: 260 });
  assert.ok(chart.needed!.y >= chart.plot.top);
  assert.equal(chart.yTicks.at(-1)!.label, '4 m');
});

test('axes: hours in UTC, the day boundary with its date, round heights', () => {
  const chart = tideChart({ levels, extremes, width: 640, height: 260, now: START + 3_600_000 });
  assert.deepEqual(chart.xTicks.slice(0, 3).map((tick) => tick.label), ['00:00', '03:00', '06:00']);
  assert.deepEqual(chart.days.map((day) => day.label), ['22 Nov']);
  assert.deepEqual(chart.yTicks.map((tick) => tick.label), ['0.0 m', '0.5 m', '1.0 m', '1.5 m', '2.0 m', '2.5 m']);
  assert.ok(chart.now !== null && chart.now > chart.plot.left);
  const narrow = tideChart({ levels, extremes, width: 360, height: 220 });
  assert.ok(narrow.xTicks.length < chart.xTicks.length + 1 && narrow.xTicks.length <= 5, 'a phone-width chart labels fewer hours');
});

test('round steps', () => {
  assert.equal(niceStep(2.3, 4), 1);
  assert.equal(niceStep(0.9, 4), 0.5);
  assert.equal(niceStep(12, 4), 5);
});

test('no two labels overlap, at a desk or on a phone, even where a high water meets "now" and the needed line', () => {
  const high = extremes[1]!;
  for (const width of [1400, 640, 360]) {
    const chart = tideChart({ levels, extremes, windows: [], neededHeight: 2.15, now: Date.parse(high.time), width, height: width < 500 ? 230 : 280 });
    const { labels } = chart;
    for (const [index, one] of labels.entries()) {
      for (const other of labels.slice(index + 1)) assert.ok(!overlap(one.box, other.box), `${width} px: "${one.text}" overlaps "${other.text}"`);
      assert.ok(one.box.left >= 0 && one.box.right <= width, `${width} px: "${one.text}" stays inside the chart`);
    }
    assert.ok(labels.some((one) => one.kind === 'high') && labels.some((one) => one.kind === 'low'), `${width} px: the high and low waters are labelled`);
    assert.ok(labels.some((one) => one.kind === 'needed'), `${width} px: the needed height is labelled`);
    assert.ok(labels.some((one) => one.text === 'UTC'), `${width} px: the time axis says UTC`);
  }
});
