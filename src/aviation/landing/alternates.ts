// Alternate aerodromes for a landing, by the rules in RULES.md ("Alternates"):
//
// 1. Candidates: airports within 150 nm of the destination, nearest first; when fewer than three
//    usable ones are found the search widens to 250, then 400 nm (the most).
// 2. They must fit the aircraft, from the reference data: not the destination, not closed, not a
//    military field; airliners (approach category C-E) at large or medium airports; helicopters at
//    any airport or heliport; other aircraft at any airport but a heliport; an open runway at least
//    the aircraft's minimum runway length (landing distance ÷ 0.6), paved for jets and airliners
//    (an unknown surface counts as paved at a large or medium airport only).
// 3. Those that fit are read (METAR, NOTAMs) nearest first, three at a time, until three are
//    suitable or six are read, and assessed at the ETA + 30 min by the same rules as the
//    destination (runway choice, approach, status); those closed then are out.
// 4. Ordered by suitability, then the number of limits, then distance; the first three are kept. Suitable: a runway long
//    enough, weather known, approach not below minima, status OPERATIONAL. Limited: usable, with
//    something unknown or LIMITED, or an airliner at a medium airport (fire cover and handling not
//    in the data). Marginal: no runway within the wind limits, the wind-chosen runway too short,
//    or below minima.
import type { AircraftType, LandingProfile } from '../reference/aircraft-types.ts';
import { MAX_SEARCH_LIMIT } from '../reference/airports.ts';
import type { Airport, AirportIndex } from '../reference/airports.ts';
import { distanceNm, initialBearingDeg } from '../reference/geo.ts';
import { weatherAtEta } from '../weather/index.ts';
import type { FlightCategory, Metar, Taf } from '../weather/index.ts';
import { daylight } from './daylight.ts';
import { approachMinimaMet, recommendApproach } from './approach.ts';
import { METRES_PER_FOOT } from './conditions.ts';
import { chooseRunway } from './runway.ts';
import { airportStatus, type AirportStatus } from './status.ts';
import type { ActiveNotam, ProfileSource } from './types.ts';

/** Radii searched in turn until three usable alternates are found. */
export const ALTERNATE_RADII_NM: readonly number[] = [150, 250, 400];
export const MAX_ALTERNATES = 3;
/** Alternates are assessed this long after the ETA: the time a diversion would take to reach one. */
export const ALTERNATE_DELAY_MS = 30 * 60_000;
/** The most of the nearest fitting airports read and assessed per radius. */
export const ALTERNATES_ASSESSED = 6;

const AIRLINER_CATEGORIES = new Set(['C', 'D', 'E']);
const MILITARY = /\b(RAF|RAAF|RCAF|MOD|NAS|NAF|MCAS|AAF|AFB|ANGB|JOINT BASE|AIR BASE|AIRBASE|AIR FORCE|NAVAL|ARMY|MARINE CORPS|MILITARY)\b/i;

export type Suitability = 'suitable' | 'limited' | 'marginal';
const SUITABILITY_ORDER: readonly Suitability[] = ['suitable', 'limited', 'marginal'];

export interface Alternate {
  icao: string;
  name: string;
  type: string;
  distance_nm: number;
  /** Initial great-circle bearing from the destination, degrees true. */
  bearing_deg: number;
  suitability: Suitability;
  status: AirportStatus;
  flight_category: FlightCategory | null;
  runway: string | null;
  recommended_approach: string | null;
  /** Why it was chosen, and what limits it. */
  reasons: string[];
}

export interface Alternates {
  /** The radius the alternates were found within. */
  radius_nm: number;
  /** The time they are assessed for: the ETA + 30 min. */
  assessed_for: string;
  airports: Alternate[];
  reasoning: string[];
}

type Profile = (LandingProfile & { designator?: string }) | AircraftType;

/** What the search needs of the landing: the destination, the ETA and the aircraft. */
export interface AlternatesRequest {
  airport: Airport;
  etaMs: number;
  vehicleType: 'aircraft' | 'helicopter';
  profile: Profile;
  /** `default`: no type known, so instrument approaches are held to CAT I. */
  profileSource: ProfileSource;
}

