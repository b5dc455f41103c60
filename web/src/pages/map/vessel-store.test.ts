import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PositionUpdate } from '@lamis/sdk';
import { matchesFilter, NO_FILTER, RateMeter, subscribeFilters, VesselStore, type MapFilter } from './vessel-store.ts';

function position(mmsi: number, overrides: Partial<PositionUpdate> = {}): PositionUpdate {
  return {
    mmsi,
    name: `VESSEL ${mmsi}`,
    lat: 51.9,
    lon: 4.4,
    imo: null,
    sog: 12,
    cog: 90,
    heading: 91,
    nav_status: 0,
    vessel_type: 'CARGO',
    flag: 'NL',
    timestamp: '2026-11-21T12:00:00.000Z',
    source: 'simulated',
    ...overrides,
  };
}

test('positions update one record per vessel and bump the version', () => {
  const store = new VesselStore();
  store.applyPosition(position(244_000_001));
  store.applyPosition(position(244_000_002, { vessel_type: 'TANKER' }));
  store.applyPosition(position(244_000_001, { lat: 52, timestamp: '2026-11-21T12:00:05.000Z' }));
  assert.equal(store.size, 2);
  assert.equal(store.version, 3);
  assert.equal(store.get(244_000_001)!.lat, 52);
  assert.equal(store.get(244_000_002)!.category, 'TANKER');
});

test('an older position never replaces a newer one', () => {
  const store = new VesselStore();
  store.applyPosition(position(1, { lat: 50, timestamp: '2026-11-21T12:00:10.000Z' }));
  store.applyPosition(position(1, { lat: 49, timestamp: '2026-11-21T12:00:05.000Z' }));
  assert.equal(store.get(1)!.lat, 50);
});

test('while paused, updates are held (the latest per vessel) and applied on resume', () => {
  const store = new VesselStore();
  store.applyPosition(position(1));
  const version = store.version;
  store.pause();
  for (let second = 1; second <= 5; second++) store.applyPosition(position(1, { lon: 4 + second / 10, timestamp: `2026-11-21T12:00:0${second}.000Z` }));
  store.applyPosition(position(2));
  assert.equal(store.version, version, 'nothing changes on the map while paused');
  assert.equal(store.held, 2);
  assert.equal(store.get(1)!.lon, 4.4);
  store.resume();
  assert.equal(store.held, 0);
  assert.equal(store.get(1)!.lon, 4.5);
  assert.equal(store.size, 2);
});

test('static data fills in a known vessel, after a pause when paused', () => {
  const store = new VesselStore();
  store.applyPosition(position(1, { name: null }));
  store.pause();
  store.applyStatic({
    mmsi: 1, imo: 9_074_729, name: 'EVER GIVEN', callsign: 'H3RC', vessel_type: 'CARGO', ship_type: 70, ais_class: 'A', flag: 'PA',
    dimensions: null, draught: 14.5, destination: 'NLRTM', eta: null, timestamp: '2026-11-21T12:00:00.000Z', source: 'simulated',
  });
  assert.equal(store.get(1)!.name, null);
  store.resume();
  assert.equal(store.get(1)!.name, 'EVER GIVEN');
  assert.equal(store.get(1)!.destination, 'NLRTM');
});

test('filters combine kinds with AND and values with OR, as the stream does', () => {
  const vessel = { category: 'TANKER' as const, flag: 'PA', mmsi: 1, imo: 9_074_729, lat: -17, lon: 179.5 };
  const filter = (overrides: Partial<MapFilter>): MapFilter => ({ ...NO_FILTER, ...overrides });
  assert.ok(matchesFilter(vessel, NO_FILTER));
  assert.ok(matchesFilter(vessel, filter({ vesselTypes: new Set(['CARGO', 'TANKER']) })));
  assert.ok(!matchesFilter(vessel, filter({ vesselTypes: new Set(['CARGO']) })));
  assert.ok(!matchesFilter(vessel, filter({ vesselTypes: new Set(['TANKER']), flags: new Set(['NL']) })));
  assert.ok(matchesFilter(vessel, filter({ imo: new Set([9_074_729]) })));
  assert.ok(matchesFilter(vessel, filter({ box: { minLat: -20, maxLat: -10, minLon: 170, maxLon: -170 } })));
  assert.ok(!matchesFilter(vessel, filter({ box: { minLat: -20, maxLat: -10, minLon: -170, maxLon: 170 } })));
});

test('the subscribe message leaves out empty kinds', () => {
  assert.deepEqual(subscribeFilters(NO_FILTER), {});
  assert.deepEqual(
    subscribeFilters({ ...NO_FILTER, vesselTypes: new Set(['TANKER']), box: { minLat: 1, maxLat: 2, minLon: 3, maxLon: 4 } }, 5),
    { bbox: { minLat: 1, maxLat: 2, minLon: 3, maxLon: 4 }, vesselTypes: ['TANKER'], updateIntervalSec: 5 },
  );
});

test('retain drops vessels a new filter leaves out; expire drops the silent ones', () => {
  const store = new VesselStore();
  store.applyPosition(position(1, { vessel_type: 'TANKER' }));
  store.applyPosition(position(2, { vessel_type: 'CARGO', timestamp: '2026-11-21T11:00:00.000Z' }));
  store.applyPosition(position(3, { vessel_type: 'CARGO', lon: 10 }));
  assert.equal(store.retain({ ...NO_FILTER, vesselTypes: new Set(['CARGO']) }), 1);
  assert.deepEqual([...store.values()].map((vessel) => vessel.mmsi).sort(), [2, 3]);
  assert.equal(store.expire(Date.parse('2026-11-21T11:30:00.000Z')), 1);
  assert.deepEqual([...store.values()].map((vessel) => vessel.mmsi), [3]);
});

test('the rate meter averages the last full seconds', () => {
  const meter = new RateMeter(5);
  const start = 1_000_000;
  for (let second = 0; second < 4; second++) meter.record(start + second * 1000 + 10, 10 * (second + 1));
  // Seconds 0..3 held 10, 20, 30, 40; the current one (4) is still filling.
  meter.record(start + 4000 + 10, 1000);
  assert.equal(meter.perSecond(start + 4500), 25);
  assert.equal(meter.perSecond(start + 60_000), 0, 'a long silence empties the window');
});
