// The water that belongs to a port: where a vessel that stops counts as having arrived there.
//
// - Base area: a circle round the port position, its radius by harbour size (APPROACH_RADIUS_NM)
//   scaled by harbour type (TYPE_SCALE): an open roadstead's ships lie spread off the shore, a
//   river port's berths run along the banks, a breakwater or lock harbour is compact. Every port
//   has it, evidence or not.
// - Seeds, for a fresh start: a river port's terminals and anchorages run along its river, often
//   far from the position the World Port Index gives (Rotterdam's is in the city; the Europoort and
//   Maasvlakte terminals lie 14-20 nm west, at the mouth). The WPI lists such places as smaller ports
//   of their own. So a large or medium river port takes in the base circles of the smaller WPI
//   river and canal ports of its country within its reach (a coastal harbour nearby, such as
//   Scheveningen beside Rotterdam, is a port of its own, not one of its terminals). The WPI gives
//   no berth positions: the seeds are a guess from the listing, until AIS shows where ships stop.
// - Evidence: where AIS shows ships stopping. A report counts when the vessel makes port calls, is
//   moored (navigation status 5) or at anchor (1) and reports less than STOPPED_KN. Moored reports
//   grow berth clusters, at-anchor reports anchorage clusters. A report joins the nearest cluster of
//   its kind at the port within JOIN_NM (the centroid moves by one stop's weight), else starts one;
//   one vessel's reports count as one stop while it stays in the cluster without a silence longer
//   than STOP_GAP_MS. Clusters not seen for FORGET_DAYS are dropped.
// - Which port a stop belongs to: the port its AIS destination names when that port lies within
//   reach (REACH_SCALE times its base radius, at most MAX_REACH_NM: Rotterdam's Maasvlakte
//   terminals lie 20+ nm west of the city position the World Port Index gives), else the port of
//   the vessel's open call. A stop that neither places is not learned.
// - Area: the convex hull of the base circle, the seeds' circles and every cluster with MIN_STOPS
//   stops or more, each buffered by CLUSTER_MARGIN_NM beyond its radius. Leaving takes
//   EXIT_MARGIN_NM more. A seed's own area still takes the calls near it (the nearest port wins),
//   until the river port's clusters show its ships stopping there.
// - Membership: a 1° grid of the areas' boxes; a position is tested against the boxes of its cell
//   and only then against the polygons. Where areas overlap, a port whose cluster holds the point
//   wins, then the nearest port position.
import type { LatLon } from '../../platform/geo/great-circle.ts';
import { haversineNm } from '../../platform/geo/great-circle.ts';
import { createPointGrid } from '../../platform/geo/point-grid.ts';
import { ringHolds } from '../../platform/geo/ring.ts';
import { newId } from '../../platform/ids.ts';
import { isoTime } from '../../platform/iso-time.ts';
import { normalizeLon } from '../sea-routes/geo.ts';
import { APPROACH_RADIUS_NM, HARBOUR_SIZES, type HarbourType, type Port } from './model.ts';

export type ClusterKind = 'anchorage' | 'berth';

export type StopCluster = {
  readonly id: string;
  readonly port_id: string;
  readonly kind: ClusterKind;
  lat: number;
  lon: number;
  /** The farthest a stop report of the cluster lay from its centroid. */
  radius_nm: number;
  /** Vessel stops seen in it. */
  stops: number;
  first_seen: string;
  last_seen: string;
};

/** Base radius by harbour type, times the radius by size. LAMIS's own choice, not a source's. */
export const TYPE_SCALE: Readonly<Record<HarbourType, number>> = {
  coastal_natural: 1,
  coastal_breakwater: 0.8,
  coastal_tide_gates: 0.8,
  river_natural: 1.2,
  river_basins: 1.2,
  river_tide_gates: 1.2,
  canal_or_lake: 0.8,
  open_roadstead: 1.5,
  typhoon_harbour: 0.8,
};

