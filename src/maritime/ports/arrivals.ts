// Expected arrivals at a port: vessels whose AIS destination names it (destination.ts), and
// vessels with no usable destination whose course leads there. Each comes with its reported ETA,
// draught and dimensions, and whether it fits the port's limits.
//
// - Destinations are matched when they change, not at each request: an index from port to the
//   vessels bound there is kept up to date from the vessel changes, so a request reads only the
//   vessels bound for that port.
// - Left out: vessels in port there now (they have arrived), vessels that have called there since
//   they last set the destination (crews often leave it unchanged after the call; a vessel that
//   set it while in that port, for a round trip, is still expected), and vessels not heard from
//   for STALE_AFTER_MS.
// - By course: within COURSE_REACH_NM, outside the port's area (areas.ts), at COURSE_MIN_KN or more, with a
//   course over ground within COURSE_TOLERANCE_DEG of the bearing to the port, and a destination
//   that names no port (blank, "FOR ORDERS", unknown). Their ETA is distance over speed.
// - Fit: the reported draught against the WPI maximum draught and channel depth, the length and
//   beam against the maximum length and beam; `exceeds` when any known limit is passed, `fits` when
//   at least one could be checked and none is passed, else `unknown`. WPI depths are mostly the
//   lower edge of a 5-foot band and charted without tide: a draught above the channel depth may
//   still get in on the tide (see the tidal windows).
import { haversineNm } from '../../platform/geo/great-circle.ts';
import { initialBearingDeg } from '../sea-routes/index.ts';
import type { BBox, Change, Vessel, VesselStore } from '../vessels/store.ts';
import { makesCalls, type PortCallDetector } from './calls.ts';
import type { DestinationMatch, DestinationMatcher } from './destination.ts';
import type { Port } from './model.ts';

export const COURSE_REACH_NM = 60;
export const COURSE_MIN_KN = 3;
export const COURSE_TOLERANCE_DEG = 12;
export const STALE_AFTER_MS = 24 * 3_600_000;
/** Destination texts remembered with their port; the memory starts again past this many. */
const MATCH_CACHE_SIZE = 20_000;

/** The weather-aware prediction for a vessel bound for a port; null when it cannot predict. */
export type PredictedEta = { readonly eta: string; readonly distance_nm: number | null };
/** Where the arrival prediction (routes, speed, weather) plugs in. */
export type ArrivalPredictor = (vessel: Vessel, port: Port) => Promise<PredictedEta | null>;

/** How long a prediction is reused: a route costs tens of milliseconds, and an ETA moves slowly. */
export const PREDICTION_TTL_MS = 5 * 60_000;
const PREDICTION_CACHE_SIZE = 10_000;

/** The predictor, each answer kept for PREDICTION_TTL_MS per vessel and port (failures are not kept). */
export function cachedPredictor(predict: ArrivalPredictor, now: () => number = Date.now): ArrivalPredictor {
  const kept = new Map<string, { at: number; value: Promise<PredictedEta | null> }>();
  return (vessel, port) => {
    const key = `${vessel.mmsi} ${port.id}`;
    const time = now();
    const hit = kept.get(key);
    if (hit !== undefined && time - hit.at < PREDICTION_TTL_MS) return hit.value;
    if (kept.size >= PREDICTION_CACHE_SIZE) kept.clear();
    const value = predict(vessel, port);
    kept.set(key, { at: time, value });
    value.catch(() => kept.delete(key));
    return value;
  };
}

export type FitLimit = 'max_draught' | 'channel_depth' | 'max_length' | 'max_beam';
export type FitCheck = { readonly limit: FitLimit; readonly port_m: number; readonly vessel_m: number; readonly fits: boolean };
export type Fit = {
  readonly verdict: 'fits' | 'exceeds' | 'unknown';
  readonly checks: readonly FitCheck[];
  /** Limits that could not be compared: the port's figure or the vessel's is unknown. */
  readonly unknown: readonly FitLimit[];
};

export type ExpectedArrival = {
  readonly vessel: Vessel;
  readonly match: 'destination' | 'course';
  /** How the destination was read (destination matches only). */
  readonly destination: Extract<DestinationMatch, { status: 'port' }> | null;
  /** Great-circle distance from the last position; null without one. */
  readonly distance_nm: number | null;
  /** Course matches: when the vessel gets there at its speed in a straight line. */
  readonly course_eta: string | null;
  readonly fit: Fit;
};

type Bound = { readonly text: string; readonly portId: string | null; readonly match: DestinationMatch; readonly sinceMs: number };

export function fitOf(vessel: Pick<Vessel, 'draught' | 'dimensions'>, port: Port): Fit {
  const pairs: [FitLimit, number | null, number | null][] = [
    ['max_draught', port.max_vessel_draught_m, vessel.draught],
    ['channel_depth', port.channel_depth_m, vessel.draught],
    ['max_length', port.max_vessel_length_m, vessel.dimensions?.length ?? null],
    ['max_beam', port.max_vessel_beam_m, vessel.dimensions?.beam ?? null],
  ];
  const checks: FitCheck[] = [];
  const unknown: FitLimit[] = [];
  for (const [limit, portValue, vesselValue] of pairs) {
    if (portValue === null || vesselValue === null || vesselValue <= 0) unknown.push(limit);
    else checks.push({ limit, port_m: portValue, vessel_m: vesselValue, fits: vesselValue <= portValue });
  }
  const verdict = checks.some((check) => !check.fits) ? 'exceeds' : checks.length > 0 ? 'fits' : 'unknown';
  return { verdict, checks, unknown };
}

