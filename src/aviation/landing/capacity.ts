// Hourly arrival capacity from the runway layout, the wind and the flight category at the ETA, by
// the rules in RULES.md ("Arrival capacity", with the sources of every figure). An admin override
// (SlotBook.setCapacity) replaces it. Pure: the weather comes in as a parameter.
//
// 1. Usable runways: open (data and NOTAMs), and with a steady wind at least one end within the
//    limits: tailwind at most 5 kt, crosswind within ICAO Annex 14's figure for the runway's length
//    (20 kt from 1,500 m, 13 kt from 1,200 m, 10 kt below). Aircraft land on that end. Those
//    figures are a planning guide, not an operating limit: when the wind rules out every open
//    runway by them but one runway's crosswind is within OPERATING_CROSSWIND_KT, aircraft whose
//    own limits allow it still land (the landing answer checks each aircraft's), so every open
//    runway counts at STRONG_CROSSWIND_FACTOR of its rate (LAMIS's choice: longer spacing,
//    go-arounds and the types that divert). Beyond it, no arrivals.
// 2. Each runway's rate, arrivals only in visual conditions: 42/h for a 6,000 ft+ runway at a large
//    airport (about 3 nm between arrivals at 130 kt), less for medium and small fields and shorter or
//    unpaved runways, 10/h a helipad.
// 3. Runways that depend on each other form one system: parallels under 1,310 m (4,300 ft) apart
//    (ICAO Doc 9643: closer ones cannot take independent approaches), runways that cross, and
//    runways of different headings that come within 1,310 m of each other. Parallels under 210 m
//    apart are not used at the same time; between 915 and 1,310 m both can land with dependent
//    (staggered) approaches, 75 % each; a departure runway (rated at least half the landing one)
//    under 760 m from the landing one, or crossing it, costs the arrivals 15 %; a lone runway in
//    mixed mode lands 65 % of its rate.
// 4. One system lands and departs its own traffic; with several, systems that have a runway to
//    depart from do so and lone runways land only, but at most half the runways (rounded up) land:
//    the weakest lone runways beyond that take departures (segregated mode).
// 5. Flight category: VFR 100 %, MVFR 95 %, IFR 85 %, LIFR 70 %; unknown: the visual rate.

import type { FlightCategory, WeatherAtEta, WeatherBasis, Wind } from '../weather/index.ts';
import { airportConditions, isClosed, METRES_PER_FOOT } from './conditions.ts';
import { chooseRunway, windRegime } from './runway.ts';
import type { RunwayEndAssessment } from './runway.ts';
import type { ActiveNotam, LandingAirport, Runway } from './types.ts';

/** The weather the capacity is derived for: the flight category and wind expected at the ETA. */
export interface CapacityWeather {
  flightCategory?: FlightCategory | null;
  wind?: Wind | null;
  /** What the wind and category are based on (observation or forecast at the ETA). */
  basis?: WeatherBasis;
}

/** What the weather at the ETA gives the capacity: its flight category and wind; nothing when none is known. */
export function capacityWeather(weather: WeatherAtEta): CapacityWeather {
  return weather.basis === 'none' ? {} : { flightCategory: weather.flight_category, wind: weather.wind, basis: weather.basis };
}

export interface RunwayRate {
  runway_id: string;
  designators: string[];
  /** The ends aircraft land on in this configuration; empty when the runway is not counted. */
  landing_ends: string[];
  /** Arrivals an hour on this runway alone, arrivals only, visual conditions; 0 when not counted. */
  arrivals_per_hour: number;
  /** Which class the runway fell in, or why it was not counted. */
  basis: string;
  /** Index into `systems`; null when the runway is not counted. */
  system: number | null;
}

export interface RunwaySystem {
  /** The runways of the system, as "09L/27R". */
  runways: string[];
  role: 'arrivals' | 'arrivals_and_departures' | 'departures';
  arrivals_per_hour: number;
  /** How the system is used and what that gives. */
  layout: string;
}