export const MOORED_STATUS = 5;
export const AT_ANCHOR_STATUS = 1;
/** Below this a vessel is stopped whatever its status says; a moored or anchored report below it is a stop. */
export const STOPPED_KN = 0.5;
export const JOIN_NM: Readonly<Record<ClusterKind, number>> = { berth: 0.3, anchorage: 1 };
export const STOP_GAP_MS = 60 * 60_000;
export const FORGET_DAYS = 60;
export const MIN_STOPS = 2;
export const CLUSTER_MARGIN_NM = 1;
export const EXIT_MARGIN_NM = 0.5;
export const REACH_SCALE = 3;
export const MAX_REACH_NM = 40;
const DAY_MS = 86_400_000;
const CIRCLE_POINTS = 32;
const CLUSTER_POINTS = 12;

const RIVER_TYPES: ReadonlySet<HarbourType> = new Set(['river_natural', 'river_basins', 'river_tide_gates']);
/** The harbours on a river port's own waterways that may be its terminals. */
const WATERWAY_TYPES: ReadonlySet<HarbourType> = new Set([...RIVER_TYPES, 'canal_or_lake']);

export type AreaDerivation = {
  readonly method: 'base' | 'seeded' | 'evidence';
  readonly base_radius_nm: number;
  /** The smaller WPI ports whose circles the area takes in (river ports). */
  readonly seeds: readonly string[];
  /** The clusters the hull takes in. */
  readonly clusters_used: number;
  /** How the area was made, in words. */
  readonly reasoning: string;
};

/**
 * A ring flat, [lon0, lat0, lon1, lat1, ...], with the first point repeated last; longitudes
 * unwrapped round the port's. Every port has an area from the start: as arrays of pairs the rings
 * of ~4,400 areas held about 24 MB, flat about 6 MB.
 */
export type Ring = Float64Array;

export type PortArea = {
  readonly port: Port;
  readonly polygon: Ring;
  /** The polygon grown by EXIT_MARGIN_NM: a vessel in port has left when it is outside this. */
  readonly exit: Ring;
  readonly box: Box;
  readonly anchorages: readonly StopCluster[];
  readonly berth_clusters: readonly StopCluster[];
  /** The clusters the hull takes in. */
  readonly counted: readonly StopCluster[];
  readonly derivation: AreaDerivation;
};

type Box = { readonly minLat: number; readonly maxLat: number; readonly minLon: number; readonly maxLon: number };

export function baseRadiusNm(port: Pick<Port, 'harbour_size' | 'harbour_type'>): number {
  const bySize = APPROACH_RADIUS_NM[port.harbour_size ?? 'unknown'];
  return Math.round(bySize * (port.harbour_type === null ? 1 : TYPE_SCALE[port.harbour_type]) * 10) / 10;
}

/** How far from the port position its clusters may lie. */
export function reachNm(port: Pick<Port, 'harbour_size' | 'harbour_type'>): number {
  return Math.min(MAX_REACH_NM, REACH_SCALE * baseRadiusNm(port));
}

// Positions are worked in nautical miles on a plane tangent at the port: within tens of miles the
// error is far below a berth's length.
const RAD = Math.PI / 180;
type Plane = { x: number; y: number };

function toPlane(port: LatLon, point: LatLon): Plane {
  return { x: normalizeLon(point.lon - port.lon) * 60 * Math.cos(port.lat * RAD), y: (point.lat - port.lat) * 60 };
}

function circle(centre: Plane, radius: number, count: number): Plane[] {
  return Array.from({ length: count }, (_, i) => {
    const angle = (2 * Math.PI * i) / count;
    // Vertices outside the true circle, so the polygon never cuts into it.
    const outer = radius / Math.cos(Math.PI / count);
    return { x: centre.x + outer * Math.sin(angle), y: centre.y + outer * Math.cos(angle) };
  });
}

/** The convex hull, counter-clockwise (Andrew's monotone chain). */
export function convexHull(points: readonly Plane[]): Plane[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const cross = (o: Plane, a: Plane, b: Plane) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const lower: Plane[] = [];
  for (const point of sorted) {
    while (lower.length >= 2 && cross(lower.at(-2)!, lower.at(-1)!, point) <= 0) lower.pop();
    lower.push(point);
  }
  const upper: Plane[] = [];
  for (const point of sorted.reverse()) {
    while (upper.length >= 2 && cross(upper.at(-2)!, upper.at(-1)!, point) <= 0) upper.pop();
    upper.push(point);
  }
  return [...lower.slice(0, -1), ...upper.slice(0, -1)];
}