/**
 * How an alternate's inputs are read: through the same services as the destination's (the bundle
 * and the watcher pass their own, the watcher sharing reads between landings).
 */
export interface AlternateReads {
  /** The airport's weather: the METAR and TAF held. */
  weather(icao: string): Promise<{ metar: Metar | null; taf?: Taf | undefined }>;
  /** The NOTAMs in force at the time. */
  notams(icao: string, atMs: number): Promise<readonly ActiveNotam[]>;
}

/** Whether the airport fits the aircraft by the reference data alone; the reason either way. */
export function fitsAircraft(airport: Airport, request: Pick<AlternatesRequest, 'airport' | 'vehicleType' | 'profile'>): { fits: boolean; reason: string } {
  const { profile } = request;
  const helicopter = request.vehicleType === 'helicopter' || profile.approach_category === 'H';
  const forAirliner = !helicopter && airliner(profile);
  const no = (reason: string) => ({ fits: false, reason });
  if (airport.icao === request.airport.icao) return no('the destination');
  if (airport.type === 'closed' || airport.status === 'closed') return no('closed in the reference data');
  if (MILITARY.test(airport.name)) return no('a military field');
  if (forAirliner && airport.type !== 'large_airport' && airport.type !== 'medium_airport') return no('airliners need a large or medium airport');
  if (!helicopter && !['large_airport', 'medium_airport', 'small_airport'].includes(airport.type)) return no(`an aeroplane does not land at a ${airport.type.replace('_', ' ')}`);
  if (helicopter && !['large_airport', 'medium_airport', 'small_airport', 'heliport'].includes(airport.type)) return no(`not an airport or heliport`);
  const open = airport.runways.filter((runway) => !runway.closed);
  if (open.length === 0) return no('no open runway in the reference data');
  if (helicopter) return { fits: true, reason: `${airport.type.replace('_', ' ')} with ${open.length} open runway${open.length === 1 ? '' : 's'} or pad${open.length === 1 ? '' : 's'}` };

  const needsPaving = forAirliner || jet(profile);
  const largeOrMedium = airport.type === 'large_airport' || airport.type === 'medium_airport';
  const fitting = open
    .filter((runway) => runway.paved === true || (runway.paved === null && (!needsPaving || largeOrMedium)) || (runway.paved === false && !needsPaving && runway.surface !== 'WATER'))
    .map((runway) => ({ runway, length_m: longestLandingM(runway) }))
    .filter((item): item is { runway: Airport['runways'][number]; length_m: number } => item.length_m !== null && item.length_m >= profile.min_runway_m)
    .sort((a, b) => b.length_m - a.length_m);
  const best = fitting[0];
  if (best === undefined) return no(`no open${needsPaving ? ' paved' : ''} runway of ${profile.min_runway_m} m or more`);
  const surface = best.runway.paved === true ? 'paved' : best.runway.paved === false ? 'unpaved' : 'surface unknown';
  return {
    fits: true,
    reason: `${best.runway.designator ?? 'runway'} ${best.length_m} m (${surface}) ≥ the ${profile.min_runway_m} m needed (landing distance ${profile.landing_distance_m} m ÷ 0.6)`,
  };
}

/** Transport aeroplanes: approach category C, D or E. */
function airliner(profile: Profile): boolean {
  return AIRLINER_CATEGORIES.has(profile.approach_category);
}

/** Jets by their ICAO Doc 8643 description ("L2J"); profiles without one are judged by category alone. */
function jet(profile: Profile): boolean {
  return 'description' in profile && /J$/.test(profile.description);
}

function longestLandingM(runway: Airport['runways'][number]): number | null {
  if (runway.length_ft === null) return null;
  const displaced = runway.ends.length === 0 ? 0 : Math.min(...runway.ends.map((end) => end.displaced_threshold_ft ?? 0));
  return Math.round((runway.length_ft - displaced) * METRES_PER_FOOT);
}