export interface DerivedCapacity {
  arrivals_per_hour: number;
  runways: RunwayRate[];
  systems: RunwaySystem[];
  /** The flight category's factor; 1 when unknown or VFR. */
  weather_factor: number;
  reasoning: string[];
}

/** Arrivals-only rate of one hub runway in visual conditions: ~3 nm mean spacing at ~130 kt ground speed. */
const HUB_RUNWAY_ARRIVALS = 42;
const INDEPENDENT_APPROACHES_M = 1310;
const DEPENDENT_APPROACHES_M = 915;
const SEGREGATED_PARALLELS_M = 760;
const SIMULTANEOUS_USE_M = 210;
/** Runways within this angle count as parallel (ICAO's near-parallel runways: 15° or less). */
const PARALLEL_DEG = 15;
const MIXED_MODE_FACTOR = 0.65;
const DEPENDENT_DEPARTURES_FACTOR = 0.85;
const DEPENDENT_APPROACH_FACTOR = 0.75;
/** A departure runway's own rate must be at least this share of the landing runway's. */
const DEPARTURE_RUNWAY_SHARE = 0.5;
/** The share of the calm-wind rate left when the wind is beyond every runway's crosswind guide. */
const STRONG_CROSSWIND_FACTOR = 0.5;
/**
 * The crosswind up to which the common airliners still land: the Boeing 737's demonstrated 33 kt,
 * gusts included (Boeing 737 Flight Crew Training Manual; the A320 family's is 38 kt).
 */
const OPERATING_CROSSWIND_KT = 33;

export const FLIGHT_CATEGORY_FACTORS: Readonly<Record<FlightCategory, number>> = { VFR: 1, MVFR: 0.95, IFR: 0.85, LIFR: 0.7 };
const FLIGHT_CATEGORY_REASONS: Readonly<Record<FlightCategory, string>> = {
  VFR: 'visual conditions: the full rate',
  MVFR: 'marginal visual conditions: visual approaches less often possible',
  IFR: 'instrument conditions: radar spacing on instrument approaches, no visual separation',
  LIFR: 'low instrument conditions: low-visibility spacing of 4-5 nm keeps the ILS critical areas clear',
};

/** Long-runway rate by airport type: hubs have rapid exits and approach radar; regional fields fewer. */
const LONG_RUNWAY_RATE: Readonly<Record<string, number>> = { large_airport: HUB_RUNWAY_ARRIVALS, medium_airport: 34 };
const SMALL_FIELD_LONG_RUNWAY_RATE = 25;
const HELIPAD_RATE = 10;

/** Annex 14 3.1.3: crosswind a runway is planned for, by the length of the aeroplanes it serves. */
function crosswindLimitKt(lengthM: number | null): number {
  if (lengthM === null || lengthM >= 1500) return 20;
  return lengthM >= 1200 ? 13 : 10;
}

