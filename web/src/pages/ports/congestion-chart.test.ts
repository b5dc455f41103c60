import assert from 'node:assert/strict';
import { test } from 'node:test';
import { congestionChart, type CongestionHour } from './congestion-chart.ts';

const START = Date.parse('2026-11-19T18:00:00Z');
/** Two days of hours: three waiting from the tenth hour for six hours, five at berth throughout. */
const hours: CongestionHour[] = Array.from({ length: 48 }, (_, index) => ({
  at: new Date(START + index * 3_600_000).toISOString(),
  waiting: index >= 10 && index < 16 ? 3 : 0,
  at_berth: 5,
}));

test('waiting and berthed vessels are step lines across the plot, whole vessels on the axis', () => {
  const chart = congestionChart(hours, 516, 180);
  const { plot } = chart;
  assert.deepEqual([chart.peakWaiting, chart.peakAtBerth], [3, 5]);
  assert.ok(chart.waiting.startsWith(`M${plot.left},${plot.bottom}`), chart.waiting.slice(0, 20));
  assert.ok(chart.waiting.endsWith(`H${plot.right}`));
  assert.equal(chart.waiting.split('V').length - 1, 47, 'a level for every hour after the first');
  const levels = [...chart.waiting.matchAll(/V([\d.]+)/g)].map((match) => Number(match[1]));
  assert.ok(Math.min(...levels) < plot.bottom, 'the waiting vessels lift the line');
  assert.ok(chart.yTicks.every((tick) => Number.isInteger(Number(tick.label))));
  assert.equal(chart.yTicks[0]!.position, plot.bottom);
  assert.equal(chart.yTicks.at(-1)!.position, plot.top, 'the axis ends at a whole step above the peak');
  assert.deepEqual(chart.xTicks.map((tick) => tick.label), ['20 Nov', '21 Nov'], 'midnights UTC');
});

test('no history draws nothing and keeps an axis', () => {
  const chart = congestionChart([], 300, 180);
  assert.deepEqual([chart.waiting, chart.atBerth, chart.peakWaiting], ['', '', 0]);
  assert.deepEqual(chart.yTicks.map((tick) => tick.label), ['0', '1']);
});
