// How simulated vessels move. Each vessel runs through phases (under way along a track, at anchor,
// moored); when its plan runs out it plans the next trip from the port it is in, by trade pattern:
// - ocean: to any port (weighted by size) or a regional one, sometimes waiting at anchor first;
// - short_sea: to a port within 1,500 nm; ferry: shuttles between its home port and its nearest
//   neighbour; fishing: out along a sea lane, trawling slowly (status 7), back home;
// - harbour (tugs) and leisure: short out-and-back trips along a lane from the home port.
// Tracks come from the sea-route module once per port pair and are shared by all vessels.
// Positions are computed for any time from the phase alone (distance = speed x elapsed time), so
// the simulator is purely time-driven and cheap to query.
import { hashUnit, Prng } from '../../../platform/random.ts';
import { destinationPoint, distanceNm, initialBearingDeg, pointAlong, routeBetween } from '../../sea-routes/index.ts';
import type { Position } from '../../sea-routes/index.ts';
import type { VesselIdentity } from './fleet.ts';
import { portsNear } from './ports.ts';
import type { SimPort } from './ports.ts';

const HOUR_MS = 3_600_000;
/** Half-width (nm) of the stretch over which a vessel turns from one track segment to the next. */
const TURN_HALF_NM = 0.25;
/** A course change of more than this over a turn counts as "changing course" for reporting. */
const TURNING_DEG = 5;
/** Shortest phase, so that planning always moves time forward. */
const MIN_PHASE_MS = 60_000;

/** AIS navigational status codes used here. */
export const NAV_UNDER_WAY_ENGINE = 0;
export const NAV_AT_ANCHOR = 1;
export const NAV_MOORED = 5;
export const NAV_FISHING = 7;
export const NAV_UNDER_WAY_SAILING = 8;

export interface Track {
  path: Position[];
  cumulative: number[];
  length: number;
}

/** Sea-route tracks between ports, computed once per pair (both directions). */
export class TrackCache {
  readonly #tracks = new Map<string, Track | null>();

  between(from: SimPort, to: SimPort): Track | null {
    const key = `${from.locode}>${to.locode}`;
    const known = this.#tracks.get(key);
    if (known !== undefined) return known;
    const route = routeBetween({ lat: from.lat, lon: from.lon }, { lat: to.lat, lon: to.lon });
    const track = route.ok && route.distance_nm > 0 ? { path: route.path, cumulative: route.cumulative_nm, length: route.distance_nm } : null;
    this.#tracks.set(key, track);
    this.#tracks.set(`${to.locode}>${from.locode}`, track === null ? null : reverseTrack(track));
    return track;
  }
}

export function reverseTrack(track: Track): Track {
  return {
    path: [...track.path].reverse(),
    cumulative: track.cumulative.map((c) => track.length - c).reverse(),
    length: track.length,
  };
}

/** The part of a track between two distances from its start. */
export function sliceTrack(track: Track, from: number, to: number): Track {
  const start = Math.max(0, Math.min(from, track.length));
  const end = Math.max(start, Math.min(to, track.length));
  const first = pointAlong(track.path, track.cumulative, start);
  const last = pointAlong(track.path, track.cumulative, end, first.segment);
  const path: Position[] = [first.position];
  const cumulative: number[] = [0];
  for (let i = first.segment + 1; i <= last.segment; i++) {
    const vertex = track.path[i]!;
    const offset = track.cumulative[i]! - start;
    if (offset > cumulative[cumulative.length - 1]! && offset < end - start) {
      path.push(vertex);
      cumulative.push(offset);
    }
  }
  path.push(last.position);
  cumulative.push(end - start);
  return { path, cumulative, length: end - start };
}

export type PlanStep =
  | { kind: 'sail'; track: Track; speedKn: number; navStatus: number; destination: SimPort }
  | { kind: 'moor'; port: SimPort; hours: number }
  | { kind: 'anchor'; port: SimPort; position: Position; hours: number };

export type Phase =
  | { kind: 'underway'; start: number; end: number; legId: number; track: Track; speedKn: number; navStatus: number; destination: SimPort }
  | { kind: 'moored' | 'anchored'; start: number; end: number; port: SimPort; position: Position; heading: number };

/** What every vessel shares: the ports, the track cache and lanes for local trips. */
export class World {
  readonly ports: readonly SimPort[];
  readonly tracks = new TrackCache();
  readonly #neighbours = new Map<string, SimPort[]>();
  #legIds = 0;

  constructor(ports: readonly SimPort[]) {
    this.ports = ports;
  }

  nextLegId(): number {
    return ++this.#legIds;
  }

