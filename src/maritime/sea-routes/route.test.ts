import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distanceNm } from './geo.ts';
import type { LatLon, Position } from './geo.ts';
import { buildSeaGraph, loadSeaGraph } from './graph.ts';
import { routeBetween, routeOnGraph, snapToNetwork, splitAtAntimeridian } from './route.ts';
import type { SeaRoute } from './route.ts';

const ROTTERDAM: LatLon = { lat: 51.95, lon: 4.05 };
const NEW_YORK: LatLon = { lat: 40.6, lon: -74.0 };
const SINGAPORE: LatLon = { lat: 1.26, lon: 103.8 };
const YOKOHAMA: LatLon = { lat: 35.44, lon: 139.65 };
const LOS_ANGELES: LatLon = { lat: 33.73, lon: -118.26 };
const SHANGHAI: LatLon = { lat: 31.23, lon: 121.9 };
const LONG_BEACH: LatLon = { lat: 33.75, lon: -118.2 };
const SUEZ: Position = [32.5, 30];
// Port positions as the sea-ports data gives them.
const HELSINKI: LatLon = { lat: 60.1733, lon: 24.941 };
const TALLINN: LatLon = { lat: 59.43, lon: 24.73 };
const HAIFA: LatLon = { lat: 32.794, lon: 34.9896 };
const ASHDOD: LatLon = { lat: 31.8044, lon: 34.6553 };
const PORT_SAID: LatLon = { lat: 31.2653, lon: 32.3019 };
const TRIESTE: LatLon = { lat: 45.6495, lon: 13.7768 };
const RIJEKA: LatLon = { lat: 45.33, lon: 14.4 };
const HAMBURG: LatLon = { lat: 53.5511, lon: 9.9937 };
const BREMERHAVEN: LatLon = { lat: 53.5396, lon: 8.5809 };

function route(from: LatLon, to: LatLon): SeaRoute {
  const result = routeBetween(from, to);
  assert.ok(result.ok, JSON.stringify(result));
  return result;
}

function assertWithin(actual: number, expected: number, fraction: number, label: string): void {
  assert.ok(Math.abs(actual - expected) <= expected * fraction, `${label}: ${actual.toFixed(0)} nm, expected ${expected} ±${fraction * 100}%`);
}

const nearest = (path: readonly Position[], point: Position): number => Math.min(...path.map((p) => distanceNm(p, point)));
const longestSegment = (path: readonly Position[]): number => {
  let longest = 0;
  for (let i = 1; i < path.length; i++) longest = Math.max(longest, distanceNm(path[i - 1]!, path[i]!));
  return longest;
};

/** Checks the invariants every route has, whatever the endpoints. */
function assertConsistent(r: SeaRoute, from: LatLon, to: LatLon): void {
  assert.deepEqual(r.path[0], [from.lon, from.lat]);
  assert.deepEqual(r.path[r.path.length - 1], [to.lon, to.lat]);
  assert.equal(r.cumulative_nm.length, r.path.length);
  let total = 0;
  for (let i = 1; i < r.path.length; i++) total += distanceNm(r.path[i - 1]!, r.path[i]!);
  assert.ok(Math.abs(total - r.distance_nm) < 1e-6);
  assert.equal(r.legs.length, 3);
  const legSum = r.legs.reduce((sum, leg) => sum + leg.distance_nm, 0);
  assert.ok(Math.abs(legSum - r.distance_nm) < 1e-6, `${legSum} vs ${r.distance_nm}`);
  const lines = r.geojson.type === 'LineString' ? [r.geojson.coordinates] : r.geojson.coordinates;
  for (const line of lines) {
    assert.ok(line.length >= 2);
    for (let i = 1; i < line.length; i++) assert.ok(Math.abs(line[i]![0] - line[i - 1]![0]) <= 180, 'GeoJSON segment wraps');
  }
}

test('the marnet graph builds once, joined into one network', (t) => {
  const loaded = loadSeaGraph();
  assert.ok(loaded.ok);
  const { stats } = loaded.graph;
  t.diagnostic(
    `marnet graph: ${stats.lineStrings} LineStrings, ${stats.vertices} vertices -> ${stats.mergedNodes} merged nodes in ` +
      `${stats.components} components; kept ${stats.nodes} nodes, ${stats.edges} edges; built in ${stats.buildMs.toFixed(1)} ms`,
  );
  assert.ok(stats.nodes > 5000 && stats.edges > 7000);
  // Cached: the second call returns the same object.
  assert.equal(loadSeaGraph(), loaded);
});