export function deriveCapacity(
  airport: Pick<LandingAirport, 'type' | 'runways'>,
  notams: readonly ActiveNotam[] = [],
  weather: CapacityWeather = {},
): DerivedCapacity {
  const conditions = airportConditions(airport.runways, notams);
  const steadyWind = weather.wind != null && windRegime(weather.wind) === 'steady' ? weather.wind : null;
  const choice = chooseRunway({
    runways: airport.runways,
    weather: { basis: steadyWind === null ? 'none' : weather.basis ?? 'observation', wind: steadyWind, summary: 'the wind the runways land into' },
    // Helicopters at a heliport, aeroplanes elsewhere: a helipad is no runway for an aeroplane.
    aircraft: { approach_category: airport.type === 'heliport' ? 'H' : 'C', crosswind_limit_kt: 20, min_runway_m: 0 },
    notams,
  });
  const reasoning: string[] = [];
  if (weather.wind != null && steadyWind === null) reasoning.push('Wind light, calm or variable: it does not choose the runways; every open runway counts.');
  else if (steadyWind !== null) reasoning.push(`Wind ${steadyWind.direction_deg}° true ${steadyWind.speed_kt} kt${steadyWind.gust_kt === null ? '' : ` gusting ${steadyWind.gust_kt} kt`}: runways land into it; an end over 5 kt tailwind or its runway's crosswind limit is out.`);

  const heliport = airport.type === 'heliport';
  const usable: UsableRunway[] = [];
  const runways: RunwayRate[] = airport.runways.map((runway, index) => {
    const ends = conditions.ends.filter((item) => item.runway === runway);
    const base = { runway_id: String(runway.id), designators: ends.map((item) => item.designator), landing_ends: [] as string[], system: null };
    const label = base.designators.join('/') || base.runway_id;
    if (conditions.aerodrome_closed_by.length > 0) return { ...base, arrivals_per_hour: 0, basis: `aerodrome closed by NOTAM ${conditions.aerodrome_closed_by.join(', ')}` };
    if (ends.some(isClosed) || (ends.length === 0 && runway.closed)) return { ...base, arrivals_per_hour: 0, basis: 'closed' };
    // chooseRunway assesses the same ends in the same order.
    const candidates = ends.map((item) => choice.candidates[conditions.ends.indexOf(item)]!);
    const landing = candidates.filter((candidate) => withinLimits(candidate, runway));
    if (candidates.length > 0 && landing.length === 0) {
      return { ...base, arrivals_per_hour: 0, basis: `no end within the wind limits (${candidates.map((c) => `${c.designator}: ${c.excluded ?? `crosswind ${c.max_crosswind_kt} kt over ${crosswindLimitKt(c.landing_length_m)} kt`}`).join('; ')})` };
    }
    const rate = runwayRate(runway, airport.type, heliport);
    const landingEnds = steadyWind === null ? base.designators : bestEnds(landing);
    usable.push({ index, runway, label, rate: rate.arrivals_per_hour, geometry: geometryOf(runway), heading: headingOf(runway) });
    return { ...base, landing_ends: landingEnds, ...rate };
  });

  const systems = layout(usable);
  for (const [index, system] of systems.entries()) {
    for (const member of system.members) runways[member.index]!.system = index;
  }
  const leastCrosswind = Math.min(...choice.candidates.filter((_, index) => !isClosed(conditions.ends[index]!)).map((candidate) => candidate.max_crosswind_kt ?? Infinity));
  if (steadyWind !== null && usable.length === 0 && leastCrosswind <= OPERATING_CROSSWIND_KT && runways.some((runway) => runway.basis.startsWith('no end within the wind limits'))) {
    const calm = deriveCapacity(airport, notams, { ...weather, wind: null });
    const total = Math.floor(calm.arrivals_per_hour * STRONG_CROSSWIND_FACTOR + 1e-9);
    return {
      ...calm,
      arrivals_per_hour: total,
      weather_factor: calm.weather_factor * STRONG_CROSSWIND_FACTOR,
      reasoning: [
        ...reasoning,
        ...runways.map((runway) => `${runway.designators.join('/') || runway.runway_id}: ${runway.basis}.`),
        `The wind is beyond every open runway's crosswind guide, the least crosswind ${round(leastCrosswind)} kt within the ${OPERATING_CROSSWIND_KT} kt the common airliners land in: aircraft whose limits allow it still land, every open runway counted at ${STRONG_CROSSWIND_FACTOR * 100} % of its rate.`,
        ...calm.reasoning.slice(0, -1),
        `${total} arrivals/h.`,
      ],
    };
  }
  const category = weather.flightCategory ?? null;
  const factor = category === null ? 1 : FLIGHT_CATEGORY_FACTORS[category];
  const visual = systems.reduce((sum, system) => sum + system.rate, 0);
  const total = Math.floor(visual * factor + 1e-9);

  for (const runway of runways) {
    const label = runway.designators.join('/') || runway.runway_id;
    reasoning.push(`${label}: ${runway.basis}${runway.arrivals_per_hour > 0 ? `, ${round(runway.arrivals_per_hour)}/h arrivals only` : ''}${runway.landing_ends.length > 0 && steadyWind !== null ? `, landing ${runway.landing_ends.join(', ')}` : ''}.`);
  }
  for (const system of systems) reasoning.push(system.summary.layout);
  reasoning.push(category === null
    ? 'Flight category unknown: the visual-conditions rate.'
    : `${category}: ${FLIGHT_CATEGORY_REASONS[category]} (× ${factor}).`);
  reasoning.push(usable.length === 0
    ? (conditions.aerodrome_closed_by.length > 0 ? 'Aerodrome closed: no arrival capacity.' : 'No usable runway: no arrival capacity.')
    : `${total} arrivals/h from ${systems.length === 1 ? 'one runway system' : `${systems.length} independent runway systems`}.`);
  return { arrivals_per_hour: total, runways, systems: systems.map((system) => system.summary), weather_factor: factor, reasoning };
}