  /** The nearest other ports (up to six): lanes for local trips and ferry partners. */
  neighbours(port: SimPort): SimPort[] {
    let list = this.#neighbours.get(port.locode);
    if (list === undefined) {
      list = portsNear(this.ports, port, 20_000).slice(0, 6);
      this.#neighbours.set(port.locode, list);
    }
    return list;
  }
}

/** Position, motion and status of a vessel at one instant. */
export interface Kinematics {
  lon: number;
  lat: number;
  sog: number;
  cog: number;
  heading: number;
  /** Degrees per minute, positive to starboard. */
  rot: number;
  turning: boolean;
  navStatus: number;
}

function wrap180(angle: number): number {
  return ((((angle + 180) % 360) + 360) % 360) - 180;
}

function wrap360(angle: number): number {
  return ((angle % 360) + 360) % 360;
}

/** Running state of one vessel; the simulator exposes it read-only as SimulatedVessel. */
export class VesselRuntime {
  readonly identity: VesselIdentity;
  phase: Phase;
  readonly #random: Prng;
  #plan: PlanStep[] = [];
  /** Voyage data as announced in AIS type 5. */
  destination: SimPort;
  eta: number | null = null;
  draught: number;
  /** Segment of the current track at the last update: makes the walk along it O(1). */
  #segmentHint = 0;
  /** Heading wander: amplitude (deg), period (ms) and phase, fixed per vessel. */
  readonly #wanderAmplitude: number;
  readonly #wanderPeriod: number;
  readonly #wanderPhase: number;

  constructor(identity: VesselIdentity, seed: number, startTime: number) {
    this.identity = identity;
    this.#random = new Prng(seed);
    const random = this.#random;
    this.#wanderAmplitude = random.range(0.5, 3);
    this.#wanderPeriod = random.range(8, 30) * 60_000;
    this.#wanderPhase = random.range(0, 2 * Math.PI);
    this.destination = identity.homePort;
    this.draught = identity.designDraught;
    // Start somewhere in a typical cycle: moored at home, having arrived up to a cycle ago. The first
    // update plays the trips since then, so the fleet starts spread over its routes.
    const cycleHours = { ocean: 600, short_sea: 150, ferry: 6, fishing: 72, harbour: 12, leisure: 72 }[identity.pattern];
    const start = startTime - random.range(0, cycleHours) * HOUR_MS;
    this.phase = this.#stationary('moored', identity.homePort, start, this.#dwellHours());
  }