test('Rotterdam to New York is about 3,300 nm', (t) => {
  const r = route(ROTTERDAM, NEW_YORK);
  t.diagnostic(`Rotterdam -> New York: ${r.distance_nm.toFixed(0)} nm, ${r.path.length} points`);
  assertWithin(r.distance_nm, 3300, 0.1, 'Rotterdam-New York');
  assertConsistent(r, ROTTERDAM, NEW_YORK);
  assert.equal(r.geojson.type, 'LineString');
  assert.equal(r.crosses_antimeridian, false);
});

test('Singapore to Rotterdam goes through Suez, about 8,300 nm', (t) => {
  const r = route(SINGAPORE, ROTTERDAM);
  const suez = nearest(r.path, SUEZ);
  t.diagnostic(`Singapore -> Rotterdam: ${r.distance_nm.toFixed(0)} nm, closest to Suez ${suez.toFixed(0)} nm`);
  assertWithin(r.distance_nm, 8300, 0.1, 'Singapore-Rotterdam');
  assert.ok(suez < 60, `passes ${suez} nm from Suez`);
  assertConsistent(r, SINGAPORE, ROTTERDAM);
  // Symmetric: the reverse route is as long.
  assert.ok(Math.abs(route(ROTTERDAM, SINGAPORE).distance_nm - r.distance_nm) < 1e-6);
});

for (const [name, from, to, expected] of [
  ['Yokohama -> Los Angeles', YOKOHAMA, LOS_ANGELES, 4800],
  ['Shanghai -> Long Beach', SHANGHAI, LONG_BEACH, 5700],
] as const) {
  test(`${name} crosses the Pacific and the antimeridian, not Suez`, (t) => {
    const r = route(from, to);
    const longest = longestSegment(r.path);
    t.diagnostic(`${name}: ${r.distance_nm.toFixed(0)} nm, longest segment ${longest.toFixed(0)} nm, ${r.settled_nodes} nodes settled`);
    assertWithin(r.distance_nm, expected, 0.1, name);
    assert.ok(nearest(r.path, SUEZ) > 3000);
    assert.ok(longest < 500, `segment of ${longest} nm`);
    assert.equal(r.crosses_antimeridian, true);
    assert.equal(r.geojson.type, 'MultiLineString');
    assertConsistent(r, from, to);
    // Eastbound: the first line ends at +180 and the next starts at -180, at the same latitude.
    if (r.geojson.type === 'MultiLineString') {
      const [west, east] = r.geojson.coordinates;
      const end = west![west!.length - 1]!;
      assert.equal(end[0], 180);
      assert.equal(east![0]![0], -180);
      assert.equal(east![0]![1], end[1]);
    }
  });
}

const greatCircle = (from: LatLon, to: LatLon): number => distanceNm([from.lon, from.lat], [to.lon, to.lat]);

test('mid-Channel to Rotterdam joins the main lane, not the nearer one that meets the network off Ushant: about 270 nm', (t) => {
  // 50.1 N 1.5 W is 2.6 nm from a marnet lane that runs up the middle of the Channel and ends just
  // short of the Dover Strait lanes; it meets the rest of the network only far to the west, so joined
  // there alone the route sailed back west round Ushant and up the Channel again (716 nm). At sea the
  // passage runs east up the Channel to the Dover Strait (about 125 nm), along the Belgian and Dutch
  // coast to the Maas approach (about 110 nm) and in to Rotterdam (25 to 40 nm by marnet's approach
  // lane): about 270 nm, against 252 nm great circle.
  const from: LatLon = { lat: 50.1, lon: -1.5 };
  const to: LatLon = { lat: 51.92, lon: 4.5 };
  const r = route(from, to);
  const westmost = Math.min(...r.path.map((p) => p[0]));
  const southmost = Math.min(...r.path.map((p) => p[1]));
  t.diagnostic(`mid-Channel -> Rotterdam: ${r.distance_nm.toFixed(0)} nm, joins ${r.snap.from.distance_nm.toFixed(1)} nm away, ${r.settled_nodes} nodes settled`);
  assertWithin(r.distance_nm, 270, 0.08, 'mid-Channel-Rotterdam');
  assert.ok(westmost > -1.6 && southmost >= 50, `sails west to ${westmost} or south to ${southmost}`);
  // The nearest joining point is on the other lane; the route chose one a little further away.
  const nearestSnap = snapToNetwork(from);
  assert.ok(nearestSnap.ok && r.snap.from.distance_nm > nearestSnap.snap.distance_nm);
  assert.deepEqual(r.legs[0]!.to, [r.snap.from.lon, r.snap.from.lat]);
  assertConsistent(r, from, to);
  assert.ok(Math.abs(route(to, from).distance_nm - r.distance_nm) < 1e-6);
});

