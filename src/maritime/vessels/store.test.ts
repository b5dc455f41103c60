import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decoded, positionReport, staticVoyage } from './fixtures.ts';
import { etaToIso, VesselStore } from './store.ts';

const now = Date.parse('2026-11-21T12:00:00Z');

test('position and static/voyage reports build one vessel', () => {
  const store = new VesselStore();
  const first = store.apply(decoded(positionReport(244_123_456, 51.95, 4.05)), now, 'live');
  assert.deepEqual([first?.position, first?.static], [true, false]);
  const second = store.apply(decoded(staticVoyage(244_123_456)), now + 1000, 'live');
  assert.equal(second?.static, true);
  const vessel = store.get(244_123_456);
  assert.ok(vessel);
  assert.equal(vessel.flag?.alpha2, 'NL');
  assert.equal(vessel.mmsi_kind, 'ship');
  assert.equal(vessel.ais_class, 'A');
  assert.equal(vessel.name, 'NORDIC SPIRIT');
  assert.equal(vessel.imo, 9074729);
  assert.equal(vessel.category, 'TANKER');
  assert.equal(vessel.draught, 11.8);
  assert.equal(vessel.destination, 'NLRTM');
  assert.equal(vessel.eta, '2026-12-03T14:30:00.000Z');
  assert.equal(vessel.dimensions?.length, 180);
  assert.ok(Math.abs((vessel.position?.lat ?? 0) - 51.95) < 1e-5);
  assert.equal(vessel.position?.sog, 12.3);
  assert.equal(vessel.position?.cog, 271.5);
  assert.equal(store.byImo(9074729)?.mmsi, 244_123_456);
  // The same static report again changes nothing.
  assert.equal(store.apply(decoded(staticVoyage(244_123_456)), now + 2000, 'live')?.static, false);
});

test('bbox queries find only vessels inside, across the antimeridian too', () => {
  const store = new VesselStore();
  const places: [number, number, number][] = [
    [211_000_001, 54.3, 10.1], [211_000_002, 54.9, 10.9], [211_000_003, 40.0, -74.0],
    [211_000_004, -17.5, 179.8], [211_000_005, -17.6, -179.9], [211_000_006, -17.6, 170.0],
  ];
  for (const [mmsi, lat, lon] of places) store.apply(decoded(positionReport(mmsi, lat, lon)), now, 'live');
  const ids = (box: Parameters<VesselStore['inBox']>[0]) => [...store.inBox(box)].map((v) => v.mmsi).sort();
  assert.deepEqual(ids({ minLat: 54, maxLat: 55, minLon: 10, maxLon: 11 }), [211_000_001, 211_000_002]);
  assert.deepEqual(ids({ minLat: 54, maxLat: 54.5, minLon: 10, maxLon: 10.5 }), [211_000_001]);
  assert.deepEqual(ids({ minLat: -18, maxLat: -17, minLon: 179, maxLon: -179 }), [211_000_004, 211_000_005]);
});

test('a vessel that moves changes cell; stale positions leave the live index but the vessel stays known', () => {
  const store = new VesselStore();
  store.apply(decoded(positionReport(211_000_001, 54.3, 10.1)), now, 'live');
  store.apply(decoded(positionReport(211_000_001, 56.3, 12.1)), now + 60_000, 'live');
  assert.equal([...store.inBox({ minLat: 54, maxLat: 55, minLon: 10, maxLon: 11 })].length, 0);
  assert.equal([...store.inBox({ minLat: 56, maxLat: 57, minLon: 12, maxLon: 13 })].length, 1);
  // The cut-off is the oldest time still counted as live.
  assert.equal(store.expire(now + 60_000), 0);
  assert.equal(store.expire(now + 60_001), 1);
  assert.equal(store.liveCount, 0);
  assert.ok(store.get(211_000_001)?.position);
});

test('a report with no position keeps the last one', () => {
  const store = new VesselStore();
  store.apply(decoded(positionReport(211_000_001, 54.3, 10.1)), now, 'live');
  const change = store.apply(decoded(positionReport(211_000_001, 91, 181)), now + 1000, 'live');
  assert.equal(change?.position, false);
  assert.ok(Math.abs((store.get(211_000_001)?.position?.lat ?? 0) - 54.3) < 1e-5);
});

test('a report older than the position held does not move the vessel back', () => {
  const store = new VesselStore();
  store.apply(decoded(positionReport(244_123_456, 51.9, 4.48)), now, 'live');
  const late = store.apply(decoded(positionReport(244_123_456, 52.05, 3.8)), now - 60_000, 'live');
  assert.equal(late?.position, false);
  assert.ok(Math.abs((store.get(244_123_456)?.position?.lat ?? 0) - 51.9) < 1e-5);
  assert.equal(store.get(244_123_456)?.last_update, new Date(now).toISOString());
  assert.deepEqual(store.inBox({ minLat: 52, maxLat: 52.1, minLon: 3.7, maxLon: 3.9 }).next().done, true);
});

test('a fast turn (ROT ±127) keeps its direction with no rate', () => {
  const store = new VesselStore();
  store.apply(decoded(positionReport(211_000_001, 54.3, 10.1, { turn: -127 })), now, 'live');
  assert.deepEqual([store.get(211_000_001)?.position?.rot, store.get(211_000_001)?.position?.rot_direction], [null, 'port']);
  store.apply(decoded(positionReport(211_000_001, 54.3, 10.1, { turn: 20 })), now + 1000, 'live');
  assert.deepEqual([store.get(211_000_001)?.position?.rot, store.get(211_000_001)?.position?.rot_direction], [(20 / 4.733) ** 2, 'starboard']);
});

test('AIS ETAs get the year that makes them the next such time', () => {
  const eta = { month: 1, day: 5, hour: 6, minute: 0 };
  assert.equal(etaToIso(eta, Date.parse('2026-12-20T00:00:00Z')), '2027-01-05T06:00:00.000Z');
  assert.equal(etaToIso(eta, Date.parse('2027-01-20T00:00:00Z')), '2027-01-05T06:00:00.000Z');
  assert.equal(etaToIso({ month: 2, day: 30, hour: 0, minute: 0 }, now), null);
  assert.equal(etaToIso(null, now), null);
});

test('a vessel names its latest source and every source that reported it', () => {
  const store = new VesselStore();
  store.apply(decoded(positionReport(244_123_456, 51.95, 4.05)), now, 'live');
  store.apply(decoded(staticVoyage(244_123_456)), now + 1000, 'upload');
  store.apply(decoded(positionReport(244_123_456, 51.96, 4.06)), now + 2000, 'live');
  const vessel = store.get(244_123_456)!;
  assert.equal(vessel.source, 'live');
  assert.deepEqual(vessel.sources, ['live', 'upload']);
});
