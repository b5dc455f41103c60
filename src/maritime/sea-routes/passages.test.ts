// Routes through the named passages: known distances, the passages used, avoiding them, fitting a
// vessel's dimensions, the added lanes and port joins, against the real network and land data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceNm } from './geo.ts';
import type { LatLon } from './geo.ts';
import { loadSeaGraph } from './graph.ts';
import { landRunsAlong, loadLand } from './land.ts';
import { ADDED_LANES } from './lanes.ts';
import { limitFor, limitsExceeded, passageById, PASSAGES } from './passages.ts';
import { routeBetween, type RouteOptions } from './route.ts';
import type { SeaRoute } from './route.ts';

// Port positions as the built-in sea-ports data gives them (city positions, often a few miles inland).
const ROTTERDAM: LatLon = { lat: 51.92, lon: 4.5 };
const SINGAPORE: LatLon = { lat: 1.2800945, lon: 103.8509491 };
const SHANGHAI: LatLon = { lat: 31.230416, lon: 121.473701 };
const LOS_ANGELES: LatLon = { lat: 34.0522342, lon: -118.2436849 };
const HAMBURG: LatLon = { lat: 53.5510846, lon: 9.9936818 };
const GDANSK: LatLon = { lat: 54.3520252, lon: 18.6466384 };
const BALTIMORE: LatLon = { lat: 39.28, lon: -76.62 };
const NEW_YORK: LatLon = { lat: 40.7, lon: -74 };
const SOUTHAMPTON: LatLon = { lat: 50.9097004, lon: -1.4043509 };
const BREMERHAVEN: LatLon = { lat: 53.5395845, lon: 8.5809424 };
const KIEL: LatLon = { lat: 54.33, lon: 10.13 };
const TUNIS: LatLon = { lat: 36.8064948, lon: 10.1815316 };
const YOKOHAMA: LatLon = { lat: 35.45, lon: 139.65 };
const HALIFAX: LatLon = { lat: 44.6488625, lon: -63.5753196 };
const ANTWERP: LatLon = { lat: 51.22, lon: 4.42 };
const PHILADELPHIA: LatLon = { lat: 39.9525839, lon: -75.1652215 };
const TOKYO: LatLon = { lat: 35.68, lon: 139.75 };
const OAKLAND: LatLon = { lat: 37.8043637, lon: -122.2711137 };
const HONG_KONG: LatLon = { lat: 22.396428, lon: 114.109497 };
const DURBAN: LatLon = { lat: -29.8586804, lon: 31.0218404 };
const PORT_KLANG: LatLon = { lat: 3, lon: 101.4 };
const ALGECIRAS: LatLon = { lat: 36.1407591, lon: -5.456233 };
const AMSTERDAM: LatLon = { lat: 52.3702157, lon: 4.8951679 };
const OSAKA: LatLon = { lat: 34.67, lon: 135.5 };

function route(from: LatLon, to: LatLon, options?: RouteOptions): SeaRoute {
  const result = routeBetween(from, to, options);
  assert.ok(result.ok, JSON.stringify(result));
  return result;
}

