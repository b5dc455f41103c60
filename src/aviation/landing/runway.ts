// Runway choice, by the rules in RULES.md:
//
// 1. Ends of runways closed in the data or by NOTAM are out; an aerodrome closed by NOTAM has no
//    runway.
// 2. Wind components against each end's true heading (the wind at the ETA, observed or forecast,
//    is true), checked at the gust speed over every direction the wind may take (windComponents'
//    worst case): an end with a tailwind over 5 kt or a crosswind over the aircraft's limit is out.
//    A helicopter lands on a helipad into the wind: no crosswind or tailwind there. A helipad is no
//    runway for an aeroplane.
// 3. Among the ends left, those at least the aircraft's minimum runway length come first (not for
//    a helicopter, which needs a landing area, not a length); in instrument conditions, then those
//    whose best approach has its typical minima met.
// 4. Then, with a steady wind of 5 kt or more, the most headwind (mean wind). With calm, light
//    (under 5 kt, no gust), variable or unknown wind (none known at the ETA), the best equipped:
//    usable ILS (CAT III, then II, then I), then usable lighting, then the longest landing length.
//    Any tie left goes to the
//    designator, A to Z.
// 5. When no end qualifies the answer is no runway, with the reason.

import { windComponents } from '../weather/index.ts';
import type { WeatherAtEta, Wind } from '../weather/index.ts';
import { airportConditions, bestIls, ilsCategoryRank, ilsState, ilsUsable, lightingUsable } from './conditions.ts';
import type { EndConditions, IlsState } from './conditions.ts';
import type { ActiveNotam, AircraftProfile, EndLocalizer, Runway } from './types.ts';

export const TAILWIND_LIMIT_KT = 5;
/** Below this mean speed, without gusts, the wind does not decide the runway. */
export const LIGHT_WIND_KT = 5;

/** calm: 00000KT; light: under 5 kt without gusts; variable: VRB at 5 kt or more or gusting. */
export type WindRegime = 'calm' | 'light' | 'variable' | 'steady' | 'unknown';

export interface RunwayEndAssessment {
  runway_id: string;
  designator: string;
  true_heading_deg: number | null;
  landing_length_m: number | null;
  /** At least the aircraft's minimum runway length; null when the length is unknown, and for a helicopter (it needs a landing area, not a length). */
  long_enough: boolean | null;
  closed_in_data: boolean;
  /** Navigation data lists an ILS for the end; null when no navigation data covers the airport. */
  ils_in_data: boolean | null;
  lighted_in_data: boolean | null;
  /** The data lists an ILS and no NOTAM has it out of service. */
  ils_usable: boolean;
  ils: IlsState;
  /** The end's ILS of the highest category (null without one in the data); listed even when out of service. */
  ils_system: EndLocalizer | null;
  /** The data says lighted and no NOTAM has the runway lighting out of service. */
  lighting_usable: boolean;
  /** NOTAMs that close the runway, take the end's ILS out, or its runway or approach lighting. */
  closed_by: string[];
  ils_out_by: string[];
  runway_lighting_out_by: string[];
  approach_lighting_out_by: string[];
  /** Mean wind components; null for VRB wind, an unknown heading, or unknown wind. */
  headwind_kt: number | null;
  crosswind_kt: number | null;
  /** Gusts and the whole reported direction range included; null when the wind is unknown. */
  max_tailwind_kt: number | null;
  max_crosswind_kt: number | null;
  /** A landing area for helicopters (ident H…), not a runway. */
  helipad: boolean;
  /** Why this end cannot be chosen; null when it qualifies. */
  excluded: string | null;
}

export interface RunwayChoice {
  /** The chosen end; null when none qualifies. */
  runway: RunwayEndAssessment | null;
  wind: WindRegime;
  /** What decided among the qualifying ends. */
  basis: 'headwind' | 'equipment' | null;
  /** One sentence: the choice, or why there is none. */
  reason: string;
  reasoning: string[];
  /** Every runway end, in data order, with its figures and any exclusion. */
  candidates: RunwayEndAssessment[];
}

export interface RunwayChoiceInput {
  runways: readonly Runway[];
  /** The weather at the ETA: its wind (degrees true; null when none is known) and what it is based on. */
  weather: Pick<WeatherAtEta, 'basis' | 'wind' | 'summary'>;
  aircraft: Pick<AircraftProfile, 'approach_category' | 'crosswind_limit_kt' | 'min_runway_m'>;
  notams?: readonly ActiveNotam[];
  /** In instrument conditions: whether the end's best approach has its typical minima met (approach.ts). */
  approachMinimaMet?: (candidate: RunwayEndAssessment) => boolean;
}