/** Whether the cluster counts towards the area at `nowMs`. */
function clusterCounts(cluster: StopCluster, nowMs: number): boolean {
  return cluster.stops >= MIN_STOPS && nowMs - Date.parse(cluster.last_seen) <= FORGET_DAYS * DAY_MS;
}

/** The smaller WPI river and canal ports of the same country within a large or medium river port's reach, nearest first. */
function seedsOf(port: Port, near: (port: Port, radiusNm: number) => readonly Port[]): Port[] {
  if (port.harbour_type === null || !RIVER_TYPES.has(port.harbour_type) || (port.harbour_size !== 'large' && port.harbour_size !== 'medium')) return [];
  const size = HARBOUR_SIZES.indexOf(port.harbour_size);
  return near(port, reachNm(port)).filter((other) =>
    other.id !== port.id && other.wpi_number !== null && other.country === port.country && other.harbour_type !== null && WATERWAY_TYPES.has(other.harbour_type)
    && other.harbour_size !== null && HARBOUR_SIZES.indexOf(other.harbour_size) > size);
}

/** The area of a port from its base radius, its seeds and its clusters (see the rules at the top). */
export function deriveArea(port: Port, clusters: readonly StopCluster[], nowMs: number, seeds: readonly Port[] = []): PortArea {
  const base = baseRadiusNm(port);
  const used = clusters.filter((cluster) => clusterCounts(cluster, nowMs));
  const hullOf = (extra: number) => {
    const points = circle({ x: 0, y: 0 }, base + extra, CIRCLE_POINTS);
    for (const seed of seeds) points.push(...circle(toPlane(port, seed), baseRadiusNm(seed) + extra, CLUSTER_POINTS));
    for (const cluster of used) points.push(...circle(toPlane(port, cluster), cluster.radius_nm + CLUSTER_MARGIN_NM + extra, CLUSTER_POINTS));
    const hull = convexHull(points);
    const ring = new Float64Array(hull.length * 2 + 2);
    const lonScale = 60 * Math.cos(port.lat * RAD);
    hull.forEach((point, i) => {
      ring[2 * i] = port.lon + point.x / lonScale;
      ring[2 * i + 1] = port.lat + point.y / 60;
    });
    ring.copyWithin(hull.length * 2, 0, 2);
    return ring;
  };
  const polygon = hullOf(0);
  const exit = hullOf(EXIT_MARGIN_NM);
  let box = { minLat: 90, maxLat: -90, minLon: Infinity, maxLon: -Infinity };
  for (let i = 0; i < exit.length; i += 2) {
    const lon = exit[i]!;
    const lat = exit[i + 1]!;
    box = { minLat: Math.min(box.minLat, lat), maxLat: Math.max(box.maxLat, lat), minLon: Math.min(box.minLon, lon), maxLon: Math.max(box.maxLon, lon) };
  }
  const size = port.harbour_size?.replace('_', ' ') ?? 'unknown';
  const type = port.harbour_type?.replace(/_/g, ' ') ?? 'unknown';
  const scale = port.harbour_type === null ? 1 : TYPE_SCALE[port.harbour_type];
  const baseText = `A circle of ${base} nm round the port position, by World Port Index harbour size ` +
    `(${size}: ${APPROACH_RADIUS_NM[port.harbour_size ?? 'unknown']} nm) and type (${type}: ×${scale}).`;
  const anchorages = clusters.filter((cluster) => cluster.kind === 'anchorage');
  const berths = clusters.filter((cluster) => cluster.kind === 'berth');
  const seedText = seeds.length === 0
    ? ''
    : ` A river port: the hull takes in the circles of ${seeds.length} smaller World Port Index river and canal port(s) of its country within ${reachNm(port)} nm ` +
      `(${seeds.map((seed) => seed.name).join(', ')}), where its terminals may lie; the WPI gives no berth positions, so this is a guess from the listing.`;
  const reasoning = used.length === 0
    ? `${baseText}${seedText} ` +
      (clusters.length === 0
        ? 'No AIS evidence of where ships stop here yet'
        : `Not enough AIS evidence yet (${clusters.length} cluster(s), each below ${MIN_STOPS} stops or not seen for ${FORGET_DAYS} days)`) +
      '; the area follows the berths and anchorages once moored and anchored vessels are seen.'
    : `${baseText}${seedText} Joined by the convex hull of ${used.length} cluster(s) of stopped vessels seen in AIS ` +
      `(${used.filter((c) => c.kind === 'berth').length} berth, ${used.filter((c) => c.kind === 'anchorage').length} anchorage; ` +
      `${used.reduce((sum, c) => sum + c.stops, 0)} stops), each widened by ${CLUSTER_MARGIN_NM} nm.`;
  return {
    port,
    polygon,
    exit,
    box,
    anchorages,
    berth_clusters: berths,
    counted: used,
    derivation: {
      method: used.length > 0 ? 'evidence' : seeds.length > 0 ? 'seeded' : 'base',
      base_radius_nm: base,
      seeds: seeds.map((seed) => seed.id),
      clusters_used: used.length,
      reasoning,
    },
  };
}