interface UsableRunway {
  /** Position in the airport's runways. */
  index: number;
  runway: Runway;
  label: string;
  rate: number;
  /** Threshold positions in metres east/north of the first threshold seen; null without both ends' positions. */
  geometry: Segment | null;
  /** Degrees true of the low end, or null. */
  heading: number | null;
}

interface Segment {
  a: Point;
  b: Point;
}

interface Point {
  x: number;
  y: number;
}

function withinLimits(candidate: RunwayEndAssessment, runway: Runway): boolean {
  if (candidate.excluded !== null) return false;
  const lengthM = candidate.landing_length_m ?? (runway.length_ft === null ? null : runway.length_ft * METRES_PER_FOOT);
  return candidate.max_crosswind_kt === null || candidate.max_crosswind_kt <= crosswindLimitKt(lengthM);
}

/** The end (or ends, when equal) with the most headwind. */
function bestEnds(landing: RunwayEndAssessment[]): string[] {
  const best = Math.max(...landing.map((end) => end.headwind_kt ?? -Infinity));
  return landing.filter((end) => (end.headwind_kt ?? -Infinity) === best).map((end) => end.designator);
}

function runwayRate(runway: Runway, airportType: string | null, heliport: boolean): { arrivals_per_hour: number; basis: string } {
  if (heliport || runway.ends.some((end) => /^H/i.test(end.ident.trim()))) return { arrivals_per_hour: HELIPAD_RATE, basis: 'helipad' };
  const largeOrMedium = airportType === 'large_airport' || airportType === 'medium_airport';
  const surface = runway.paved === true ? 'paved' : runway.paved === false ? 'unpaved' : largeOrMedium ? 'surface unknown, rated as paved at a large or medium airport' : 'surface unknown, rated as unpaved at a small field';
  const length = runway.length_ft;
  if (runway.paved === true || (runway.paved === null && largeOrMedium)) {
    if (length === null) return { arrivals_per_hour: 12, basis: `${surface}, length unknown` };
    if (length >= 6000) return { arrivals_per_hour: LONG_RUNWAY_RATE[airportType ?? ''] ?? SMALL_FIELD_LONG_RUNWAY_RATE, basis: `${surface}, 6,000 ft or more at a ${(airportType ?? 'unknown type').replace('_', ' ')}` };
    if (length >= 4000) return { arrivals_per_hour: 30, basis: `${surface}, 4,000-5,999 ft` };
    if (length >= 3000) return { arrivals_per_hour: 20, basis: `${surface}, 3,000-3,999 ft` };
    return { arrivals_per_hour: 12, basis: `${surface}, under 3,000 ft` };
  }
  if (length !== null && length >= 3000) return { arrivals_per_hour: 12, basis: `${surface}, 3,000 ft or more` };
  return { arrivals_per_hour: 10, basis: `${surface}, under 3,000 ft or length unknown` };
}