/** A helipad's ident starts with H ("H1", "H2"); runway designators never do. */
function isHelipad(ident: string): boolean {
  return /^H/i.test(ident.trim());
}

/**
 * The landing areas of a heliport for a helicopter: its runways, each one the reference data gives
 * no end (most helipads: the data keeps an end only with a heading) taken as a helipad, H1, H2…
 * in data order, on which the helicopter lands into the wind. Anywhere else, the runways as given.
 */
export function landingAreas(runways: readonly Runway[], options: { heliport: boolean; helicopter: boolean }): readonly Runway[] {
  if (!options.heliport || !options.helicopter) return runways;
  let pads = 0;
  return runways.map((runway) => {
    if (runway.ends.length > 0) return runway;
    pads += 1;
    return { ...runway, ends: [{ ident: `H${pads}`, true_heading_deg: null, lat: null, lon: null, elevation_ft: null, displaced_threshold_ft: null, ils: false }] };
  });
}

export function chooseRunway(input: RunwayChoiceInput): RunwayChoice {
  const { runways, weather, aircraft } = input;
  const wind = weather.wind;
  const conditions = airportConditions(runways, input.notams);
  const regime = windRegime(wind);
  const reasoning: string[] = [`Weather at the ETA: ${weather.summary}.`, describeWind(wind, regime, weather.basis)];
  const helicopter = aircraft.approach_category === 'H';
  if (helicopter) reasoning.push('A helicopter: judged on its landing area, not runway length; on a helipad it lands into the wind.');
  const candidates = conditions.ends.map((item) => assess(item, wind, aircraft, helicopter));
  const noRunway = (reason: string): RunwayChoice => ({
    runway: null,
    wind: regime,
    basis: null,
    reason,
    reasoning: [...reasoning, reason],
    candidates,
  });

  if (conditions.aerodrome_closed_by.length > 0) {
    return noRunway(`No runway: the aerodrome is closed by NOTAM ${conditions.aerodrome_closed_by.join(', ')}.`);
  }
  if (candidates.length === 0) return noRunway('No runway: the reference data lists no runway for this airport.');
  for (const candidate of candidates) {
    if (candidate.excluded !== null) reasoning.push(`${candidate.designator} excluded: ${candidate.excluded}.`);
  }
  if (regime === 'unknown') reasoning.push('Wind unknown: the crosswind and tailwind limits could not be checked.');
  if (!helicopter && candidates.length > 0 && candidates.every((candidate) => candidate.helipad)) {
    return noRunway('No runway: the airport has helipads only, for helicopters.');
  }

  const qualifying = candidates.filter((candidate) => candidate.excluded === null);
  if (qualifying.length === 0) {
    if (candidates.every((candidate) => candidate.closed_in_data || candidate.closed_by.length > 0)) {
      return noRunway('No runway: every runway is closed.');
    }
    const note = wind === null ? '' : variableNote(wind, regime);
    return noRunway(
      `No runway: no open runway end is within the limits (tailwind at most ${TAILWIND_LIMIT_KT} kt, crosswind at most ` +
        `${aircraft.crosswind_limit_kt} kt, gusts included)${note}.`,
    );
  }

  const minimaMet = new Set(input.approachMinimaMet ? qualifying.filter(input.approachMinimaMet) : qualifying);
  const byMinima = minimaMet.size > 0 && minimaMet.size < qualifying.length;
  if (byMinima) {
    const names = (list: RunwayEndAssessment[]) => list.map((candidate) => candidate.designator).join(', ');
    reasoning.push(
      `Instrument conditions: the typical minima of the best approach are met on ${names([...minimaMet])} and not on ` +
        `${names(qualifying.filter((candidate) => !minimaMet.has(candidate)))}, so those come first.`,
    );
  }
  const basis = regime === 'steady' ? 'headwind' : 'equipment';
  const chosen = [...qualifying].sort((a, b) => compare(a, b, basis, minimaMet))[0]!;
  const reason = choiceReason(chosen, basis, qualifying.length, byMinima);
  reasoning.push(reason);
  if (chosen.long_enough === false) {
    reasoning.push(`${chosen.designator} is shorter than the aircraft's minimum runway length (${aircraft.min_runway_m} m), and no qualifying end is long enough.`);
  }
  return { runway: chosen, wind: regime, basis, reason, reasoning, candidates };
}

