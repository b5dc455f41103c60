// Finding the port of a stopped vessel, as port call detection does for every report of a vessel
// that is not under way: the port areas (a 1° grid of their boxes, then point-in-polygon) against
// the lookup they replaced as the baseline (a 1° grid of port positions, then the nearest port
// whose circle by harbour size holds the point). Areas are timed twice: base areas only (a fresh
// start), and with learned clusters (six a port, spread over half its reach), whose polygons are
// larger and have more vertices.
//
//   npm run bench -- port-areas [--lookups=200k] [--runs=7] [--seed=N]
//   node bench/port-areas.ts [same flags]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createPointGrid } from '../src/platform/geo/point-grid.ts';
import { PortAreas, reachNm, type StopCluster } from '../src/maritime/ports/areas.ts';
import { loadPorts, APPROACH_RADIUS_NM, type Port } from '../src/maritime/ports/ports.ts';
import { Rng } from './lib/ais-corpus.ts';
import { formatInt, formatRatio, formatTable, intFlag, medianRatio, runAsScript, timeInterleaved } from './lib/harness.ts';
import type { BenchOptions, BenchReport } from './lib/harness.ts';

export const description = 'Port of a stopped vessel: port areas (box grid + polygon) vs the nearest port within its circle (baseline)';

type Point = { lat: number; lon: number };

/** A point `nm` from the port on `bearing` degrees (flat-earth: within tens of miles). */
function offset(port: Point, nm: number, bearing: number): Point {
  const rad = (bearing * Math.PI) / 180;
  return { lat: port.lat + (nm * Math.cos(rad)) / 60, lon: port.lon + (nm * Math.sin(rad)) / (60 * Math.cos((port.lat * Math.PI) / 180)) };
}

export async function run(options: BenchOptions): Promise<BenchReport> {
  const lookups = intFlag(options, 'lookups', 200_000);
  const runs = intFlag(options, 'runs', 7);
  const rng = new Rng(intFlag(options, 'seed', 20_261_126));
  const dataDir = mkdtempSync(path.join(tmpdir(), 'lamis-bench-port-areas-'));
  const index = await loadPorts({ dataDir });
  rmSync(dataDir, { recursive: true, force: true });
  const ports = index.ports;

  // Stopped vessels: most within 12 nm of a port, the rest anywhere in the degree round one.
  const points: Point[] = Array.from({ length: lookups }, () => {
    const port = ports[Math.floor(rng.next() * ports.length)]!;
    return rng.next() < 0.8 ? offset(port, rng.next() * 12, rng.next() * 360) : { lat: port.lat + rng.next() * 2 - 1, lon: port.lon + rng.next() * 2 - 1 };
  });

  const radius = (port: Port) => APPROACH_RADIUS_NM[port.harbour_size ?? 'unknown'];
  const widest = Math.max(...Object.values(APPROACH_RADIUS_NM));
  const grid = createPointGrid(ports, (port) => port, (port) => port.id);
  const circles = (point: Point) => grid.nearest(point, widest).find((hit) => hit.distance_nm <= radius(hit.item))?.item ?? null;

  const base = new PortAreas(index);
  const now = new Date().toISOString();
  const clusters: StopCluster[] = ports.flatMap((port) => Array.from({ length: 6 }, (_, i) => ({
    id: `stp_${port.id}_${i}`, port_id: port.id, kind: i < 4 ? 'berth' as const : 'anchorage' as const,
    ...offset(port, (rng.next() * reachNm(port)) / 2, rng.next() * 360), radius_nm: rng.next() * 0.5, stops: 2 + Math.floor(rng.next() * 20),
    first_seen: now, last_seen: now,
  })));
  const learned = new PortAreas(index, clusters);

  const lookupAll = (find: (point: Point) => Port | null, slice = points.length) => () => {
    let found = 0;
    for (let i = 0; i < slice; i++) if (find(points[i]!) !== null) found++;
    return found;
  };
  const cases = [
    { label: 'circles (baseline)', find: circles },
    { label: 'areas, base', find: (point: Point) => base.portAt(point) },
    { label: 'areas, learned', find: (point: Point) => learned.portAt(point) },
  ];
  const timings = await timeInterleaved(
    cases.map(({ label, find }) => ({ label, warmup: lookupAll(find, Math.floor(points.length / 3)), pass: lookupAll(find) })),
    { runs, minRuns: 3, warmups: 2 },
  );
  const baseline = timings[0]!.timing;
  const rows = timings.map(({ label, timing }) => [
    label,
    formatInt(timing.count),
    ((timing.medianMs * 1000) / lookups).toFixed(2),
    formatRatio(medianRatio(timing, baseline)),
  ]);
  console.log(`\n== port-areas: ${formatInt(lookups)} stopped positions over ${formatInt(ports.length)} ports (${formatInt(clusters.length)} learned clusters)`);
  console.log(formatTable(['lookup', 'in a port', 'µs/lookup', 'time vs baseline'], rows));
  console.log('  time vs baseline: median over rounds of this case\'s time / the circles\' time (above 1: slower)');
  return {
    name: 'port-areas',
    headline: timings.slice(1).map(({ label, timing }) =>
      `${label}: ${formatRatio(medianRatio(timing, baseline))} the circles' lookup time, ${((timing.medianMs * 1000) / lookups).toFixed(2)} µs a lookup`),
    data: timings,
  };
}

if (import.meta.main) await runAsScript('port-areas', { description, run });
