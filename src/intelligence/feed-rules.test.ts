// What the feed rules find, without storage: an AIS feed quiet past its limit, and the METAR and
// NOTAM sources stale for every airport an organisation watches.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { aisFeedOutcome, aviationSourceOutcome } from './feed-rules.ts';

const NOW = Date.parse('2026-11-26T12:00:00.000Z');
const ago = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

test('an AIS feed is stale once nothing has come for the limit; stopped or finished it is no source', () => {
  const feed = { id: 'udp://0.0.0.0:10110', state: 'listening', since: ago(60), last_data_at: ago(4), detail: null };
  assert.deepEqual(aisFeedOutcome(feed, NOW, 5 * 60_000), { status: 'categorical', holds: false });
  assert.deepEqual(aisFeedOutcome({ ...feed, last_data_at: ago(6) }, NOW, 5 * 60_000), {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: 'The AIS feed udp://0.0.0.0:10110 has received nothing for 6 min (limit 300 s); it is listening.',
      data: { source: 'ais:udp://0.0.0.0:10110', state: 'listening', detail: null, last_data_at: ago(6), limit_sec: 300 },
    },
  });
  const never = aisFeedOutcome({ ...feed, state: 'reconnecting', since: ago(10), last_data_at: null, detail: 'ECONNREFUSED' }, NOW, 5 * 60_000);
  assert.ok(never.status === 'categorical' && never.holds, 'never received: counted from when it entered its state');
  assert.deepEqual(aisFeedOutcome({ ...feed, state: 'finished', last_data_at: ago(60) }, NOW, 5 * 60_000), { status: 'off' });
  assert.deepEqual(aisFeedOutcome({ ...feed, state: 'stopped', last_data_at: ago(60) }, NOW, 5 * 60_000), { status: 'off' });
});

test('the METAR source is stale when no watched airport has a recent observation; with no source running nothing is', () => {
  const limit = 90 * 60_000;
  const airports = [{ icao: 'EGLL', at: ago(100), error: null }, { icao: 'EGKK', at: ago(95), error: null }];
  const stale = aviationSourceOutcome('metar', { source: 'live', airports }, NOW, limit);
  assert.deepEqual(stale, {
    status: 'categorical', holds: true,
    event: {
      severity: 'warning',
      summary: 'The live METAR source is stale: no airport you watch has METAR observed in the last 90 min.',
      data: { source: 'metar', source_kind: 'live', newest: ago(95), limit_minutes: 90, airports },
    },
  });
  const oneFresh = [...airports, { icao: 'EGSS', at: ago(20), error: null }];
  assert.deepEqual(aviationSourceOutcome('metar', { source: 'simulated', airports: oneFresh }, NOW, limit), { status: 'categorical', holds: false });
  const never = aviationSourceOutcome('notam', { source: 'live', airports: [{ icao: 'EGLL', at: null, error: 'server_error: 502' }] }, NOW, 60 * 60_000);
  assert.ok(never.status === 'categorical' && never.event);
  assert.equal(never.event.summary, 'The live NOTAM source is stale: no airport you watch has NOTAMs fetched in the last 60 min.');
  assert.deepEqual(aviationSourceOutcome('metar', { source: 'operator_only', airports }, NOW, limit), { status: 'off' });
});
