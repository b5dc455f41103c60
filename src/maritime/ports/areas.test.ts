import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { haversineNm } from '../../platform/geo/great-circle.ts';
import { flatRing, ringHolds, ringPositions } from '../../platform/geo/ring.ts';
import { decoded, positionReport } from '../vessels/fixtures.ts';
import { VesselStore } from '../vessels/store.ts';
import {
  areaHolds, baseRadiusNm, convexHull, deriveArea, FORGET_DAYS, PortAreas, reachNm, stopKind, STOP_GAP_MS, type StopReport,
} from './areas.ts';
import { PortCallDetector } from './calls.ts';
import { rotterdamPorts, seaPortEntry, wpiEntry } from './fixtures.ts';
import { mergePorts } from './merge.ts';
import type { Port } from './model.ts';
import { createPortIndex } from './port-index.ts';

const T0 = Date.parse('2026-05-04T06:00:00Z');
const MINUTE = 60_000;
const DAY = 86_400_000;
/** Maasvlakte terminals, about 19 nm west of the WPI's Rotterdam position, beyond its 10 nm circle. */
const MAASVLAKTE = { lat: 51.96, lon: 3.98 };
const BOTLEK = { lat: 51.882, lon: 4.3 };

const moored = (mmsi: number, at: { lat: number; lon: number }, atMs: number, sog = 0): StopReport => ({ mmsi, ...at, sog, nav_status: 5, atMs });
const anchored = (mmsi: number, at: { lat: number; lon: number }, atMs: number): StopReport => ({ mmsi, ...at, sog: 0.2, nav_status: 1, atMs });

function harbour() {
  const index = rotterdamPorts();
  let now = T0;
  const areas = new PortAreas(index, [], () => now);
  return { index, areas, rotterdam: index.get('NLRTM')!, botlek: index.get('WPI-31150')!, setNow: (ms: number) => (now = ms) };
}

/** A point `nm` from the port, due east. */
const east = (port: Port, nm: number) => ({ lat: port.lat, lon: port.lon + nm / (60 * Math.cos((port.lat * Math.PI) / 180)) });