// Expected distances, within 5 %. Port-to-port tables (NGA Pub. 151 Distances Between Ports,
// sea-distances.org) give the first five to the nearest few miles; the others are reckoned from
// the legs named, since the tables do not list the passage asked for.
const TABLE: readonly [string, LatLon, LatLon, RouteOptions, number, string[]][] = [
  // Rotterdam–Singapore via Suez about 8,300 nm, via the Cape of Good Hope about 11,700 nm (sea-distances.org).
  ['Rotterdam -> Singapore via Suez', ROTTERDAM, SINGAPORE, {}, 8300, ['dover', 'gibraltar', 'suez', 'bab_el_mandeb', 'malacca']],
  ['Rotterdam -> Singapore via the Cape', ROTTERDAM, SINGAPORE, { avoid: ['suez'] }, 11700, ['dover']],
  // Shanghai–Los Angeles about 5,700 nm (NGA Pub. 151).
  ['Shanghai -> Los Angeles', SHANGHAI, LOS_ANGELES, {}, 5700, []],
  // New York–Rotterdam about 3,450 nm (NGA Pub. 151).
  ['New York -> Rotterdam', NEW_YORK, ROTTERDAM, {}, 3450, ['dover']],
  // Baltimore–New York by the C&D Canal about 250 nm (sea-distances.org), against about 410 round Cape Charles.
  ['Baltimore -> New York via the C&D Canal', BALTIMORE, NEW_YORK, {}, 250, ['chesapeake_delaware']],
  // Southampton–Rotterdam about 265 nm: Nab Tower, up the Channel, Dover Strait, the Maas approach.
  ['Southampton -> Rotterdam', SOUTHAMPTON, ROTTERDAM, {}, 265, ['solent', 'dover']],
  // Hamburg–Gdańsk by the Kiel Canal about 440 nm: the Elbe from Hamburg (Elbe-km 623) to Brunsbüttel
  // (km 695), 39 nm; the canal, 53.3 nm (WSV); Kiel-Holtenau round Fehmarn and Bornholm to Gdańsk, about 350 nm.
  ['Hamburg -> Gdańsk via the Kiel Canal', HAMBURG, GDANSK, {}, 440, ['kiel']],
  // Bremerhaven–Kiel by the Kiel Canal about 105 nm: the Weser and Elbe approaches to Brunsbüttel (about 50 nm) and the canal.
  ['Bremerhaven -> Kiel via the Kiel Canal', BREMERHAVEN, KIEL, {}, 105, ['kiel']],
];

for (const [name, from, to, options, expected, passages] of TABLE) {
  test(`${name}: about ${expected} nm`, (t) => {
    const r = route(from, to, options);
    t.diagnostic(`${name}: ${r.distance_nm.toFixed(0)} nm (${((r.distance_nm / expected - 1) * 100).toFixed(1)} %), passages ${r.passages.join(', ') || 'none'}`);
    assert.ok(Math.abs(r.distance_nm - expected) <= 0.05 * expected, `${r.distance_nm.toFixed(0)} nm against ${expected}`);
    assert.deepEqual(r.passages, passages);
    assert.equal(r.snap.from.connector_crosses_land, false);
    assert.equal(r.snap.to.connector_crosses_land, false);
  });
}

test('avoiding a passage changes the route, and closes nothing else', () => {
  const throughKiel = route(BREMERHAVEN, KIEL);
  const roundSkagen = route(BREMERHAVEN, KIEL, { avoid: ['kiel'] });
  assert.ok(!roundSkagen.passages.includes('kiel'));
  // Round the Skaw: about 500 nm more (the canal "saves 250 nm on average", WSV; Kiel lies at its Baltic end).
  assert.ok(roundSkagen.distance_nm > throughKiel.distance_nm + 400, `${roundSkagen.distance_nm}`);
  assert.ok(Math.max(...roundSkagen.path.map((p) => p[1])) > 57.5, 'rounds Skagen');
  const noCanal = route(BALTIMORE, NEW_YORK, { avoid: ['chesapeake_delaware'] });
  assert.ok(noCanal.distance_nm > 400 && noCanal.distance_nm < 460, `${noCanal.distance_nm}`);
  // An avoided passage the route would not use anyway changes nothing.
  assert.equal(route(BALTIMORE, NEW_YORK, { avoid: ['panama'] }).distance_nm, route(BALTIMORE, NEW_YORK).distance_nm);
});

