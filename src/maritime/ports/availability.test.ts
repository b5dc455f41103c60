import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Vessel } from '../vessels/store.ts';
import type { ExpectedArrival } from './arrivals.ts';
import { availability, peakAtBerth, type AvailabilityInput } from './availability.ts';
import type { Berth } from './berths.ts';
import type { InPortStatus, PortCall } from './calls.ts';
import { rotterdamPorts } from './fixtures.ts';

const NOW = Date.parse('2026-05-04T12:00:00Z');
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const rotterdam = rotterdamPorts().get('NLRTM')!;
const botlek = rotterdamPorts().get('WPI-31150')!;

function call(mmsi: number, arrived: number, options: { berthed?: number | null; departed?: number | null; at?: [number, number] } = {}): PortCall {
  const berthed = options.berthed === undefined ? arrived : options.berthed;
  const [lat, lon] = options.at ?? [51.9, 4.48];
  return {
    id: `call_${mmsi}_${arrived}`, mmsi, port_id: 'NLRTM', vessel_name: `SHIP ${mmsi}`, imo: null, ship_type: 70,
    arrived_at: iso(arrived), arrival_observed: true, arrival_status: berthed === null ? 'anchored' : 'moored', arrival_lat: lat, arrival_lon: lon,
    berthed_at: berthed === null ? null : iso(berthed), berth_lat: berthed === null ? null : lat, berth_lon: berthed === null ? null : lon,
    departed_at: options.departed == null ? null : iso(options.departed), departure_observed: options.departed == null ? null : true,
    draught_arrival_m: null, draught_departure_m: null, source: 'live',
  };
}

function berth(id: string, lat: number | null, lon: number | null, length_m: number | null = 300): Berth {
  return { id, port_id: 'NLRTM', name: id.toUpperCase(), length_m, depth_m: 15, cargo_types: [], lat, lon, organisation_id: null, created_at: iso(NOW), updated_at: iso(NOW) };
}

const cargo = { category: 'CARGO', name: null } as unknown as Vessel;

function arrival(mmsi: number, eta: number | null): ExpectedArrival {
  const vessel = { ...cargo, mmsi, name: `INBOUND ${mmsi}`, eta: eta === null ? null : iso(eta) } as Vessel;
  return { vessel, match: 'destination', destination: null, distance_nm: 100, course_eta: null, fit: { verdict: 'unknown', checks: [], unknown: [] } };
}

function input(overrides: Partial<AvailabilityInput>): AvailabilityInput {
  return { port: rotterdam, atMs: NOW, nowMs: NOW, berths: [], history: [], inPort: [], arrivals: [], vessel: () => cargo, ...overrides };
}

const open = (calls: PortCall[], status: InPortStatus = 'moored') => calls.map((c) => ({ call: c, status }));