const EARTH_RADIUS_M = 6_371_000;
const RAD = Math.PI / 180;

function geometryOf(runway: Runway): Segment | null {
  const [low, high] = runway.ends;
  if (low?.lat == null || low.lon == null || high?.lat == null || high.lon == null) return null;
  // Local east/north metres around the low end: runways are a few km long, so flat is exact enough.
  const origin = { lat: low.lat, lon: low.lon };
  return { a: toPoint(origin, low.lat, low.lon), b: toPoint(origin, high.lat, high.lon) };
}

function toPoint(origin: { lat: number; lon: number }, lat: number, lon: number): Point {
  return { x: (lon - origin.lon) * RAD * EARTH_RADIUS_M * Math.cos(origin.lat * RAD), y: (lat - origin.lat) * RAD * EARTH_RADIUS_M };
}

function headingOf(runway: Runway): number | null {
  const end = runway.ends.find((item) => item.true_heading_deg !== null);
  if (end?.true_heading_deg != null) return end.true_heading_deg;
  // "09/27" without ends' headings: the designator's magnetic figure is close enough to tell parallels apart.
  const number = /^(\d{1,2})/.exec(runway.ends[0]?.ident ?? '')?.[1];
  return number === undefined ? null : Number(number) * 10;
}

/**
 * How two runways relate. `apart_m` is the centreline separation for parallels, the nearest
 * distance otherwise, null when a runway has no threshold positions.
 */
interface Relation {
  parallel: boolean;
  crossing: boolean;
  apart_m: number | null;
}

function relate(one: UsableRunway, other: UsableRunway): Relation {
  const angle = one.heading === null || other.heading === null ? null : axisAngle(one.heading, other.heading);
  const parallel = angle !== null && angle <= PARALLEL_DEG;
  if (one.geometry === null || other.geometry === null) return { parallel, crossing: !parallel, apart_m: null };
  // Same projection for both: the other runway's points relative to this one's origin.
  const shift = offset(one.runway, other.runway);
  const theirs = { a: add(other.geometry.a, shift), b: add(other.geometry.b, shift) };
  if (parallel) {
    const apart = (lineDistance(one.geometry, midpoint(theirs)) + lineDistance(theirs, midpoint(one.geometry))) / 2;
    return { parallel, crossing: false, apart_m: apart };
  }
  if (intersects(one.geometry, theirs)) return { parallel, crossing: true, apart_m: 0 };
  return { parallel, crossing: false, apart_m: segmentDistance(one.geometry, theirs) };
}

function axisAngle(a: number, b: number): number {
  const difference = Math.abs(((a - b) % 180 + 180) % 180);
  return Math.min(difference, 180 - difference);
}

function offset(one: Runway, other: Runway): Point {
  const origin = { lat: one.ends[0]!.lat!, lon: one.ends[0]!.lon! };
  return toPoint(origin, other.ends[0]!.lat!, other.ends[0]!.lon!);
}

const add = (p: Point, q: Point): Point => ({ x: p.x + q.x, y: p.y + q.y });
const midpoint = (s: Segment): Point => ({ x: (s.a.x + s.b.x) / 2, y: (s.a.y + s.b.y) / 2 });
const cross = (o: Point, p: Point, q: Point): number => (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x);

function lineDistance(s: Segment, p: Point): number {
  return Math.abs(cross(s.a, s.b, p)) / Math.hypot(s.b.x - s.a.x, s.b.y - s.a.y);
}

function intersects(s: Segment, t: Segment): boolean {
  return cross(s.a, s.b, t.a) * cross(s.a, s.b, t.b) <= 0 && cross(t.a, t.b, s.a) * cross(t.a, t.b, s.b) <= 0;
}

