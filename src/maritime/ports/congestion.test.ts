import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decoded, positionReport } from '../vessels/fixtures.ts';
import { VesselStore } from '../vessels/store.ts';
import { PortAreas, type StopCluster } from './areas.ts';
import { capacityOf } from './berths.ts';
import type { PortCall } from './calls.ts';
import { congestion, hourly } from './congestion.ts';
import { rotterdamPorts } from './fixtures.ts';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-05-04T12:30:00Z');
const ANCHORAGE = { lat: 51.98, lon: 4.05 };
const iso = (ms: number) => new Date(ms).toISOString();

function call(id: string, mmsi: number, arrivedMs: number, berthedMs: number | null, departedMs: number | null, anchored: boolean): PortCall {
  return {
    id, mmsi, port_id: 'NLRTM', vessel_name: null, imo: null, ship_type: 70,
    arrived_at: iso(arrivedMs), arrival_observed: true, arrival_status: anchored ? 'anchored' : 'moored', arrival_lat: 51.9, arrival_lon: 4.48,
    berthed_at: berthedMs === null ? null : iso(berthedMs), berth_lat: null, berth_lon: null,
    departed_at: departedMs === null ? null : iso(departedMs), departure_observed: departedMs === null ? null : true,
    draught_arrival_m: null, draught_departure_m: null, source: 'live',
  };
}

test('hourly counts: waiting from arrival to berthing, at berth from berthing to departure', () => {
  const from = Date.parse('2026-05-04T00:00:00Z');
  const hours = hourly([
    call('a', 1, from + 0.5 * HOUR, from + 3.5 * HOUR, from + 5.5 * HOUR, true),
    call('b', 2, from + 1.5 * HOUR, null, from + 2.5 * HOUR, true), // left without berthing
    call('c', 3, from + 4.2 * HOUR, from + 4.2 * HOUR, null, false),
  ], from - 1, from + 6 * HOUR + 1);
  assert.deepEqual(hours.map((hour) => hour.at.slice(11, 16)), ['00:00', '01:00', '02:00', '03:00', '04:00', '05:00', '06:00']);
  assert.deepEqual(hours.map((hour) => hour.waiting), [0, 1, 2, 1, 0, 0, 0]);
  assert.deepEqual(hours.map((hour) => hour.at_berth), [0, 0, 0, 0, 1, 2, 1]);
});

test('waiting vessels by where they lie, the median over calls that anchored first, occupancy over capacity', () => {
  const index = rotterdamPorts();
  const rotterdam = index.get('NLRTM')!;
  const seen = iso(NOW - HOUR);
  const anchorage: StopCluster = { id: 'stp_a', port_id: 'NLRTM', kind: 'anchorage', ...ANCHORAGE, radius_nm: 0.3, stops: 5, first_seen: seen, last_seen: seen };
  const area = new PortAreas(index, [anchorage], () => NOW).of(rotterdam);
  const store = new VesselStore();
  store.apply(decoded(positionReport(244_000_001, ANCHORAGE.lat + 0.005, ANCHORAGE.lon, { status: 1, speed: 1 })), NOW - 60_000, 'live');
  store.apply(decoded(positionReport(244_000_002, 51.95, 4.3, { status: 0, speed: 40 })), NOW - 60_000, 'live');

  const waitingAtAnchor = call('w1', 244_000_001, NOW - 10 * HOUR, null, null, true);
  const movingIn = call('w2', 244_000_002, NOW - 2 * HOUR, null, null, true);
  const alongside = call('b1', 244_000_003, NOW - 30 * HOUR, NOW - 20 * HOUR, null, true);
  const history = [
    call('h1', 5, NOW - 50 * HOUR, NOW - 44 * HOUR, NOW - 30 * HOUR, true), // waited 6 h
    call('h2', 6, NOW - 40 * HOUR, NOW - 38 * HOUR, NOW - 20 * HOUR, true), // waited 2 h
    call('h3', 7, NOW - 30 * HOUR, NOW - 30 * HOUR, NOW - 10 * HOUR, false), // straight alongside
    call('h4', 8, NOW - 9 * 24 * HOUR, NOW - 8.5 * 24 * HOUR, NOW - 8 * 24 * HOUR, true), // berthed before the week
    alongside, waitingAtAnchor, movingIn,
  ];
  const answer = congestion({
    area,
    nowMs: NOW,
    days: 7,
    inPort: [{ call: waitingAtAnchor, status: 'anchored' }, { call: movingIn, status: 'under_way' }, { call: alongside, status: 'moored' }],
    history,
    capacity: capacityOf(rotterdam, 0, 3),
    vessel: (mmsi) => store.get(mmsi),
  });
  assert.deepEqual([answer.waiting, answer.at_berth], [2, 1]);
  assert.deepEqual(answer.waiting_vessels.map((vessel) => [vessel.mmsi, vessel.where, vessel.state, vessel.waiting_hours]), [
    [244_000_001, 'anchorage', 'anchored', 10],
    [244_000_002, 'approach', 'under_way', 2],
  ]);
  // h1 (6 h), h2 (2 h) and b1 (10 h) anchored first and berthed this week; h3 went straight in.
  assert.deepEqual([answer.calls_berthed, answer.calls_waited, answer.median_wait_hours], [4, 3, 6]);
  assert.deepEqual([answer.capacity.berths, answer.berth_occupancy], [40, 0.03]);
  assert.equal(answer.history.length, 7 * 24);
  assert.deepEqual(answer.history.at(-1), { at: '2026-05-04T12:00:00.000Z', waiting: 2, at_berth: 1 });
});