test('a vessel\'s dimensions close the passages it does not fit, and say which', () => {
  // 16 m draught: not the Kiel Canal (9.5 m), nor the Sound (7.7 m), nor the Great Belt (15.4 m): the Baltic is closed.
  const deep = routeBetween(HAMBURG, GDANSK, { vessel: { draught_m: 16 } });
  assert.ok(!deep.ok && deep.error === 'blocked', JSON.stringify(deep));
  assert.deepEqual(deep.refused?.map((refused) => refused.id).sort(), ['great_belt', 'kiel', 'oresund']);
  assert.deepEqual(deep.refused?.find((refused) => refused.id === 'kiel')?.exceeded, [{ dimension: 'draught_m', vessel: 16, limit: 9.5 }]);
  // 12 m: round the Skaw and through the Great Belt.
  const medium = route(HAMBURG, GDANSK, { vessel: { draught_m: 12 } });
  assert.deepEqual(medium.passages, ['great_belt']);
  assert.deepEqual(medium.refused.map((refused) => refused.id), ['kiel', 'oresund']);
  // The canal's 40 m air draft and 235 m length count as well as its draught.
  assert.ok(!route(BREMERHAVEN, KIEL, { vessel: { air_draft_m: 45 } }).passages.includes('kiel'));
  assert.ok(!route(BREMERHAVEN, KIEL, { vessel: { length_m: 240, draught_m: 7 } }).passages.includes('kiel'));
  assert.deepEqual(route(BREMERHAVEN, KIEL, { vessel: { length_m: 200, beam_m: 30, draught_m: 9, air_draft_m: 38 } }).passages, ['kiel']);
  // A VLCC at 22 m draught leaves Suez and Malacca for the Cape and the Indonesian straits.
  const vlcc = route(ROTTERDAM, SINGAPORE, { vessel: { draught_m: 22 } });
  assert.ok(!vlcc.passages.includes('suez') && !vlcc.passages.includes('malacca'));
  assert.deepEqual(vlcc.refused.map((refused) => refused.id), ['suez', 'malacca']);
  // Suez draught falls with the beam: 18 m passes at 48 m beam, not at 70 m (14.4 m allowed there).
  assert.ok(route(ROTTERDAM, SINGAPORE, { vessel: { draught_m: 18, beam_m: 48 } }).passages.includes('suez'));
  assert.ok(!route(ROTTERDAM, SINGAPORE, { vessel: { draught_m: 18, beam_m: 70 } }).passages.includes('suez'));
  // A Neopanamax fits Panama; 52 m beam does not and goes by Suez instead.
  const neopanamax = route(NEW_YORK, SHANGHAI, { vessel: { length_m: 366, beam_m: 51.25, draught_m: 15.2 } });
  assert.ok(neopanamax.passages.includes('panama'));
  const wide = route(NEW_YORK, SHANGHAI, { vessel: { beam_m: 52 } });
  assert.ok(!wide.passages.includes('panama') && wide.passages.includes('suez'));
});

test('passage limits as published', () => {
  const kiel = passageById('kiel')!;
  assert.deepEqual(kiel.limits, { length_m: 235, beam_m: 32.5, draught_m: 9.5, air_draft_m: 40 });
  const suez = passageById('suez')!;
  assert.equal(limitFor(suez, 'draught_m', { beam_m: 50 }), 20.1);
  assert.equal(limitFor(suez, 'draught_m', { beam_m: 77.5 }), 12.2);
  assert.equal(limitFor(suez, 'draught_m', {}), 20.1);
  assert.deepEqual(limitsExceeded(passageById('panama')!, { length_m: 366, beam_m: 51.25, draught_m: 15.2 }), []);
  assert.deepEqual(limitsExceeded(passageById('panama')!, { draught_m: 15.3 }), [{ dimension: 'draught_m', vessel: 15.3, limit: 15.2 }]);
  assert.equal(new Set(PASSAGES.map((passage) => passage.id)).size, PASSAGES.length);
});

test('every passage holds network edges, and every added lane joins the network at both ends', () => {
  const loaded = loadSeaGraph();
  assert.ok(loaded.ok);
  const graph = loaded.graph;
  for (const passage of PASSAGES) {
    const index = graph.passageIds.indexOf(passage.id);
    const edges = graph.edgePassage.filter((p) => p === index).length;
    assert.ok(index >= 0 && edges > 0, `${passage.id}: ${edges} edges`);
  }
  assert.equal(graph.stats.addedLanes, ADDED_LANES.length);
  // Each lane's ends are nodes of the main component: a route from one end of the lane to the other exists and follows it.
  for (const lane of ADDED_LANES) {
    const [first, last] = [lane.coordinates[0]!, lane.coordinates[lane.coordinates.length - 1]!];
    const r = route({ lon: first[0], lat: first[1] }, { lon: last[0], lat: last[1] });
    assert.ok(r.snap.from.distance_nm < 0.01 && r.snap.to.distance_nm < 0.01, lane.name);
  }
});