/** What one alternate's assessment reads: its METAR and TAF, and the NOTAMs in force at `atMs` (the ETA + 30 min). */
export interface AlternateInputs {
  weather: { metar: Metar | null; taf?: Taf | undefined };
  notams: readonly ActiveNotam[];
  atMs: number;
}

/** The alternate assessed at the ETA + 30 min by the destination's rules; null when it is closed then. */
export function assessAlternate(
  airport: Airport,
  request: Pick<AlternatesRequest, 'airport' | 'profile' | 'profileSource'>,
  fitReason: string,
  inputs: AlternateInputs,
): Alternate | null {
  const weather = weatherAtEta({ metar: inputs.weather.metar, taf: inputs.weather.taf, etaMs: inputs.atMs });
  const aircraft = { approach_category: request.profile.approach_category, type_known: request.profileSource !== 'default' };
  const choice = chooseRunway({ runways: airport.runways, weather, aircraft: request.profile, notams: inputs.notams, approachMinimaMet: approachMinimaMet(weather, aircraft) });
  const status = airportStatus({ airport, notams: inputs.notams, choice, light: daylight(inputs.atMs, airport).period });
  if (status.status === 'CLOSED') return null;
  const approach = recommendApproach(choice, weather, aircraft);
  const category = weather.flight_category;
  const runway = choice.runway;

  const limits: string[] = [];
  if (runway === null) limits.push(choice.reason);
  else if (runway.long_enough === false) limits.push(`runway ${runway.designator}, chosen for the wind, is shorter than the ${request.profile.min_runway_m} m needed`);
  if (approach.below_minima) limits.push(`${approach.approach}: below the typical minima`);
  const marginal = limits.length > 0;
  const unknowns: string[] = [];
  if (weather.basis === 'none') unknowns.push(`weather at the ETA + 30 min unknown (${weather.summary.toLowerCase()})`);
  if (runway?.long_enough === null) unknowns.push(`length of ${runway.designator} unknown`);
  if (status.status !== 'OPERATIONAL') unknowns.push(`status ${status.status}: ${status.reasons.map((reason) => reason.replace(/\.$/, '')).join('; ')}`);
  if (airliner(request.profile) && airport.type === 'medium_airport') unknowns.push('a medium airport: its fire cover (RFFS category) and handling for an airliner are not in the data');
  const suitability: Suitability = marginal ? 'marginal' : unknowns.length > 0 ? 'limited' : 'suitable';

  const from = request.airport;
  const reasons = [
    `Fits the aircraft: ${fitReason}.`,
    runway === null ? 'No runway within limits.' : `Runway ${runway.designator}, ${approach.approach ?? 'no approach'}${category === null ? '' : `, ${category}`}.`,
    ...limits.map((limit) => `Marginal: ${limit}.`),
    ...unknowns.map((item) => `Limited: ${item}.`),
  ];
  return {
    icao: airport.icao,
    name: airport.name,
    type: airport.type,
    distance_nm: Math.round(distanceNm(from, airport) * 10) / 10,
    bearing_deg: Math.round(initialBearingDeg(from, airport)),
    suitability,
    status: status.status,
    flight_category: category,
    runway: runway?.designator ?? null,
    recommended_approach: approach.approach,
    reasons,
  };
}

/** By code: the index decodes an airport when asked (airports-index.ts), and the cache keeps only what it needs to ask again. */
type Fitting = ReadonlyArray<{ icao: string; reason: string }>;

/** Fitting airports by destination, radius and aircraft, per airport index: the reference data does not change under it. */
const fittingCache = new WeakMap<AirportIndex, Map<string, Fitting>>();
const FITTING_CACHE_ENTRIES = 2000;