function pointSegmentDistance(p: Point, s: Segment): number {
  const dx = s.b.x - s.a.x;
  const dy = s.b.y - s.a.y;
  const t = Math.max(0, Math.min(1, ((p.x - s.a.x) * dx + (p.y - s.a.y) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(p.x - (s.a.x + t * dx), p.y - (s.a.y + t * dy));
}

function segmentDistance(s: Segment, t: Segment): number {
  return Math.min(pointSegmentDistance(s.a, t), pointSegmentDistance(s.b, t), pointSegmentDistance(t.a, s), pointSegmentDistance(t.b, s));
}

/** Dependent: they share approach or departure airspace, so they belong to one system. */
function dependent(relation: Relation): boolean {
  return relation.apart_m === null || relation.crossing || relation.apart_m < INDEPENDENT_APPROACHES_M;
}

/** Can be used at the same time as the other: not parallels under 210 m apart (or of unknown spacing). */
function simultaneous(relation: Relation): boolean {
  return !relation.parallel || (relation.apart_m !== null && relation.apart_m >= SIMULTANEOUS_USE_M);
}

function describe(relation: Relation): string {
  if (relation.parallel) return relation.apart_m === null ? 'parallel, spacing unknown' : `parallel ${Math.round(relation.apart_m)} m apart`;
  if (relation.apart_m === null) return 'different headings, positions unknown: taken as crossing';
  return relation.crossing ? 'crossing' : `converging, ${Math.round(relation.apart_m)} m apart`;
}

interface System {
  members: UsableRunway[];
  /** Arrivals an hour, unrounded. */
  rate: number;
  summary: RunwaySystem;
}

interface Plan {
  rate: number;
  /** How many runways land. */
  landing: number;
  text: string;
}

function layout(usable: UsableRunway[]): System[] {
  const relations = new Map<string, Relation>();
  const relation = (a: UsableRunway, b: UsableRunway): Relation => {
    const key = `${usable.indexOf(a)}|${usable.indexOf(b)}`;
    let found = relations.get(key);
    if (found === undefined) relations.set(key, (found = relate(a, b)));
    return found;
  };
  // Union of runways linked by a dependency.
  const groups: UsableRunway[][] = [];
  for (const runway of usable) {
    const linked = groups.filter((group) => group.some((member) => dependent(relation(member, runway))));
    const merged = [...linked.flat(), runway];
    for (const group of linked) groups.splice(groups.indexOf(group), 1);
    groups.push(merged);
  }
  groups.sort((a, b) => usable.indexOf(a[0]!) - usable.indexOf(b[0]!));

  const plans = groups.map((members) => ({ members, alone: landingOnly(members, relation), own: selfContained(members, relation) }));
  // Departures need runways too: at most half the runways (rounded up) land. Lone runways beyond
  // that, the weakest (then shortest) first, take departures (segregated mode); with no system able to depart its
  // own traffic this leaves at least one departing.
  const landingRunways = (plan: (typeof plans)[number]): number => (plan.own ?? plan.alone).landing;
  const departures = new Set<(typeof plans)[number]>();
  const maxLanding = Math.ceil(usable.length / 2);
  const lone = plans.filter((plan) => plan.own === null).sort((a, b) => a.alone.rate - b.alone.rate || longest(a.members) - longest(b.members));
  const landing = () => plans.filter((plan) => !departures.has(plan)).reduce((sum, plan) => sum + landingRunways(plan), 0);
  while (plans.length > 1 && lone.length > departures.size && landing() > maxLanding) departures.add(lone[departures.size]!);
  return plans.map((plan) => {
    const runways = plan.members.map((member) => member.label);
    if (departures.has(plan)) {
      return { members: plan.members, rate: 0, summary: { runways, role: 'departures', arrivals_per_hour: 0, layout: `${runways.join(' + ')}: departures, so the other runways land only (segregated mode).` } };
    }
    if (plans.length === 1) {
      const chosen = plan.own ?? mixed(plan.members);
      return { members: plan.members, rate: chosen.rate, summary: { runways, role: 'arrivals_and_departures', arrivals_per_hour: round(chosen.rate), layout: chosen.text } };
    }
    const chosen = plan.own ?? plan.alone;
    const role = plan.own === null ? 'arrivals' : 'arrivals_and_departures';
    const suffix = plan.own === null ? ' Departures use another system.' : '';
    return { members: plan.members, rate: chosen.rate, summary: { runways, role, arrivals_per_hour: round(chosen.rate), layout: `${chosen.text}${suffix}` } };
  });
}

type Relate = (a: UsableRunway, b: UsableRunway) => Relation;

/** The landing choices of a system: one runway, or two parallels 915-1,310 m apart with dependent approaches. */
function landingSets(members: UsableRunway[], relation: Relate): Array<{ runways: UsableRunway[]; rate: number; text: string }> {
  const sets = members.map((runway) => ({ runways: [runway], rate: runway.rate, text: `lands on ${runway.label} (${round(runway.rate)}/h)` }));
  for (const [i, a] of members.entries()) {
    for (const b of members.slice(i + 1)) {
      const between = relation(a, b);
      if (between.parallel && between.apart_m !== null && between.apart_m >= DEPENDENT_APPROACHES_M && between.apart_m < INDEPENDENT_APPROACHES_M) {
        const rate = DEPENDENT_APPROACH_FACTOR * (a.rate + b.rate);
        sets.push({ runways: [a, b], rate, text: `lands on ${a.label} and ${b.label} with dependent approaches (${describe(between)}; ${DEPENDENT_APPROACH_FACTOR * 100} % each: ${round(rate)}/h)` });
      }
    }
  }
  return sets.sort((x, y) => y.rate - x.rate);
}

function landingOnly(members: UsableRunway[], relation: Relate): Plan {
  const best = landingSets(members, relation)[0]!;
  return { rate: best.rate, landing: best.runways.length, text: `${members.map((m) => m.label).join(' + ')}: ${best.text}, arrivals only.` };
}

/** Landing and departing within the system: another runway usable at the same time takes the departures. */
function selfContained(members: UsableRunway[], relation: Relate): Plan | null {
  let best: Plan | null = null;
  for (const set of landingSets(members, relation)) {
    // A departure runway must take the landing runways' traffic: a grass strip beside airliner runways does not.
    const strongest = Math.max(...set.runways.map((runway) => runway.rate));
    for (const departure of members.filter((member) => !set.runways.includes(member) && member.rate >= DEPARTURE_RUNWAY_SHARE * strongest)) {
      const relations = set.runways.map((landing) => relation(landing, departure));
      if (!relations.every(simultaneous)) continue;
      const independent = relations.every((item) => item.parallel && item.apart_m !== null && item.apart_m >= SEGREGATED_PARALLELS_M);
      const rate = set.rate * (independent ? 1 : DEPENDENT_DEPARTURES_FACTOR);
      if (best !== null && rate <= best.rate) continue;
      const how = independent
        ? `departures on ${departure.label} (${relations.map(describe).join(', ')}: independent of the arrivals)`
        : `departures on ${departure.label} (${relations.map(describe).join(', ')}: released between arrivals, × ${DEPENDENT_DEPARTURES_FACTOR})`;
      best = { rate, landing: set.runways.length, text: `${members.map((m) => m.label).join(' + ')}: ${set.text}, ${how}: ${round(rate)}/h.` };
    }
  }
  return best;
}

function mixed(members: UsableRunway[]): Plan {
  const best = [...members].sort((a, b) => b.rate - a.rate)[0]!;
  const rate = best.rate * MIXED_MODE_FACTOR;
  const others = members.length > 1 ? ' (the other runways cannot be used at the same time)' : '';
  return { rate, landing: 1, text: `${members.map((m) => m.label).join(' + ')}: ${best.label} lands and departs in mixed mode${others}, ${MIXED_MODE_FACTOR * 100} % of ${round(best.rate)}: ${round(rate)}/h.` };
}

function longest(members: UsableRunway[]): number {
  return Math.max(...members.map((member) => member.runway.length_ft ?? 0));
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}