test('added sea lanes stay off the land; the Kiel Canal is as long as the WSV says', () => {
  const land = loadLand();
  assert.ok(land.ok, land.ok ? '' : land.message);
  for (const lane of ADDED_LANES) {
    if (lane.waterway === 'inland') continue;
    let onLand = 0;
    for (let i = 1; i < lane.coordinates.length; i++) {
      onLand += landRunsAlong(land.land, lane.coordinates[i - 1]!, lane.coordinates[i]!).reduce((sum, [start, end]) => sum + end - start, 0);
    }
    assert.ok(onLand < 0.05, `${lane.name}: ${onLand.toFixed(2)} nm over land`);
  }
  const canal = ADDED_LANES.find((lane) => lane.passage === 'kiel')!;
  let length = 0;
  for (let i = 2; i < canal.coordinates.length; i++) length += distanceNm(canal.coordinates[i - 1]!, canal.coordinates[i]!);
  // Lock to lock (from the second vertex): 98.6 km, 53.3 nm; the polyline cuts the canal's bends by a few per cent.
  assert.ok(length > 0.9 * 53.3 && length <= 53.3, `${length}`);
});

test('ports marnet ends short of join the network over water', (t) => {
  const ports = [
    ['Tunis', TUNIS], ['Yokohama', YOKOHAMA], ['Halifax', HALIFAX], ['Baltimore', BALTIMORE], ['Kiel', KIEL], ['Gdańsk', GDANSK],
    ['Antwerp', ANTWERP], ['Philadelphia', PHILADELPHIA], ['Tokyo', TOKYO], ['Oakland', OAKLAND], ['Hong Kong', HONG_KONG],
    ['Durban', DURBAN], ['Port Klang', PORT_KLANG], ['Algeciras', ALGECIRAS], ['Amsterdam', AMSTERDAM], ['Osaka', OSAKA],
  ] as const;
  for (const [name, port] of ports) {
    const r = route(port, ROTTERDAM);
    t.diagnostic(`${name}: joins ${r.snap.from.distance_nm.toFixed(1)} nm away`);
    assert.equal(r.snap.from.connector_crosses_land, false, name);
    assert.ok(r.snap.from.distance_nm < 6, `${name} joins ${r.snap.from.distance_nm} nm away`);
  }
});

test('a route across the Pacific is cut at the antimeridian, as RFC 7946 asks', () => {
  const r = route(YOKOHAMA, LOS_ANGELES);
  assert.equal(r.geojson.type, 'MultiLineString');
  if (r.geojson.type !== 'MultiLineString') return;
  for (const line of r.geojson.coordinates) {
    for (const [lon] of line) assert.ok(lon >= -180 && lon <= 180);
    for (let i = 1; i < line.length; i++) assert.ok(Math.abs(line[i]![0] - line[i - 1]![0]) < 180);
  }
  const ends = r.geojson.coordinates.flatMap((line) => [line[0]!, line[line.length - 1]!]).filter(([lon]) => Math.abs(lon) === 180);
  assert.equal(ends.length, 2);
  assert.equal(ends[0]![1], ends[1]![1]);
});

test('route queries take milliseconds once the network is loaded', (t) => {
  loadSeaGraph();
  const pairs: [LatLon, LatLon, RouteOptions][] = TABLE.map(([, from, to, options]) => [from, to, options]);
  pairs.push([HAMBURG, GDANSK, { vessel: { draught_m: 12 } }]);
  route(ROTTERDAM, SINGAPORE);
  const started = performance.now();
  for (const [from, to, options] of pairs) route(from, to, options);
  const perQuery = (performance.now() - started) / pairs.length;
  t.diagnostic(`mean route query over ${pairs.length} routes: ${perQuery.toFixed(1)} ms`);
  assert.ok(perQuery < 250);
});