describe('port areas', () => {
  test('the base radius goes by harbour size, scaled by harbour type', () => {
    assert.equal(baseRadiusNm({ harbour_size: 'large', harbour_type: 'river_natural' }), 12);
    assert.equal(baseRadiusNm({ harbour_size: 'medium', harbour_type: 'open_roadstead' }), 9);
    assert.equal(baseRadiusNm({ harbour_size: 'small', harbour_type: 'coastal_breakwater' }), 3.2);
    assert.equal(baseRadiusNm({ harbour_size: null, harbour_type: null }), 3);
    assert.equal(reachNm({ harbour_size: 'large', harbour_type: 'river_natural' }), 36);
    assert.equal(reachNm({ harbour_size: 'very_small', harbour_type: null }), 6);
  });

  test('a convex hull and the even-odd test', () => {
    const hull = convexHull([{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 4 }, { x: 0, y: 4 }, { x: 2, y: 2 }, { x: 1, y: 3 }]);
    assert.deepEqual(hull, [{ x: 0, y: 0 }, { x: 4, y: 0 }, { x: 4, y: 4 }, { x: 0, y: 4 }]);
    const ring = flatRing([...hull.map(({ x, y }) => [x, y] as const), [0, 0]]);
    assert.equal(ringHolds(ring, 2, 2), true);
    assert.equal(ringHolds(ring, 3.99, 0.01), true);
    assert.equal(ringHolds(ring, 4.01, 2), false);
    assert.equal(ringHolds(ring, -1, 2), false);
  });

  test('without evidence the area is the base circle, and a vessel in port keeps the exit margin', () => {
    const { areas, rotterdam } = harbour();
    const area = areas.of(rotterdam);
    assert.equal(area.derivation.method, 'base');
    assert.equal(area.derivation.base_radius_nm, 10);
    assert.match(area.derivation.reasoning, /No AIS evidence/);
    const positions = ringPositions(area.polygon);
    assert.equal(positions.length, 33, 'a 32-gon');
    assert.deepEqual(positions[0], positions.at(-1), 'the ring is closed');
    for (const bearing of [0, 45, 90, 180, 270]) {
      const rad = (bearing * Math.PI) / 180;
      const at = (nm: number) => ({
        lat: rotterdam.lat + (nm * Math.cos(rad)) / 60,
        lon: rotterdam.lon + (nm * Math.sin(rad)) / (60 * Math.cos((rotterdam.lat * Math.PI) / 180)),
      });
      assert.equal(areaHolds(area, at(9.95)), true, `9.95 nm at ${bearing}°`);
      assert.equal(areaHolds(area, at(10.2)), false, `10.2 nm at ${bearing}°`);
      assert.equal(areaHolds(area, at(10.4), true), true, `10.4 nm at ${bearing}° is within the exit margin`);
      assert.equal(areaHolds(area, at(10.7), true), false);
    }
  });

  test('made beforehand a slice at a time, the areas are those made on first use; a stop learned meanwhile keeps its area', async () => {
    const { index, areas: onFirstUse, rotterdam } = harbour();
    const sliced = new PortAreas(index, [], () => T0);
    // A stop learned before the slices reach the port: they leave its area as learned.
    assert.equal(sliced.learn(rotterdam, moored(244_000_001, MAASVLAKTE, T0)), 'new');
    const learned = sliced.of(rotterdam);
    let pauses = 0;
    await sliced.prepare(async () => pauses++, 1);
    assert.equal(pauses, index.ports.length);
    assert.equal(sliced.of(rotterdam), learned);
    assert.equal(sliced.of(rotterdam).berth_clusters.length, 1);
    for (const port of index.ports.filter((other) => other !== rotterdam)) assert.deepEqual(sliced.of(port).polygon, onFirstUse.of(port).polygon);
    for (const port of index.ports) assert.equal(sliced.portAt(port), onFirstUse.portAt(port));
  });

  test('only moored and at-anchor reports below 0.5 kn are stops', () => {
    assert.equal(stopKind({ nav_status: 5, sog: 0 }), 'berth');
    assert.equal(stopKind({ nav_status: 1, sog: 0.4 }), 'anchorage');
    assert.equal(stopKind({ nav_status: 1, sog: 0.5 }), null);
    assert.equal(stopKind({ nav_status: 0, sog: 0 }), null, 'a stop by speed alone says nothing about berth or anchorage');
    assert.equal(stopKind({ nav_status: 5, sog: null }), null);
  });

  test('stops cluster: one vessel staying is one stop, a second vessel or a return after a gap another', () => {
    const { areas, rotterdam } = harbour();
    assert.equal(areas.learn(rotterdam, anchored(1, MAASVLAKTE, T0)), 'new');
    assert.equal(areas.learn(rotterdam, anchored(1, { lat: MAASVLAKTE.lat + 0.002, lon: MAASVLAKTE.lon }, T0 + 10 * MINUTE)), 'same');
    let [cluster] = areas.of(rotterdam).anchorages;
    assert.equal(cluster!.stops, 1);
    assert.ok(Math.abs(cluster!.radius_nm - 0.12) < 0.01, `radius ${cluster!.radius_nm}`);
    assert.equal(cluster!.last_seen, new Date(T0 + 10 * MINUTE).toISOString());
    assert.equal(areas.of(rotterdam).derivation.method, 'base', 'one stop is not evidence yet');

    assert.equal(areas.learn(rotterdam, anchored(2, { lat: MAASVLAKTE.lat, lon: MAASVLAKTE.lon + 0.01 }, T0 + 20 * MINUTE)), 'new');
    assert.equal(areas.learn(rotterdam, anchored(1, MAASVLAKTE, T0 + 10 * MINUTE + STOP_GAP_MS + 1)), 'new', 'back after more than the gap');
    [cluster] = areas.of(rotterdam).anchorages;
    assert.equal(cluster!.stops, 3);
    assert.ok(cluster!.lon > MAASVLAKTE.lon && cluster!.lon < MAASVLAKTE.lon + 0.01, 'the centroid moved towards the second stop');
    assert.equal(areas.of(rotterdam).berth_clusters.length, 0, 'anchorages and berths are kept apart');

    assert.equal(areas.learn(rotterdam, moored(3, MAASVLAKTE, T0)), 'new');
    assert.equal(areas.of(rotterdam).berth_clusters.length, 1);
    assert.equal(areas.learn(rotterdam, moored(4, { lat: 51.5, lon: 3.2 }, T0)), null, 'beyond the port\'s reach');
    assert.equal(areas.learn(rotterdam, moored(5, MAASVLAKTE, T0, 0.6)), null, 'moving at 0.6 kn');
  });

  test('evidence far from the WPI position widens the area that way, not round about', () => {
    const { areas, rotterdam } = harbour();
    areas.learn(rotterdam, moored(1, MAASVLAKTE, T0));
    areas.learn(rotterdam, moored(2, { lat: MAASVLAKTE.lat + 0.003, lon: MAASVLAKTE.lon }, T0 + MINUTE));
    const area = areas.of(rotterdam);
    assert.equal(area.derivation.method, 'evidence');
    assert.equal(area.derivation.clusters_used, 1);
    assert.match(area.derivation.reasoning, /convex hull of 1 cluster/);
    assert.ok(haversineNm(rotterdam.lat, rotterdam.lon, MAASVLAKTE.lat, MAASVLAKTE.lon) > 18);
    assert.equal(areas.holds(rotterdam, MAASVLAKTE), true);
    assert.equal(areas.holds(rotterdam, { lat: MAASVLAKTE.lat, lon: MAASVLAKTE.lon - 0.02 }), true, 'the cluster\'s margin');
    assert.equal(areas.holds(rotterdam, east(rotterdam, 10.5)), false, 'east of the city the area stays the base circle');
    assert.equal(areas.holds(rotterdam, { lat: MAASVLAKTE.lat, lon: MAASVLAKTE.lon - 0.2 }), false, '7 nm out to sea');
  });

  test('where areas overlap, a port whose cluster holds the point wins, then the nearest', () => {
    const { areas, rotterdam } = harbour();
    assert.equal(areas.portAt(BOTLEK)?.id, 'WPI-31150', 'in both circles, nearer Botlek');
    areas.learn(rotterdam, moored(1, BOTLEK, T0));
    areas.learn(rotterdam, moored(2, BOTLEK, T0 + MINUTE));
    assert.equal(areas.portAt(BOTLEK)?.id, 'NLRTM', 'Rotterdam\'s berths are there');
    assert.equal(areas.portAt({ lat: 52.05, lon: 3.8 }), null, 'the North Sea');
    assert.equal(areas.portAt({ lat: -23.95, lon: -46.33 })?.id, 'BRSSZ');
  });

  test('clusters not seen for the forgetting time drop out of the area', () => {
    const { areas, rotterdam, setNow } = harbour();
    areas.learn(rotterdam, moored(1, MAASVLAKTE, T0));
    areas.learn(rotterdam, moored(2, MAASVLAKTE, T0 + MINUTE));
    assert.equal(areas.takeChanged().length, 1);
    assert.equal(areas.takeChanged().length, 0, 'taken once');
    setNow(T0 + (FORGET_DAYS + 1) * DAY);
    areas.forget(T0 + DAY);
    assert.equal(areas.of(rotterdam).derivation.method, 'base');
    assert.equal(areas.holds(rotterdam, MAASVLAKTE), false);
  });

  test('stored clusters make the area at start, and a port across the antimeridian holds both sides', () => {
    const ports = mergePorts({
      seaPorts: [seaPortEntry('FJSUV', { name: 'Suva', lat: -18.1, lon: 179.97 })],
      unlocode: [],
      wpi: [wpiEntry(56000, { unlocode: 'FJSUV', name: 'Suva', lat: -18.1, lon: 179.97, harbour_size: 'medium', harbour_type: 'coastal_natural' })],
    });
    const index = createPortIndex(ports, { sea_ports: { package: 'sea-ports', version: 'test', entries: 1 }, wpi: null, unlocode: null, ports: ports.length });
    const suva = index.get('FJSUV')!;
    const stored = { id: 'stp_1', port_id: 'FJSUV', kind: 'anchorage' as const, lat: -18.0, lon: -179.9, radius_nm: 0.5, stops: 4, first_seen: new Date(T0).toISOString(), last_seen: new Date(T0).toISOString() };
    const areas = new PortAreas(index, [stored], () => T0);
    assert.equal(areas.of(suva).derivation.method, 'evidence');
    assert.equal(areas.portAt({ lat: -18.1, lon: -179.98 })?.id, 'FJSUV', 'east of 180°');
    assert.equal(areas.portAt({ lat: -18.0, lon: -179.9 })?.id, 'FJSUV', 'the anchorage beyond 180°');
    assert.equal(areas.portAt({ lat: -18.1, lon: 179.9 })?.id, 'FJSUV');
    assert.equal(deriveArea(suva, [], T0).derivation.method, 'base');
  });

  test('a river port is seeded with the smaller WPI ports of its country within reach', () => {
    const ports = mergePorts({
      seaPorts: [],
      unlocode: [],
      wpi: [
        wpiEntry(31140, { unlocode: 'NLRTM', name: 'Rotterdam', country: 'NL', lat: 51.9, lon: 4.4833, harbour_size: 'large', harbour_type: 'river_basins' }),
        wpiEntry(31085, { unlocode: 'NLEUR', name: 'Europoort', country: 'NL', lat: 51.95, lon: 4.1167, harbour_size: 'medium', harbour_type: 'canal_or_lake' }),
        wpiEntry(31080, { unlocode: 'NLHVH', name: 'Hoek Van Holland', country: 'NL', lat: 51.95, lon: 4.1333, harbour_size: 'very_small', harbour_type: 'river_basins' }),
        wpiEntry(31000, { unlocode: 'NLAMS', name: 'Amsterdam', country: 'NL', lat: 52.38, lon: 4.9, harbour_size: 'large', harbour_type: 'canal_or_lake' }),
        wpiEntry(31200, { name: 'Across the border', country: 'BE', lat: 51.6, lon: 4.3, harbour_size: 'small' }),
      ],
    });
    const index = createPortIndex(ports, { sea_ports: { package: 'sea-ports', version: 'test', entries: 0 }, wpi: null, unlocode: null, ports: ports.length });
    const areas = new PortAreas(index, [], () => T0);
    const rotterdam = index.get('NLRTM')!;
    const area = areas.of(rotterdam);
    assert.equal(area.derivation.method, 'seeded');
    assert.equal(area.derivation.base_radius_nm, 12);
    assert.deepEqual(area.derivation.seeds, ['NLHVH', 'NLEUR'], 'smaller, same country, within reach, nearest first: not Amsterdam (as large), not the Belgian port');
    assert.match(area.derivation.reasoning, /guess from the listing/);
    const maasvlakte = { lat: 51.955, lon: 4.03 };
    assert.ok(haversineNm(rotterdam.lat, rotterdam.lon, maasvlakte.lat, maasvlakte.lon) > 15);
    assert.equal(areas.holds(rotterdam, maasvlakte), true);
    assert.equal(areas.holds(rotterdam, east(rotterdam, 12.5)), false, 'not a wider circle');
    assert.equal(areas.portAt({ lat: 51.95, lon: 4.11 })?.id, 'NLEUR', 'the seed\'s own water keeps its calls');
    assert.equal(areas.of(index.get('NLEUR')!).derivation.method, 'base', 'a canal port is not seeded');
  });

  test('a vessel that stops where the area grew makes its call at the port', () => {
    const index = rotterdamPorts();
    const areas = new PortAreas(index, [], () => T0);
    const rotterdam = index.get('NLRTM')!;
    const store = new VesselStore();
    const detector = new PortCallDetector(index, areas);
    const report = (mmsi: number, sog: number, status: number, at: number) =>
      detector.observe(store.apply(decoded(positionReport(mmsi, MAASVLAKTE.lat, MAASVLAKTE.lon, { speed: sog * 10, status })), at, 'live')!.vessel);
    assert.deepEqual(report(244_000_001, 0, 5, T0), [], 'outside every area before the evidence');
    areas.learn(rotterdam, moored(1, MAASVLAKTE, T0));
    areas.learn(rotterdam, moored(2, MAASVLAKTE, T0));
    const [arrival] = report(244_000_002, 0, 5, T0 + MINUTE);
    assert.deepEqual([arrival?.kind, arrival?.call.port_id], ['arrival', 'NLRTM']);
  });
});