// Ports whose nearest lane meets the network only far away, found by routing the simulator's ports
// against each other and comparing with the great-circle distance.
for (const [name, from, to, maxRatio, why] of [
  // A ferry crossing of about 45 nm.
  ['Helsinki -> Tallinn', HELSINKI, TALLINN, 1.2, 'Tallinn is nearest a lane joined only west of the Gulf of Finland (410 nm)'],
  // About 70 nm along the coast; the route joins the coastal lane some 24 nm off Ashdod.
  ['Haifa -> Ashdod', HAIFA, ASHDOD, 2, 'Ashdod is nearest a lane to Crete joined only in the Ionian Sea (1,552 nm)'],
  ['Port Said -> Ashdod', PORT_SAID, ASHDOD, 1.5, 'the same lane off Ashdod (1,385 nm)'],
] as const) {
  test(`${name}: ${why} with the nearest lane alone; now a sane passage`, (t) => {
    const r = route(from, to);
    const direct = greatCircle(from, to);
    t.diagnostic(`${name}: ${r.distance_nm.toFixed(0)} nm, great circle ${direct.toFixed(0)} nm`);
    assert.ok(r.distance_nm >= direct && r.distance_nm <= maxRatio * direct, `${r.distance_nm.toFixed(0)} nm`);
    assertConsistent(r, from, to);
  });
}

test('connectors do not cross land: Trieste to Rijeka rounds Istria', (t) => {
  // Rijeka's nearest lane comes down the Kvarner; a lane off Trieste lies 30 nm from Rijeka across
  // Istria. Joined there by a straight connector the route would be 34 nm, but the sea route runs
  // round the peninsula's southern tip (about 110 nm at sea).
  const r = route(TRIESTE, RIJEKA);
  const southmost = Math.min(...r.path.map((p) => p[1]));
  t.diagnostic(`Trieste -> Rijeka: ${r.distance_nm.toFixed(0)} nm, great circle ${greatCircle(TRIESTE, RIJEKA).toFixed(0)} nm`);
  assert.ok(r.distance_nm > 100 && southmost < 44.8, `${r.distance_nm.toFixed(0)} nm, south to ${southmost}`);
  assert.ok(r.snap.to.distance_nm < 5);
  assert.ok(!r.snap.from.connector_crosses_land && !r.snap.to.connector_crosses_land);
  // Likewise Hamburg to Bremerhaven sails out of the Elbe instead of crossing the marshes between.
  const elbe = route(HAMBURG, BREMERHAVEN);
  const northmost = Math.max(...elbe.path.map((p) => p[1]));
  t.diagnostic(`Hamburg -> Bremerhaven: ${elbe.distance_nm.toFixed(0)} nm, north to ${northmost.toFixed(2)}`);
  assert.ok(elbe.distance_nm > 85 && elbe.snap.from.distance_nm < 5 && elbe.snap.to.distance_nm < 5, `${elbe.distance_nm.toFixed(0)} nm`);
  assert.ok(northmost > 53.8, `north only to ${northmost}`);
  assert.ok(!elbe.snap.from.connector_crosses_land && !elbe.snap.to.connector_crosses_land);
});

test('Southampton to Rotterdam: connectors may be near their true cost now that land is charged', (t) => {
  // Charged five times their length (before the land test), the connectors out of Southampton Water
  // lost to marnet's long way round the Isle of Wight and the route came out at 360 nm. At sea it is
  // about 265 nm (Nab Tower, up the Channel, Dover Strait, Maas approach), which it is now that the
  // gap in marnet's English coastal lane between Dungeness and the Dover Strait is closed (lanes.ts).
  const southampton: LatLon = { lat: 50.897, lon: -1.409 };
  const rotterdam: LatLon = { lat: 51.92, lon: 4.5 };
  const r = route(southampton, rotterdam);
  t.diagnostic(`Southampton -> Rotterdam: ${r.distance_nm.toFixed(0)} nm, great circle ${greatCircle(southampton, rotterdam).toFixed(0)} nm`);
  assert.ok(r.distance_nm > 250 && r.distance_nm < 280, `${r.distance_nm.toFixed(0)} nm`);
  assert.ok(!r.snap.from.connector_crosses_land && !r.snap.to.connector_crosses_land);
  assertConsistent(r, southampton, rotterdam);
});

