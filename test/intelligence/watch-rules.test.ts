// The watch rules on a real server over real storage. A watched airport: a runway closure NOTAM
// makes it LIMITED (a warning), an aerodrome closure CLOSED (escalated to critical), a restart
// raises nothing new, cancelling both clears the event. A watched port: weather limits set below
// the simulated forecast open `port.weather_hold`, limits above it clear it, and removing the port
// from the watch list clears what it raised. An airport added to a watch list while closed is
// judged at once, not at the next interval. Changes are counted on the shared Redis bus.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { skipRedis } from '../support/backends.ts';
import { startEngine, type EngineServer } from './support.ts';

const HOUR = 3_600_000;
const two = (n: number) => String(n).padStart(2, '0');
const notamTime = (ms: number) => {
  const d = new Date(ms);
  return `${two(d.getUTCFullYear() % 100)}${two(d.getUTCMonth() + 1)}${two(d.getUTCDate())}${two(d.getUTCHours())}${two(d.getUTCMinutes())}`;
};
const notam = (header: string, q: string, text: string, withEnd = true, airport = 'EGLL') => `${header}
Q) EGTT/${q}/IV/NBO/A/000/999/5129N00028W005
A) ${airport} B) ${notamTime(Date.now() - HOUR)}${withEnd ? ` C) ${notamTime(Date.now() + 30 * HOUR)}` : ''}
E) ${text}`;

let engine: EngineServer;
before(async () => {
  if (skipRedis) return;
  engine = await startEngine({ watchIntervalSec: 1 });
});
after(() => engine?.close());

test('a watched airport: LIMITED opens a warning, CLOSED escalates it, a restart raises nothing, OPERATIONAL clears it', { skip: skipRedis }, async () => {
  await engine.call('POST', '/v3/watch-list', { type: 'airport', icao: 'EGLL' });
  await engine.call('POST', '/v3/aviation/notams', notam('A0601/26 NOTAMN', 'QMRLC', 'RWY 09L/27R CLSD DUE TO MAINT'));
  const limited = await engine.until('airport.status_changed', 'EGLL', 'open', 'LIMITED event');
  assert.deepEqual(limited.subject, { type: 'airport', id: 'EGLL', icao: 'EGLL' });
  assert.equal(limited.severity, 'warning');
  assert.deepEqual([limited.data.status, limited.data.previous_status], ['LIMITED', 'OPERATIONAL']);
  assert.ok(limited.data.reasons.some((reason: string) => reason.includes('A0601/26')), JSON.stringify(limited.data.reasons));
  assert.match(limited.summary, /\(EGLL\) is limited: /);

  await engine.call('POST', '/v3/aviation/notams', notam('A0602/26 NOTAMN', 'QFALC', 'AD CLSD'));
  const deadline = Date.now() + 10_000;
  let closed = limited;
  while (closed.severity !== 'critical' && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    [closed] = await engine.events('airport.status_changed', 'EGLL');
  }
  assert.deepEqual([closed.id, closed.state, closed.severity, closed.data.status, closed.data.previous_status], [limited.id, 'open', 'critical', 'CLOSED', 'LIMITED']);
  assert.deepEqual(await engine.settledChanges('EGLL', 'airport.status_changed'), ['opened', 'escalated']);

  await engine.restart();
  assert.deepEqual(await engine.settledChanges('EGLL', 'airport.status_changed'), ['opened', 'escalated'], 'a restart raises nothing new');

  await engine.call('POST', '/v3/aviation/notams', notam('A0603/26 NOTAMC A0601/26', 'QMRXX', 'RWY 09L/27R AVBL', false));
  await engine.call('POST', '/v3/aviation/notams', notam('A0604/26 NOTAMC A0602/26', 'QFAXX', 'AD AVBL', false));
  const cleared = await engine.until('airport.status_changed', 'EGLL', 'cleared', 'cleared event');
  assert.equal(cleared.id, limited.id);
  assert.deepEqual(await engine.settledChanges('EGLL', 'airport.status_changed'), ['opened', 'escalated', 'cleared']);
});

test('a watched port: a forecast beyond its limits opens port.weather_hold, limits above it clear it; removed from the list, it clears', { skip: skipRedis }, async () => {
  // The limits first: the port is judged as soon as it is watched.
  await engine.call('PUT', '/v3/maritime/ports/GBSOU/weather-thresholds', { wind_kn: 1, gust_kn: 1 });
  const entry = await engine.call('POST', '/v3/watch-list', { type: 'port', port_id: 'GBSOU' });
  const held = await engine.until('port.weather_hold', 'GBSOU', 'open', 'weather hold');
  assert.deepEqual([held.subject, held.severity], [{ type: 'port', id: 'GBSOU', port_id: 'GBSOU' }, 'warning']);
  assert.deepEqual([held.data.thresholds.wind_kn, held.data.thresholds.gust_kn], [1, 1]);
  assert.ok(held.data.first_hold.start && held.data.factors.length > 0, JSON.stringify(held.data));
  assert.deepEqual(await engine.settledChanges('GBSOU'), ['opened'], 'evaluated again every second, it says the same: no update');

  await engine.call('PUT', '/v3/maritime/ports/GBSOU/weather-thresholds', { wind_kn: 100, gust_kn: 150, wave_height_m: 20, visibility_m: 10 });
  const cleared = await engine.until('port.weather_hold', 'GBSOU', 'cleared', 'cleared hold');
  assert.equal(cleared.id, held.id);

  await engine.call('PUT', '/v3/maritime/ports/GBSOU/weather-thresholds', { wind_kn: 1, gust_kn: 1 });
  const again = await engine.until('port.weather_hold', 'GBSOU', 'open', 'second hold');
  assert.notEqual(again.id, held.id);
  await engine.call('DELETE', `/v3/watch-list/${entry.id}`);
  const [removed] = await engine.events('port.weather_hold', 'GBSOU');
  assert.deepEqual([removed.id, removed.state], [again.id, 'cleared'], 'cleared with the entry');
  assert.deepEqual(await engine.settledChanges('GBSOU'), ['opened', 'cleared', 'opened', 'cleared'], 'and not raised again');
});

test('an airport added to the watch list while closed is judged at once', { skip: skipRedis }, async () => {
  const slow = await startEngine({ watchIntervalSec: 3600 });
  try {
    await slow.call('POST', '/v3/aviation/notams', notam('A0701/26 NOTAMN', 'QFALC', 'AD CLSD', true, 'EGKK'));
    await slow.call('POST', '/v3/watch-list', { type: 'airport', icao: 'EGKK' });
    const closed = await slow.until('airport.status_changed', 'EGKK', 'open', 'CLOSED event', 5);
    assert.deepEqual([closed.severity, closed.data.status], ['critical', 'CLOSED']);
  } finally {
    await slow.close();
  }
});