export function windRegime(wind: Wind | null): WindRegime {
  if (wind === null) return 'unknown';
  if (wind.calm || (wind.speed_kt === 0 && wind.gust_kt === null)) return 'calm';
  if (wind.speed_kt < LIGHT_WIND_KT && wind.gust_kt === null) return 'light';
  if (wind.direction_deg === null) return 'variable';
  return 'steady';
}

function assess(
  item: EndConditions,
  wind: Wind | null,
  aircraft: Pick<AircraftProfile, 'crosswind_limit_kt' | 'min_runway_m'>,
  helicopter: boolean,
): RunwayEndAssessment {
  const heading = item.end.true_heading_deg;
  const helipad = isHelipad(item.designator);
  const components = wind === null ? null : helicopter && helipad ? intoWind(wind) : endComponents(wind, heading);
  const assessment: RunwayEndAssessment = {
    runway_id: String(item.runway.id),
    designator: item.designator,
    true_heading_deg: heading,
    landing_length_m: item.landing_length_m,
    long_enough: helicopter || item.landing_length_m === null ? null : item.landing_length_m >= aircraft.min_runway_m,
    closed_in_data: item.closed_in_data,
    ils_in_data: item.end.ils,
    lighted_in_data: item.runway.lighted,
    ils_usable: ilsUsable(item),
    ils: ilsState(item),
    ils_system: bestIls(item),
    lighting_usable: lightingUsable(item),
    closed_by: item.closed_by,
    ils_out_by: item.ils_out_by,
    runway_lighting_out_by: item.runway_lighting_out_by,
    approach_lighting_out_by: item.approach_lighting_out_by,
    headwind_kt: components?.headwind_kt ?? null,
    crosswind_kt: components?.crosswind_kt ?? null,
    max_tailwind_kt: components?.max_tailwind_kt ?? null,
    max_crosswind_kt: components?.max_crosswind_kt ?? null,
    helipad,
    excluded: null,
  };
  assessment.excluded = helipad && !helicopter ? 'a helipad, not a runway' : exclusion(item, assessment, aircraft.crosswind_limit_kt);
  return assessment;
}

/** On a helipad a helicopter faces the wind, whatever its direction: all headwind. */
function intoWind(wind: Wind): EndComponents {
  return { headwind_kt: wind.direction_deg === null ? null : wind.speed_kt, crosswind_kt: wind.direction_deg === null ? null : 0, max_tailwind_kt: 0, max_crosswind_kt: 0 };
}

interface EndComponents {
  headwind_kt: number | null;
  crosswind_kt: number | null;
  max_tailwind_kt: number;
  max_crosswind_kt: number;
}

/** Without a heading the wind could be from anywhere relative to the runway: the gust counts in full. */
function endComponents(wind: Wind, heading: number | null): EndComponents {
  const components = heading === null ? null : windComponents(wind, heading);
  if (components === null) {
    const peak = wind.gust_kt ?? wind.speed_kt;
    return { headwind_kt: null, crosswind_kt: null, max_tailwind_kt: peak, max_crosswind_kt: peak };
  }
  return {
    headwind_kt: components.headwind_kt,
    crosswind_kt: components.crosswind_kt,
    max_tailwind_kt: Math.max(0, -components.worst_headwind_kt),
    max_crosswind_kt: components.worst_crosswind_kt,
  };
}

function exclusion(item: EndConditions, assessment: RunwayEndAssessment, crosswindLimitKt: number): string | null {
  if (item.closed_by.length > 0) return `runway closed by NOTAM ${item.closed_by.join(', ')}`;
  if (item.closed_in_data) return 'runway closed in the reference data';
  const { max_tailwind_kt: tailwind, max_crosswind_kt: crosswind } = assessment;
  if (tailwind !== null && tailwind > TAILWIND_LIMIT_KT) {
    return `tailwind up to ${tailwind} kt (gusts included) over the ${TAILWIND_LIMIT_KT} kt limit`;
  }
  if (crosswind !== null && crosswind > crosswindLimitKt) {
    return `crosswind up to ${crosswind} kt (gusts included) over the aircraft's ${crosswindLimitKt} kt limit`;
  }
  return null;
}