test('the search picks the joining point: past a nearer branch, but not at any price', () => {
  const line = (...coordinates: Position[]) => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } });
  const graphOf = (...lines: ReturnType<typeof line>[]) => {
    const built = buildSeaGraph({ type: 'FeatureCollection', features: lines });
    assert.ok(built.ok);
    return built.graph;
  };
  const main = line([0, 0], [5, 0], [10, 0]);
  const to: LatLon = { lat: -0.1, lon: 10 };
  const expected = (...points: Position[]): number => {
    let total = 0;
    for (let i = 1; i < points.length; i++) total += distanceNm(points[i - 1]!, points[i]!);
    return total;
  };

  // A branch leaves the main lane's west end and runs back east 0.3 degrees north of it. A point
  // 3 nm from the branch and 15 nm from the main lane joins the main lane: the branch would take it
  // 8 degrees west and back (over 1,000 nm).
  const branched = graphOf(main, line([0, 0], [0, 0.3], [9, 0.3]));
  const from: LatLon = { lat: 0.25, lon: 8 };
  const r = routeOnGraph(branched, from, to);
  assert.ok(r.ok);
  assert.ok(Math.abs(r.snap.from.lon - 8) < 1e-9 && Math.abs(r.snap.from.lat) < 1e-9, JSON.stringify(r.snap.from));
  assert.ok(Math.abs(r.distance_nm - expected([8, 0.25], [8, 0], [10, 0], [10, -0.1])) < 1e-6, String(r.distance_nm));
  assertConsistent(r, from, to);

  // The same branch 0.6 degrees north: the main lane is more than SNAP_MARGIN_NM further than the
  // branch, so it is not offered and the route takes the branch round.
  const far = routeOnGraph(graphOf(main, line([0, 0], [0, 0.6], [9, 0.6])), { lat: 0.65, lon: 8 }, to);
  assert.ok(far.ok && far.snap.from.distance_nm < 5 && far.distance_nm > 1000, far.ok ? String(far.distance_nm) : far.message);

  // A lane 0.3 degrees north that joins the main lane at its east end: joining the main lane instead
  // is 6 nm shorter in all (18 nm less sea for 12 nm more connector), worth it at CONNECTOR_WEIGHT.
  const parallelGraph = graphOf(main, line([4, 0.3], [10, 0.3], [10, 0]));
  const parallel = routeOnGraph(parallelGraph, { lat: 0.25, lon: 5 }, { lat: 0, lon: 10 });
  assert.ok(parallel.ok && Math.abs(parallel.snap.from.lat) < 1e-9, parallel.ok ? JSON.stringify(parallel.snap.from) : parallel.message);
  // From 0.29 N the main lane saves 18 nm of sea for 17 nm more connector: not worth it.
  const near = routeOnGraph(parallelGraph, { lat: 0.29, lon: 5 }, { lat: 0, lon: 10 });
  assert.ok(near.ok && Math.abs(near.snap.from.lat - 0.3) < 1e-3, near.ok ? JSON.stringify(near.snap.from) : near.message);
});

test('a point far inland still snaps to the network and reports how far', (t) => {
  const munich: LatLon = { lat: 48.14, lon: 11.58 };
  const r = route(munich, ROTTERDAM);
  t.diagnostic(`Munich snaps ${r.snap.from.distance_nm.toFixed(0)} nm to (${r.snap.from.lat.toFixed(2)}, ${r.snap.from.lon.toFixed(2)})`);
  assert.ok(r.snap.from.distance_nm > 100 && r.snap.from.distance_nm < 400);
  // Every connector from Munich crosses land; the route joins by the one crossing least, and says so.
  assert.equal(r.snap.from.connector_crosses_land, true);
  assert.equal(r.snap.to.connector_crosses_land, false);
  assert.equal(r.legs[0]!.distance_nm, r.snap.from.distance_nm);
  assertConsistent(r, munich, ROTTERDAM);
  const snap = snapToNetwork({ lat: 40.6, lon: -74.0 });
  assert.ok(snap.ok && snap.snap.distance_nm < 20);
});