/** Whether the area holds the position; `exit`: with the margin a vessel in port keeps. */
export function areaHolds(area: PortArea, position: LatLon, exit = false): boolean {
  const { box } = area;
  if (position.lat < box.minLat || position.lat > box.maxLat) return false;
  const lon = area.port.lon + normalizeLon(position.lon - area.port.lon);
  if (lon < box.minLon || lon > box.maxLon) return false;
  return ringHolds(exit ? area.exit : area.polygon, lon, position.lat);
}

/** A position report as the area learner reads it. */
export type StopReport = {
  readonly mmsi: number;
  readonly lat: number;
  readonly lon: number;
  readonly sog: number | null;
  readonly nav_status: number | null;
  readonly atMs: number;
};

/** The kind of cluster a report feeds, or null when it is no stop (see the rules at the top). */
export function stopKind(report: Pick<StopReport, 'sog' | 'nav_status'>): ClusterKind | null {
  if (report.sog === null || report.sog >= STOPPED_KN) return null;
  return report.nav_status === MOORED_STATUS ? 'berth' : report.nav_status === AT_ANCHOR_STATUS ? 'anchorage' : null;
}

export type AreaPorts = { readonly ports: readonly Port[]; get(id: string): Port | null };

/**
 * Every port's area, looked up by position through a 1° grid of their boxes, and the clusters
 * that shape them, learned from stop reports. The areas are made on first use, or beforehand a
 * slice of ports at a time (`prepare`): for the ~4,400 ports that is a few hundred milliseconds.
 */
export class PortAreas {
  readonly #ports: AreaPorts;
  readonly #clusters = new Map<string, StopCluster[]>();
  readonly #areas = new Map<string, PortArea>();
  /** Cell → the areas whose exit box reaches into it. */
  readonly #cells = new Map<number, PortArea[]>();
  readonly #stops = new Map<number, { clusterId: string; lastMs: number }>();
  readonly #dirty = new Set<StopCluster>();
  readonly #seeds = new Map<string, Port[]>();
  readonly #now: () => number;
  /** The areas of the ports before this position in `#ports.ports` are made. */
  #made = 0;

  constructor(ports: AreaPorts, clusters: readonly StopCluster[] = [], now: () => number = Date.now) {
    this.#ports = ports;
    this.#now = now;
    const grid = createPointGrid(ports.ports, (port) => port, (port) => port.id);
    for (const port of ports.ports) {
      const seeds = seedsOf(port, (centre, radiusNm) => grid.nearest(centre, radiusNm).map((hit) => hit.item));
      if (seeds.length > 0) this.#seeds.set(port.id, seeds);
    }
    for (const cluster of clusters) {
      if (ports.get(cluster.port_id) === null) continue;
      const list = this.#clusters.get(cluster.port_id);
      if (list === undefined) this.#clusters.set(cluster.port_id, [{ ...cluster }]);
      else list.push({ ...cluster });
    }
  }