function compare(a: RunwayEndAssessment, b: RunwayEndAssessment, basis: 'headwind' | 'equipment', minimaMet: ReadonlySet<RunwayEndAssessment>): number {
  return (
    lengthRank(b) - lengthRank(a) ||
    Number(minimaMet.has(b)) - Number(minimaMet.has(a)) ||
    (basis === 'headwind' ? (b.headwind_kt ?? -Infinity) - (a.headwind_kt ?? -Infinity) : 0) ||
    ilsRank(b) - ilsRank(a) ||
    Number(b.lighting_usable) - Number(a.lighting_usable) ||
    (b.landing_length_m ?? 0) - (a.landing_length_m ?? 0) ||
    a.designator.localeCompare(b.designator)
  );
}

/** A usable ILS of a higher category first, then none. */
function ilsRank(candidate: RunwayEndAssessment): number {
  return candidate.ils_usable ? ilsCategoryRank(candidate.ils_system ?? { category: null }) : 0;
}

/** Long enough first, then unknown length, then too short. */
function lengthRank(candidate: RunwayEndAssessment): number {
  return candidate.long_enough === true ? 2 : candidate.long_enough === null ? 1 : 0;
}

function choiceReason(chosen: RunwayEndAssessment, basis: 'headwind' | 'equipment', count: number, byMinima: boolean): string {
  const equipment = [
    ilsWords(chosen),
    chosen.lighting_usable ? 'lighted' : chosen.lighted_in_data === true ? 'lighting out of service' : 'no lighting in the data',
    chosen.landing_length_m === null ? 'length unknown' : `${chosen.landing_length_m} m landing length`,
  ].join(', ');
  const among = count === 1 ? 'the only end within limits' : `chosen from ${count} ends within limits`;
  const minima = byMinima ? ' among the ends whose approach minima are met' : '';
  if (basis === 'headwind') {
    return `Runway ${chosen.designator}: most headwind (${chosen.headwind_kt} kt)${minima}, ${among}; ${equipment}.`;
  }
  return `Runway ${chosen.designator}: wind does not decide, so the best equipped (ILS of the highest category, then lighting, then length)${minima}, ${among}; ${equipment}.`;
}

/** The end's ILS in a few words; "unknown" when no navigation data covers the airport, never "no ILS" then. */
export function ilsWords(end: Pick<RunwayEndAssessment, 'ils' | 'ils_system'>): string {
  const category = end.ils_system?.category ? ` CAT ${end.ils_system.category}` : '';
  switch (end.ils) {
    case 'usable': return `ILS${category}`;
    case 'out_of_service': return `ILS${category} out of service`;
    case 'none': return 'no ILS in the navigation data';
    case 'unknown': return 'ILS unknown (no navigation data)';
  }
}

function describeWind(wind: Wind | null, regime: WindRegime, basis: WeatherAtEta['basis']): string {
  if (wind === null) return basis === 'none' ? 'No wind known at the ETA: the runway is chosen by its equipment.' : `No wind ${basis === 'forecast' ? 'forecast' : 'reported'}.`;
  const gust = wind.gust_kt === null ? '' : ` gusting ${wind.gust_kt} kt`;
  const range = wind.variable_from_deg === null ? '' : `, varying ${wind.variable_from_deg}°-${wind.variable_to_deg}°`;
  switch (regime) {
    case 'calm':
      return 'Calm wind: every runway end is within the wind limits.';
    case 'light':
      return `Light wind (${wind.direction_deg === null ? 'variable' : `${wind.direction_deg}° true`} ${wind.speed_kt} kt, under ${LIGHT_WIND_KT} kt): the wind does not decide the runway.`;
    case 'variable':
      return `Variable wind ${wind.speed_kt} kt${gust}${range}: its direction is unknown, so every end is checked with the ${wind.gust_kt ?? wind.speed_kt} kt ${wind.gust_kt === null ? 'wind' : 'gust'} as a possible tailwind and crosswind.`;
    default:
      return `Wind ${wind.direction_deg}° true ${wind.speed_kt} kt${gust}${range}: tailwind and crosswind limits are checked at ${wind.gust_kt === null ? 'the mean speed' : 'the gust speed'} over the reported direction range.`;
  }
}

function variableNote(wind: Wind, regime: WindRegime): string {
  return regime === 'variable' ? `; variable wind up to ${wind.gust_kt ?? wind.speed_kt} kt could blow from any direction` : '';
}