  /** Moves the phase forward until it covers time t. */
  advanceTo(t: number, world: World): void {
    while (t >= this.phase.end) {
      if (this.#plan.length === 0) this.#plan = this.#planTrip(world, this.phase.end);
      this.#enter(this.#plan.shift()!, this.phase.end, world);
    }
  }

  /** Where the vessel is and how it moves at time t (after advanceTo(t)). */
  kinematicsAt(t: number): Kinematics {
    const phase = this.phase;
    const wander = this.#wanderAmplitude * Math.sin((2 * Math.PI * t) / this.#wanderPeriod + this.#wanderPhase);
    // d(wander)/dt in degrees per minute: the small yaw rate a vessel shows on a steady course.
    const wanderRate =
      ((this.#wanderAmplitude * 2 * Math.PI * 60_000) / this.#wanderPeriod) *
      Math.cos((2 * Math.PI * t) / this.#wanderPeriod + this.#wanderPhase);
    const noise = hashUnit(this.identity.mmsi, Math.floor(t / 1000));
    if (phase.kind !== 'underway') {
      // At the berth the vessel lies still; at anchor it swings round its anchor and creeps a little.
      const anchored = phase.kind === 'anchored';
      const heading = wrap360(phase.heading + (anchored ? 8 * wander : 0));
      return {
        lon: phase.position[0],
        lat: phase.position[1],
        sog: anchored ? Math.round(noise * 3) / 10 : noise < 0.8 ? 0 : 0.1,
        cog: wrap360(heading + (noise - 0.5) * 60),
        heading,
        rot: anchored ? 8 * wanderRate : 0,
        turning: false,
        navStatus: anchored ? NAV_AT_ANCHOR : NAV_MOORED,
      };
    }
    const travelled = this.distanceAt(t);
    const { path, cumulative } = phase.track;
    const along = pointAlong(path, cumulative, travelled, this.#segmentHint);
    this.#segmentHint = along.segment;
    const turn = this.#turnAt(phase.track, travelled, along.segment, along.course, phase.speedKn);
    const cog = wrap360(turn.cog);
    return {
      lon: along.position[0],
      lat: along.position[1],
      sog: Math.max(0, Math.round((phase.speedKn + (noise - 0.5) * 0.4) * 10) / 10),
      cog,
      heading: wrap360(cog + wander),
      rot: turn.turning ? turn.rate : wanderRate,
      turning: turn.turning,
      navStatus: phase.navStatus,
    };
  }

  /** Distance along the current track at time t (0 when not under way). */
  distanceAt(t: number): number {
    const phase = this.phase;
    if (phase.kind !== 'underway') return 0;
    return Math.min(phase.track.length, (Math.max(0, t - phase.start) / HOUR_MS) * phase.speedKn);
  }

  /**
   * Course over ground with turns spread over 2 x TURN_HALF_NM around each vertex (the position
   * stays on the track; only the reported course and rate of turn are blended).
   */
  #turnAt(track: Track, d: number, segment: number, course: number, speedKn: number): { cog: number; rate: number; turning: boolean } {
    const { path, cumulative } = track;
    const segmentLength = (i: number): number => cumulative[i + 1]! - cumulative[i]!;
    const halfWidth = (vertex: number): number => Math.min(TURN_HALF_NM, segmentLength(vertex - 1) / 2, segmentLength(vertex) / 2);
    const blend = (incoming: number, outgoing: number, weight: number, half: number): { cog: number; rate: number; turning: boolean } => {
      const change = wrap180(outgoing - incoming);
      const minutes = ((2 * half) / Math.max(speedKn, 0.1)) * 60;
      return { cog: incoming + weight * change, rate: change / minutes, turning: Math.abs(change) > TURNING_DEG };
    };
    const next = segment + 1;
    if (next < path.length - 1) {
      const half = halfWidth(next);
      const toVertex = cumulative[next]! - d;
      if (half > 0 && toVertex < half) {
        const outgoing = initialBearingDeg(path[next]!, path[next + 1]!);
        return blend(course, outgoing, (half - toVertex) / (2 * half), half);
      }
    }
    if (segment > 0) {
      const half = halfWidth(segment);
      const fromVertex = d - cumulative[segment]!;
      if (half > 0 && fromVertex < half) {
        const incoming = wrap360(initialBearingDeg(path[segment]!, path[segment - 1]!) + 180);
        return blend(incoming, course, 0.5 + fromVertex / (2 * half), half);
      }
    }
    return { cog: course, rate: 0, turning: false };
  }

  #dwellHours(): number {
    const [min, max] = this.identity.profile.mooredHours;
    return this.#random.range(min, max);
  }

  #stationary(kind: 'moored' | 'anchored', port: SimPort, start: number, hours: number, at?: Position): Phase {
    // Berths spread round the port position (up to ~0.4 nm); anchored ships lie at the given spot.
    const position = at ?? destinationPoint([port.lon, port.lat], this.#random.range(0, 360), this.#random.range(0.05, 0.4));
    return {
      kind,
      start,
      end: start + Math.max(MIN_PHASE_MS, hours * HOUR_MS),
      port,
      position,
      heading: Math.floor(this.#random.range(0, 360)),
    };
  }

  #enter(step: PlanStep, start: number, world: World): void {
    this.#segmentHint = 0;
    if (step.kind === 'sail') {
      const duration = Math.max(MIN_PHASE_MS, (step.track.length / step.speedKn) * HOUR_MS);
      this.phase = {
        kind: 'underway',
        start,
        end: start + duration,
        legId: world.nextLegId(),
        track: step.track,
        speedKn: step.speedKn,
        navStatus: step.navStatus,
        destination: step.destination,
      };
    } else if (step.kind === 'anchor') {
      this.phase = this.#stationary('anchored', step.port, start, step.hours, step.position);
    } else {
      this.phase = this.#stationary('moored', step.port, start, step.hours);
    }
  }

  /** The port the vessel is in when its plan runs out (plans always end moored). */
  #currentPort(): SimPort {
    const phase = this.phase;
    return phase.kind === 'underway' ? phase.destination : phase.port;
  }

  #planTrip(world: World, start: number): PlanStep[] {
    const identity = this.identity;
    const random = this.#random;
    const here = this.#currentPort();
    const speed = random.range(identity.speedRange[0], identity.speedRange[1]);
    const stayHome = (): PlanStep[] => [{ kind: 'moor', port: here, hours: this.#dwellHours() }];

    if (identity.pattern === 'ocean' || identity.pattern === 'short_sea' || identity.pattern === 'ferry') {
      const destination = this.#pickDestination(world, here);
      const track = destination && world.tracks.between(here, destination);
      if (!destination || !track) return stayHome();
      const steps: PlanStep[] = [];
      const profile = identity.profile;
      if (random.chance(profile.anchorChance) && track.length > 20) {
        // Wait at the anchorage a few miles short of the port, then make the final approach slowly.
        const anchorAt = track.length - Math.min(random.range(2, 6), track.length * 0.3);
        const approach = sliceTrack(track, anchorAt, track.length);
        const toAnchorage = sliceTrack(track, 0, anchorAt);
        steps.push({ kind: 'sail', track: toAnchorage, speedKn: speed, navStatus: NAV_UNDER_WAY_ENGINE, destination });
        steps.push({ kind: 'anchor', port: destination, position: approach.path[0]!, hours: random.range(profile.anchorHours[0], profile.anchorHours[1]) });
        steps.push({ kind: 'sail', track: approach, speedKn: random.range(5, 8), navStatus: NAV_UNDER_WAY_ENGINE, destination });
      } else {
        steps.push({ kind: 'sail', track, speedKn: speed, navStatus: NAV_UNDER_WAY_ENGINE, destination });
      }
      steps.push({ kind: 'moor', port: destination, hours: this.#dwellHours() });
      this.#announce(destination, start, steps, identity.kind === 'tanker' || identity.kind === 'bulk_carrier');
      return steps;
    }

    // Local trips: out along the lane towards a neighbouring port and back home.
    const lanes = world.neighbours(here);
    const lane = lanes.length > 0 ? world.tracks.between(here, random.pick(lanes)) : null;
    if (!lane) return stayHome();
    const steps: PlanStep[] = [];
    if (identity.pattern === 'fishing') {
      const out = Math.min(random.range(15, 80), lane.length * 0.45);
      const fished = Math.min(out + random.range(5, 20), lane.length * 0.9);
      steps.push({ kind: 'sail', track: sliceTrack(lane, 0, out), speedKn: speed, navStatus: NAV_UNDER_WAY_ENGINE, destination: here });
      steps.push({ kind: 'sail', track: sliceTrack(lane, out, fished), speedKn: random.range(2.5, 5), navStatus: NAV_FISHING, destination: here });
      steps.push({ kind: 'sail', track: reverseTrack(sliceTrack(lane, 0, fished)), speedKn: speed, navStatus: NAV_UNDER_WAY_ENGINE, destination: here });
    } else {
      const reach = identity.pattern === 'harbour' ? random.range(2, 10) : random.range(4, 25);
      const out = sliceTrack(lane, 0, Math.min(reach, lane.length * 0.45));
      const status = identity.shipType === 36 ? NAV_UNDER_WAY_SAILING : NAV_UNDER_WAY_ENGINE;
      steps.push({ kind: 'sail', track: out, speedKn: speed, navStatus: status, destination: here });
      steps.push({ kind: 'sail', track: reverseTrack(out), speedKn: speed * random.range(0.7, 1), navStatus: status, destination: here });
    }
    steps.push({ kind: 'moor', port: here, hours: this.#dwellHours() });
    this.#announce(here, start, steps, false);
    return steps;
  }

  #pickDestination(world: World, here: SimPort): SimPort | undefined {
    const random = this.#random;
    const identity = this.identity;
    if (identity.pattern === 'ferry') {
      // Shuttle: home to the nearest neighbour and back.
      return here === identity.homePort ? world.neighbours(here)[0] : identity.homePort;
    }
    const others = world.ports.filter((port) => port !== here);
    const regionalOnly = identity.pattern === 'short_sea' || random.chance(0.4);
    const reach = identity.pattern === 'short_sea' ? 1500 : 3000;
    const regional = regionalOnly ? others.filter((port) => distanceNm([here.lon, here.lat], [port.lon, port.lat]) <= reach) : others;
    const candidates = regional.length > 0 ? regional : others;
    return candidates.length > 0 ? random.weighted(candidates, (port) => port.weight) : undefined;
  }

  /** Sets the AIS voyage data: destination, ETA from the sailing time and any wait at anchor, draught laden or in ballast. */
  #announce(destination: SimPort, start: number, steps: readonly PlanStep[], bulk: boolean): void {
    let sailingMs = 0;
    for (const step of steps) {
      if (step.kind === 'sail') sailingMs += (step.track.length / step.speedKn) * HOUR_MS;
      else if (step.kind === 'anchor') sailingMs += step.hours * HOUR_MS;
    }
    this.destination = destination;
    this.eta = start + sailingMs;
    const design = this.identity.designDraught;
    const loadFactor = bulk && this.#random.chance(0.4) ? this.#random.range(0.55, 0.7) : this.#random.range(0.85, 1);
    this.draught = Math.round(design * loadFactor * 10) / 10;
  }
}