  /** Makes every area not made yet, `slice` ports at a time, awaiting `pause` between slices. */
  async prepare(pause: () => Promise<unknown>, slice = 100): Promise<void> {
    while (this.#made < this.#ports.ports.length) {
      this.#makeAreas(this.#made + slice);
      await pause();
    }
  }

  #makeAreas(until: number): void {
    const ports = this.#ports.ports;
    for (const end = Math.min(until, ports.length); this.#made < end; this.#made++) {
      const port = ports[this.#made]!;
      // A port a stop was learned at already has its area.
      if (!this.#areas.has(port.id)) this.#index(this.#baseOrLearned(port));
    }
  }

  /** The port's area now. */
  of(port: Port): PortArea {
    return this.#areas.get(port.id) ?? this.#baseOrLearned(port);
  }

  /** Whether the port's area holds the position; `exit`: with the margin a vessel in port keeps. */
  holds(port: Port, position: LatLon, exit = false): boolean {
    return areaHolds(this.of(port), position, exit);
  }

  /** The port whose area holds the position; where areas overlap, one whose cluster holds it, then the nearest. */
  portAt(position: LatLon): Port | null {
    this.#makeAreas(Infinity);
    let only: PortArea | null = null;
    let holding: PortArea[] | null = null;
    for (const area of this.#cells.get(cellKey(position.lat, position.lon)) ?? []) {
      if (!areaHolds(area, position)) continue;
      if (only === null) only = area;
      else (holding ??= [only]).push(area);
    }
    if (holding === null) return only?.port ?? null;
    // Overlapping areas: the cost of choosing is paid only here.
    let best: { port: Port; inCluster: boolean; distance: number } | null = null;
    for (const area of holding) {
      const inCluster = area.counted.some((cluster) => haversineNm(cluster.lat, cluster.lon, position.lat, position.lon) <= cluster.radius_nm + CLUSTER_MARGIN_NM);
      const distance = haversineNm(area.port.lat, area.port.lon, position.lat, position.lon);
      if (best === null || (inCluster && !best.inCluster) || (inCluster === best.inCluster && distance < best.distance)) {
        best = { port: area.port, inCluster, distance };
      }
    }
    return best!.port;
  }

  /**
   * Learns from one report of a vessel that makes port calls, placed at `port` (see the rules for
   * which port that is): `new` when it began a stop (the area may have changed), `same` when it
   * continued one, null when it is no stop or lies beyond the port's reach.
   */
  learn(port: Port, report: StopReport): 'new' | 'same' | null {
    const kind = stopKind(report);
    if (kind === null || haversineNm(port.lat, port.lon, report.lat, report.lon) > reachNm(port)) return null;
    const at = isoTime(report.atMs);
    const clusters = this.#clusters.get(port.id) ?? [];
    let nearest: { cluster: StopCluster; distance: number } | null = null;
    for (const cluster of clusters) {
      if (cluster.kind !== kind) continue;
      const distance = haversineNm(cluster.lat, cluster.lon, report.lat, report.lon);
      if (distance <= JOIN_NM[kind] && (nearest === null || distance < nearest.distance)) nearest = { cluster, distance };
    }
    const previous = this.#stops.get(report.mmsi);
    if (nearest !== null && previous?.clusterId === nearest.cluster.id && report.atMs - previous.lastMs <= STOP_GAP_MS) {
      // The same stop: the vessel swinging at anchor or lying alongside.
      const cluster = nearest.cluster;
      cluster.radius_nm = Math.max(cluster.radius_nm, nearest.distance);
      if (report.atMs > Date.parse(cluster.last_seen)) cluster.last_seen = at;
      previous.lastMs = Math.max(previous.lastMs, report.atMs);
      this.#dirty.add(cluster);
      return 'same';
    }
    let cluster: StopCluster;
    if (nearest === null) {
      cluster = { id: newId('stp'), port_id: port.id, kind, lat: report.lat, lon: report.lon, radius_nm: 0, stops: 1, first_seen: at, last_seen: at };
      clusters.push(cluster);
      this.#clusters.set(port.id, clusters);
    } else {
      cluster = nearest.cluster;
      // Each stop pulls the centroid by its share; the radius keeps the farthest report.
      const weight = 1 / (cluster.stops + 1);
      const lat = cluster.lat + (report.lat - cluster.lat) * weight;
      const lon = cluster.lon + normalizeLon(report.lon - cluster.lon) * weight;
      cluster.radius_nm = Math.min(JOIN_NM[kind], Math.max(cluster.radius_nm + haversineNm(lat, lon, cluster.lat, cluster.lon), haversineNm(lat, lon, report.lat, report.lon)));
      cluster.lat = lat;
      cluster.lon = normalizeLon(lon);
      cluster.stops += 1;
      if (report.atMs > Date.parse(cluster.last_seen)) cluster.last_seen = at;
    }
    this.#stops.set(report.mmsi, { clusterId: cluster.id, lastMs: report.atMs });
    this.#dirty.add(cluster);
    this.#index(this.#derive(port, clusters));
    return 'new';
  }

  /** The clusters changed since the last call, for storage. */
  takeChanged(): StopCluster[] {
    const changed = [...this.#dirty].map((cluster) => ({ ...cluster }));
    this.#dirty.clear();
    return changed;
  }

  /** Puts clusters back for the next `takeChanged` (their write failed). */
  keepChanged(clusters: readonly StopCluster[]): void {
    for (const stored of clusters) {
      const live = this.#clusters.get(stored.port_id)?.find((cluster) => cluster.id === stored.id);
      if (live !== undefined) this.#dirty.add(live);
    }
  }

  /** Drops clusters not seen since `beforeMs` and remakes the areas they shaped. */
  forget(beforeMs: number): void {
    // A vessel silent for longer than the gap starts a new stop anyway: its last one need not be kept.
    const now = this.#now();
    for (const [mmsi, stop] of this.#stops) if (now - stop.lastMs > STOP_GAP_MS) this.#stops.delete(mmsi);
    for (const [portId, clusters] of this.#clusters) {
      const kept = clusters.filter((cluster) => Date.parse(cluster.last_seen) >= beforeMs);
      if (kept.length === clusters.length) continue;
      this.#clusters.set(portId, kept);
      const port = this.#ports.get(portId);
      if (port !== null) this.#index(this.#derive(port, kept));
    }
  }

  #baseOrLearned(port: Port): PortArea {
    return this.#derive(port, this.#clusters.get(port.id) ?? []);
  }

  #derive(port: Port, clusters: readonly StopCluster[]): PortArea {
    return deriveArea(port, clusters, this.#now(), this.#seeds.get(port.id));
  }

  /** Keeps the area and files it under every cell its exit box reaches. */
  #index(area: PortArea): void {
    const previous = this.#areas.get(area.port.id);
    if (previous !== undefined) for (const cell of cellsOf(previous.box)) this.#cells.set(cell, this.#cells.get(cell)!.filter((other) => other !== previous));
    this.#areas.set(area.port.id, area);
    for (const cell of cellsOf(area.box)) {
      const areas = this.#cells.get(cell);
      if (areas === undefined) this.#cells.set(cell, [area]);
      else areas.push(area);
    }
  }
}

function cellKey(lat: number, lon: number): number {
  const row = Math.min(179, Math.max(0, Math.floor(lat) + 90));
  const column = (((Math.floor(lon) + 180) % 360) + 360) % 360;
  return row * 360 + column;
}

function* cellsOf(box: Box): Generator<number> {
  for (let lat = Math.floor(box.minLat); lat <= Math.floor(Math.min(89.999, box.maxLat)); lat++) {
    for (let lon = Math.floor(box.minLon); lon <= Math.floor(box.maxLon); lon++) yield cellKey(lat, lon);
  }
}