/** The box holding a circle of `radiusNm` round a point; it crosses 180° (minLon > maxLon) when the circle does. */
export function boxAround(lat: number, lon: number, radiusNm: number): BBox {
  const dLat = radiusNm / 60;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const widest = Math.max(Math.abs(minLat), Math.abs(maxLat));
  const dLon = widest >= 89 ? 180 : radiusNm / (60 * Math.cos((widest * Math.PI) / 180));
  if (dLon >= 180) return { minLat, maxLat, minLon: -180, maxLon: 180 };
  const wrap = (value: number) => (value < -180 ? value + 360 : value > 180 ? value - 360 : value);
  return { minLat, maxLat, minLon: wrap(lon - dLon), maxLon: wrap(lon + dLon) };
}

function angleBetween(a: number, b: number): number {
  const difference = Math.abs(a - b) % 360;
  return difference > 180 ? 360 - difference : difference;
}

export class ExpectedArrivals {
  readonly #store: VesselStore;
  readonly #calls: PortCallDetector;
  readonly #matcher: DestinationMatcher;
  readonly #bound = new Map<number, Bound>();
  readonly #byPort = new Map<string, Set<number>>();
  readonly #cache = new Map<string, DestinationMatch>();

  constructor(store: VesselStore, calls: PortCallDetector, matcher: DestinationMatcher) {
    this.#store = store;
    this.#calls = calls;
    this.#matcher = matcher;
    for (const vessel of store.all()) this.#update(vessel, vessel.static_updated_at === null ? 0 : Date.parse(vessel.static_updated_at));
  }

  /** Keeps the destination index in step with a vessel change. */
  observe(change: Change): void {
    const vessel = change.vessel;
    if (this.#bound.get(vessel.mmsi)?.text === (vessel.destination ?? '')) return;
    this.#update(vessel, Date.parse(vessel.last_update));
  }

  /** How the vessel's current destination reads, as indexed. */
  destinationOf(mmsi: number): DestinationMatch | null {
    return this.#bound.get(mmsi)?.match ?? null;
  }

  /** The vessels expected at `port`, soonest first (reported or course ETA; none last), then by MMSI. */
  at(port: Port, nowMs: number): ExpectedArrival[] {
    const arrivals: ExpectedArrival[] = [];
    const fresh = (vessel: Vessel) => nowMs - Date.parse(vessel.last_update) <= STALE_AFTER_MS;
    const inPortHere = (mmsi: number) => this.#calls.openFor(mmsi)?.call.port_id === port.id;
    const distanceTo = (vessel: Vessel) =>
      vessel.position === null ? null : haversineNm(vessel.position.lat, vessel.position.lon, port.lat, port.lon);

    for (const mmsi of this.#byPort.get(port.id) ?? []) {
      const vessel = this.#store.get(mmsi);
      const bound = this.#bound.get(mmsi);
      if (vessel === undefined || bound === undefined || bound.match.status !== 'port' || !fresh(vessel) || inPortHere(mmsi)) continue;
      if (this.#calls.calledSince(mmsi, port.id, bound.sinceMs)) continue;
      arrivals.push({ vessel, match: 'destination', destination: bound.match, distance_nm: distanceTo(vessel), course_eta: null, fit: fitOf(vessel, port) });
    }

    for (const vessel of this.#store.inBox(boxAround(port.lat, port.lon, COURSE_REACH_NM))) {
      const position = vessel.position!;
      if (!makesCalls(vessel) || !fresh(vessel) || position.sog === null || position.cog === null || position.sog < COURSE_MIN_KN) continue;
      if (this.#bound.get(vessel.mmsi)?.match.status === 'port' || this.#calls.openFor(vessel.mmsi) !== null) continue;
      const distance = haversineNm(position.lat, position.lon, port.lat, port.lon);
      if (distance > COURSE_REACH_NM || this.#calls.areas.holds(port, position)) continue;
      const bearing = initialBearingDeg([position.lon, position.lat], [port.lon, port.lat]);
      if (angleBetween(bearing, position.cog) > COURSE_TOLERANCE_DEG) continue;
      const eta = new Date(Date.parse(position.timestamp) + (distance / position.sog) * 3_600_000).toISOString();
      arrivals.push({ vessel, match: 'course', destination: null, distance_nm: distance, course_eta: eta, fit: fitOf(vessel, port) });
    }

    const etaOf = (arrival: ExpectedArrival) => {
      const eta = arrival.course_eta ?? arrival.vessel.eta;
      return eta === null ? Number.POSITIVE_INFINITY : Date.parse(eta);
    };
    return arrivals.sort((a, b) => etaOf(a) - etaOf(b) || a.vessel.mmsi - b.vessel.mmsi);
  }

  #update(vessel: Vessel, sinceMs: number): void {
    const text = vessel.destination ?? '';
    const previous = this.#bound.get(vessel.mmsi);
    if (previous?.portId != null) this.#byPort.get(previous.portId)?.delete(vessel.mmsi);
    const match = this.#match(text, vessel);
    const portId = match.status === 'port' ? match.port.id : null;
    this.#bound.set(vessel.mmsi, { text, portId, match, sinceMs });
    if (portId === null) return;
    let vessels = this.#byPort.get(portId);
    if (vessels === undefined) this.#byPort.set(portId, (vessels = new Set()));
    vessels.add(vessel.mmsi);
  }

  /** Matches a text, remembering answers that do not depend on where the vessel is. */
  #match(text: string, vessel: Vessel): DestinationMatch {
    const cached = this.#cache.get(text);
    if (cached !== undefined) return cached;
    const match = this.#matcher.match(text, vessel.position ?? undefined);
    if (match.status === 'no_port' || !match.ambiguous) {
      if (this.#cache.size >= MATCH_CACHE_SIZE) this.#cache.clear();
      this.#cache.set(text, match);
    }
    return match;
  }
}