test('bad input is an error result, never an exception', () => {
  for (const [from, to, code] of [
    [{ lat: Number.NaN, lon: 0 }, NEW_YORK, 'invalid_from'],
    [{ lat: 91, lon: 0 }, NEW_YORK, 'invalid_from'],
    [NEW_YORK, { lat: 0, lon: 181 }, 'invalid_to'],
    [NEW_YORK, { lat: 0, lon: Number.POSITIVE_INFINITY }, 'invalid_to'],
    [null as unknown as LatLon, NEW_YORK, 'invalid_from'],
  ] as const) {
    const result = routeBetween(from, to);
    assert.equal(result.ok, false);
    if (!result.ok) assert.equal(result.error, code);
  }
  const snap = snapToNetwork({ lat: -100, lon: 0 });
  assert.ok(!snap.ok && snap.error === 'invalid_from');
});

test('same start and end: a zero-length route with valid GeoJSON', () => {
  const r = route(NEW_YORK, NEW_YORK);
  assert.equal(r.distance_nm, 0);
  assert.equal(r.geojson.type, 'LineString');
  assert.equal(r.geojson.coordinates.length, 2);
});

test('queries are fast once the graph is built', (t) => {
  loadSeaGraph();
  const pairs: [LatLon, LatLon][] = [
    [ROTTERDAM, NEW_YORK],
    [SINGAPORE, ROTTERDAM],
    [YOKOHAMA, LOS_ANGELES],
    [SHANGHAI, LONG_BEACH],
    [{ lat: -33.9, lon: 18.4 }, { lat: -33.85, lon: 151.25 }],
  ];
  const started = performance.now();
  const rounds = 10;
  for (let i = 0; i < rounds; i++) for (const [from, to] of pairs) route(from, to);
  const perQuery = (performance.now() - started) / (rounds * pairs.length);
  t.diagnostic(`mean route query: ${perQuery.toFixed(2)} ms`);
  assert.ok(perQuery < 100);
});

test('graph building merges shared, near-equal and antimeridian vertices and keeps the main component', () => {
  const line = (...coordinates: unknown[][]) => ({ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } });
  const data = {
    type: 'FeatureCollection',
    features: [
      line([170, 0], [180, 0]),
      line([-180, 0.0001], [-170, 0]), // joins across the antimeridian within tolerance
      line([-170, 0], [-160, 0]), // shares a vertex exactly
      line([-160.0002, 0.0002], [-150, 0]), // near-equal vertex
      line([10, 10], [11, 10]), // isolated: dropped
      { type: 'Feature', geometry: { type: 'Point', coordinates: [0, 0] } }, // ignored
      line([0, 'x'], [1000, 0]), // invalid vertices skipped
    ],
  };
  const built = buildSeaGraph(data);
  assert.ok(built.ok);
  const graph = built.graph;
  assert.equal(graph.stats.components, 2);
  assert.equal(graph.nodeCount, 5);
  assert.equal(graph.edgeCount, 4);
  const r = routeOnGraph(graph, { lat: 0, lon: 170 }, { lat: 0, lon: -150 });
  assert.ok(r.ok);
  assert.ok(Math.abs(r.distance_nm - 40 * 60.04) < 1, String(r.distance_nm));
  assert.equal(r.geojson.type, 'MultiLineString');
  // A point between vertices joins the edge itself, not the nearest vertex.
  const mid = routeOnGraph(graph, { lat: 1, lon: 175 }, { lat: 0, lon: -150 });
  assert.ok(mid.ok && Math.abs(mid.snap.from.distance_nm - 60.04) < 0.1 && Math.abs(mid.snap.from.lon - 175) < 1e-6);
  // Both ends on one edge: sail along it.
  const along = routeOnGraph(graph, { lat: 0.5, lon: 171 }, { lat: -0.5, lon: 179 });
  assert.ok(along.ok && Math.abs(along.legs[1]!.distance_nm - 8 * 60.04) < 0.1);

  for (const bad of [null, 42, { features: 'x' }, { type: 'FeatureCollection', features: [] }]) {
    const result = buildSeaGraph(bad);
    assert.ok(!result.ok && result.error === 'network_invalid');
  }
});

test('splitAtAntimeridian splits both ways and leaves other lines alone', () => {
  assert.deepEqual(splitAtAntimeridian([[170, 10], [-170, 20]]), {
    type: 'MultiLineString',
    coordinates: [
      [[170, 10], [180, 15]],
      [[-180, 15], [-170, 20]],
    ],
  });
  assert.deepEqual(splitAtAntimeridian([[-170, 10], [170, 20]]), {
    type: 'MultiLineString',
    coordinates: [
      [[-170, 10], [-180, 15]],
      [[180, 15], [170, 20]],
    ],
  });
  assert.deepEqual(splitAtAntimeridian([[0, 0], [10, 0]]), { type: 'LineString', coordinates: [[0, 0], [10, 0]] });
});