describe('berth availability', () => {
  test('without berth records, capacity is estimated from harbour size, never below the peak seen', () => {
    const quiet = availability(input({}));
    assert.deepEqual(quiet.capacity, { basis: 'estimate', berths: 40, by_harbour_size: 40, observed_peak: 0 });
    const busy = Array.from({ length: 45 }, (_, i) => call(244_000_000 + i, NOW - 48 * HOUR + i * 60_000, { departed: NOW - 10 * HOUR }));
    assert.deepEqual(availability(input({ history: busy })).capacity, { basis: 'estimate', berths: 45, by_harbour_size: 40, observed_peak: 45 });
    assert.equal(availability(input({ port: botlek })).capacity.berths, 15);
    const recorded = availability(input({ berths: [berth('q1', null, null), berth('q2', null, null)] }));
    assert.deepEqual(recorded.capacity, { basis: 'berths', berths: 2, by_harbour_size: null, observed_peak: null });
  });

  test('now: vessels at berth and at anchor, free berths, and who leaves and comes within a day', () => {
    const alongside = call(1, NOW - 20 * HOUR); // cargo, typical 24 h: leaves in 4 h
    const longStay = call(2, NOW - 2 * HOUR); // leaves in 22 h
    const overdue = call(3, NOW - 40 * HOUR);
    const anchored = call(4, NOW - HOUR, { berthed: null });
    const leaving = call(5, NOW - 10 * HOUR);
    const answer = availability(input({
      berths: [berth('q1', null, null), berth('q2', null, null), berth('q3', null, null), berth('q4', null, null)],
      inPort: [...open([alongside, longStay, overdue]), ...open([anchored], 'anchored'), ...open([leaving], 'under_way')],
      arrivals: [arrival(10, NOW + 5 * HOUR), arrival(11, NOW + 30 * HOUR), arrival(12, null)],
    }));
    assert.equal(answer.basis, 'now');
    assert.deepEqual([answer.at_berth, answer.waiting, answer.available], [3, 1, 1]);
    assert.deepEqual(answer.vessels.map((v) => [v.mmsi, v.state]), [[1, 'at_berth'], [2, 'at_berth'], [3, 'at_berth'], [4, 'at_anchor']]);
    assert.deepEqual(answer.expected_departures.map((v) => [v.mmsi, v.expected_departure_at]), [[1, iso(NOW + 4 * HOUR)], [2, iso(NOW + 22 * HOUR)]]);
    const late = answer.vessels.find((v) => v.mmsi === 3)!;
    assert.deepEqual([late.expected_departure_at, late.expected_departure_basis], [null, 'overdue']);
    assert.deepEqual(answer.expected_arrivals.map((a) => [a.mmsi, a.eta, a.eta_basis]), [[10, iso(NOW + 5 * HOUR), 'reported']]);
  });

  test('typical stays come from the port\'s own recent calls once there are enough of them', () => {
    const history = [10, 12, 14, 16, 40].map((hours, i) => call(100 + i, NOW - 100 * HOUR + i * HOUR, { departed: NOW - 100 * HOUR + i * HOUR + hours * HOUR }));
    const inPort = open([call(1, NOW - 2 * HOUR)]);
    const answer = availability(input({ history, inPort }));
    assert.equal(answer.typical_stay_hours, 14);
    assert.deepEqual([answer.vessels[0]!.expected_departure_at, answer.vessels[0]!.expected_departure_basis], [iso(NOW + 12 * HOUR), 'port_history']);
    const fewer = availability(input({ history: history.slice(0, 4), inPort }));
    assert.equal(fewer.typical_stay_hours, null);
    assert.equal(fewer.vessels[0]!.expected_departure_basis, 'default');
  });

  test('a forecast: departures by then free berths, anchored vessels and arrivals by then want them', () => {
    const answer = availability(input({
      atMs: NOW + 10 * HOUR,
      berths: [berth('q1', null, null), berth('q2', null, null)],
      inPort: [...open([call(1, NOW - 20 * HOUR), call(2, NOW - 2 * HOUR)]), ...open([call(3, NOW - HOUR, { berthed: null })], 'anchored')],
      arrivals: [arrival(10, NOW + 5 * HOUR), arrival(11, NOW + 9 * HOUR), arrival(12, NOW + 11 * HOUR)],
    }));
    assert.equal(answer.basis, 'forecast');
    // Vessel 1 leaves at +4 h; 2 stays; 3 waits at anchor; 10 and 11 come: demand 4 for 2 berths.
    assert.deepEqual(answer.vessels.map((v) => v.mmsi), [2, 3]);
    assert.deepEqual(answer.expected_departures.map((v) => v.mmsi), [1]);
    assert.deepEqual(answer.expected_arrivals.map((a) => a.mmsi), [10, 11]);
    assert.deepEqual([answer.at_berth, answer.waiting, answer.available], [2, 2, 0]);
  });

  test('a past time from the recorded calls', () => {
    const history = [
      call(1, NOW - 30 * HOUR, { departed: NOW - 5 * HOUR }),
      call(2, NOW - 12 * HOUR, { berthed: NOW - 8 * HOUR, departed: NOW - 2 * HOUR }),
      call(3, NOW - 3 * HOUR),
    ];
    const answer = availability(input({ atMs: NOW - 10 * HOUR, history }));
    assert.equal(answer.basis, 'recorded');
    assert.deepEqual(answer.vessels.map((v) => [v.mmsi, v.state]), [[1, 'at_berth'], [2, 'at_anchor']]);
    assert.deepEqual([answer.at_berth, answer.waiting, answer.available], [1, 1, 39]);
    assert.deepEqual(answer.expected_arrivals, []);
  });

  test('vessels are placed at the nearest positioned berth within reach, one a berth', () => {
    // Berth q1 at 4.4800, q2 300 m east; vessels berthed 40 m and 120 m from q1, one far from both.
    const answer = availability(input({
      berths: [berth('q1', 51.9, 4.48), berth('q2', 51.9, 4.48437), berth('q3', null, null)],
      inPort: open([
        call(1, NOW - HOUR, { at: [51.9, 4.48058] }),
        call(2, NOW - HOUR, { at: [51.9, 4.48175] }),
        call(3, NOW - HOUR, { at: [51.93, 4.48] }),
      ]),
    }));
    assert.deepEqual(answer.berths.map((b) => [b.id, b.occupied_by?.mmsi ?? null]), [['q1', 1], ['q2', 2]]);
    assert.deepEqual(answer.vessels.map((v) => v.berth_id), ['q1', 'q2', null]);
  });

  test('the peak at berth counts overlapping stays only', () => {
    const calls = [call(1, NOW - 10 * HOUR, { departed: NOW - 5 * HOUR }), call(2, NOW - 6 * HOUR, { departed: NOW - 4 * HOUR }), call(3, NOW - 5 * HOUR)];
    assert.equal(peakAtBerth(calls, NOW - 24 * HOUR, NOW), 2);
    assert.equal(peakAtBerth(calls, NOW - 24 * HOUR, NOW - 9 * HOUR), 1);
  });
});