/** Airports within the radius that fit the aircraft, nearest first. */
function fittingWithin(airports: AirportIndex, request: AlternatesRequest, radiusNm: number): Fitting {
  const { profile } = request;
  const key = [request.airport.icao, radiusNm, request.vehicleType, profile.approach_category, profile.min_runway_m, profile.landing_distance_m, jet(profile)].join('|');
  let cache = fittingCache.get(airports);
  if (cache === undefined) fittingCache.set(airports, (cache = new Map()));
  const cached = cache.get(key);
  if (cached !== undefined) return cached;

  const { lat, lon } = request.airport;
  const found: Array<{ icao: string; reason: string }> = [];
  let after: string | undefined;
  do {
    const page = airports.search({ near: { lat, lon, radius_nm: radiusNm }, limit: MAX_SEARCH_LIMIT, after });
    for (const hit of page.items) {
      const fit = fitsAircraft(hit.airport, request);
      if (fit.fits) found.push({ icao: hit.airport.icao, reason: fit.reason });
    }
    after = page.next_after ?? undefined;
  } while (after !== undefined);
  // The oldest entry goes first when full (a Map keeps insertion order).
  if (cache.size >= FITTING_CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(key, found);
  return found;
}

/** How many things limit an alternate: its "Marginal:" and "Limited:" reasons. */
const limitsOf = (alternate: Alternate): number => alternate.reasons.filter((reason) => /^(Marginal|Limited):/.test(reason)).length;

const bySuitabilityThenDistance = (a: Alternate, b: Alternate): number =>
  SUITABILITY_ORDER.indexOf(a.suitability) - SUITABILITY_ORDER.indexOf(b.suitability) ||
  limitsOf(a) - limitsOf(b) || a.distance_nm - b.distance_nm || a.icao.localeCompare(b.icao);

/**
 * Up to three alternates for the landing. The candidates are read nearest first, a few at a time,
 * until three are suitable (no farther airport can rank above them) or the radius's share is read.
 */
export async function findAlternates(airports: AirportIndex, request: AlternatesRequest, reads: AlternateReads): Promise<Alternates> {
  const atMs = request.etaMs + ALTERNATE_DELAY_MS;
  const assessed = new Map<string, Alternate | null>();
  const reasoning: string[] = [];
  const found = () => [...assessed.values()].filter((alternate): alternate is Alternate => alternate !== null);
  const count = (...levels: Suitability[]) => found().filter((alternate) => levels.includes(alternate.suitability)).length;
  let radius = ALTERNATE_RADII_NM[0]!;
  for (radius of ALTERNATE_RADII_NM) {
    const fitting = fittingWithin(airports, request, radius);
    const unread = fitting.filter(({ icao }) => !assessed.has(icao)).slice(0, ALTERNATES_ASSESSED);
    const closed: string[] = [];
    for (let start = 0; start < unread.length && count('suitable') < MAX_ALTERNATES; start += MAX_ALTERNATES) {
      const batch = unread.slice(start, start + MAX_ALTERNATES);
      const results = await Promise.all(batch.map(async ({ icao, reason }) => {
        const [weather, notams] = await Promise.all([reads.weather(icao), reads.notams(icao, atMs)]);
        return [icao, assessAlternate(airports.byIcao(icao)!, request, reason, { weather, notams, atMs })] as const;
      }));
      for (const [icao, alternate] of results) {
        assessed.set(icao, alternate);
        if (alternate === null) closed.push(icao);
      }
    }
    const usable = count('suitable', 'limited');
    reasoning.push(
      `Within ${radius} nm: ${fitting.length} airport${fitting.length === 1 ? ' fits' : 's fit'} the aircraft; ${assessed.size} assessed, nearest first` +
        `${closed.length > 0 ? ` (${closed.join(', ')} closed at the ETA + 30 min)` : ''}; ${usable} usable.`,
    );
    if (usable >= MAX_ALTERNATES) break;
    if (radius !== ALTERNATE_RADII_NM.at(-1)) reasoning.push(`Fewer than ${MAX_ALTERNATES} usable: the search widens.`);
  }
  const chosen = found().sort(bySuitabilityThenDistance).slice(0, MAX_ALTERNATES);
  if (chosen.length === 0) reasoning.push(`No alternate within ${radius} nm fits the aircraft and is open at the ETA + 30 min.`);
  return { radius_nm: radius, assessed_for: new Date(atMs).toISOString(), airports: chosen, reasoning };
}
