// The landing safety score: 100 plus the points of every factor (each 0 or negative), clamped to
// 0-100. The factors and their points are tabled in RULES.md; SAFETY_POINTS holds the numbers.
// The factors always assessed (weather basis, and with weather known at the ETA the flight
// category and wind shear; crosswind, tailwind, runway length, night) are listed even at 0, so the
// score can be explained line by line; the others only when they apply. The weather basis says how
// certain the score is: an observation costs nothing, a forecast a little, no weather known at the
// ETA (past the TAF) as much as no report at all.

import { windShearAtEta } from '../weather/index.ts';
import type { FlightCategory, WeatherAtEta, WeatherBasis, WindShearRiskLevel } from '../weather/index.ts';
import type { ApproachRecommendation } from './approach.ts';
import type { RunwayChoice } from './runway.ts';
import type { AirportStatusResult } from './status.ts';
import type { AircraftProfile, ApproachCategory } from './types.ts';
import { daylight } from './daylight.ts';

export { CIVIL_TWILIGHT_ALTITUDE_DEG, daylight, SUNRISE_ALTITUDE_DEG } from './daylight.ts';
export type { Daylight, LightPeriod } from './daylight.ts';

export const SAFETY_FACTORS = [
  'aerodrome_closed',
  'airport_limited',
  'no_runway',
  'weather_basis',
  'weather_age',
  'flight_category',
  'wind_unknown',
  'crosswind',
  'tailwind',
  'wind_shear',
  'runway_length',
  'below_minima',
  'ils_unserviceable',
  'runway_lighting',
  'approach_lighting',
  'night',
] as const;
export type SafetyFactorName = (typeof SAFETY_FACTORS)[number];

export interface SafetyFactor {
  factor: SafetyFactorName;
  /** 0 or negative. */
  points: number;
  detail: string;
}

export interface SafetyScore {
  /** 100 + the sum of the points, clamped to 0-100. */
  score: number;
  factors: SafetyFactor[];
}

/** Light types (approach category A) and helicopters are most often flown under VFR. */
const LIGHT_CATEGORIES: ReadonlySet<ApproachCategory> = new Set(['A', 'H']);

export const SAFETY_POINTS = {
  aerodrome_closed: -100,
  airport_limited: -5,
  no_runway: -60,
  /** What the weather at the ETA rests on: an observation, a forecast (less certain), nothing (past the TAF, or no report). */
  weather_basis: { observation: 0, forecast: -5, none: -25 } satisfies Record<WeatherBasis, number>,
  /** METAR age at the time of the request: up to 90 min is current (reports are hourly). */
  weather_age: { current_max_min: 90, aging_max_min: 180, aging: -10, stale: -20 },
  flight_category: {
    transport: { VFR: 0, MVFR: -5, IFR: -10, LIFR: -20 },
    light: { VFR: 0, MVFR: -10, IFR: -25, LIFR: -40 },
    unknown: -10,
  } satisfies Record<'transport' | 'light', Record<FlightCategory, number>> & { unknown: number },
  wind_unknown: -10,
  /** Largest crosswind (gusts included) as a share of the aircraft's limit. */
  crosswind: [
    { up_to: 0.5, points: 0 },
    { up_to: 0.75, points: -5 },
    { up_to: 0.9, points: -10 },
    { up_to: Infinity, points: -20 },
  ],
  tailwind: { over_kt: 2, points: -5 },
  wind_shear: { LOW: 0, MODERATE: -10, HIGH: -25, SEVERE: -40 } satisfies Record<WindShearRiskLevel, number>,
  /** Landing length as a multiple of the aircraft's minimum runway length. */
  runway_length: [
    { below: 1, points: -30 },
    { below: 1.15, points: -15 },
    { below: 1.3, points: -5 },
    { below: Infinity, points: 0 },
  ],
  runway_length_unknown: -10,
  below_minima: -30,
  ils_unserviceable: { instrument: -15, visual: -5 },
  runway_lighting: { dark: -30, day_outage: -5 },
  approach_lighting: { needed: -10, otherwise: -3 },
  night: { night: -10, twilight: -5 },
} as const;

export interface SafetyInput {
  /** The airport reference point, for the sun at the ETA. */
  position: { lat: number; lon: number };
  aircraft: Pick<AircraftProfile, 'approach_category' | 'crosswind_limit_kt' | 'min_runway_m'>;
  /** The weather at the ETA: observed, forecast, or none known. */
  weather: WeatherAtEta;
  choice: RunwayChoice;
  approach: ApproachRecommendation;
  status: AirportStatusResult;
  etaMs: number;
  /** When the score is computed, for the age of the weather. */
  nowMs: number;
}

export function safetyScore(input: SafetyInput): SafetyScore {
  const factors: SafetyFactor[] = [];
  const add = (factor: SafetyFactorName, points: number, detail: string): void => {
    factors.push({ factor, points, detail });
  };
  const { aircraft, weather, choice, approach, status } = input;
  const light = LIGHT_CATEGORIES.has(aircraft.approach_category);
  const sun = daylight(input.etaMs, input.position);
  const dark = sun.period !== 'day';

  if (status.status === 'CLOSED') add('aerodrome_closed', SAFETY_POINTS.aerodrome_closed, status.reasons.join(' '));
  else if (status.status === 'LIMITED') add('airport_limited', SAFETY_POINTS.airport_limited, status.reasons.join(' '));

  add('weather_basis', SAFETY_POINTS.weather_basis[weather.basis], basisDetail(weather));
  if (weather.basis !== 'none') weatherFactors(weather, input, light, add);

  const end = choice.runway;
  if (end === null) {
    if (status.status !== 'CLOSED') add('no_runway', SAFETY_POINTS.no_runway, choice.reason);
  } else {
    if (end.max_crosswind_kt !== null) {
      const share = aircraft.crosswind_limit_kt > 0 ? end.max_crosswind_kt / aircraft.crosswind_limit_kt : Infinity;
      const points = SAFETY_POINTS.crosswind.find((band) => share <= band.up_to)!.points;
      add('crosswind', points, `Crosswind up to ${end.max_crosswind_kt} kt on ${end.designator} (gusts included), ${Math.round(share * 100)} % of the aircraft's ${aircraft.crosswind_limit_kt} kt limit.`);
    }
    if (end.max_tailwind_kt !== null) {
      const over = end.max_tailwind_kt > SAFETY_POINTS.tailwind.over_kt;
      add('tailwind', over ? SAFETY_POINTS.tailwind.points : 0, `Tailwind up to ${end.max_tailwind_kt} kt on ${end.designator} (gusts included).`);
    }
    if (aircraft.approach_category === 'H') add('runway_length', 0, `A helicopter: ${end.designator} is judged as a landing area, not by its length.`);
    else if (end.landing_length_m === null) add('runway_length', SAFETY_POINTS.runway_length_unknown, `Landing length of ${end.designator} unknown.`);
    else {
      const ratio = end.landing_length_m / aircraft.min_runway_m;
      const points = SAFETY_POINTS.runway_length.find((band) => ratio < band.below)!.points;
      add('runway_length', points, `${end.designator}: ${end.landing_length_m} m, ${Math.round(ratio * 100)} % of the aircraft's ${aircraft.min_runway_m} m minimum.`);
    }
    const instrument = approach.type === 'ILS' || approach.type === 'RNAV';
    if (end.ils_in_data === true && end.ils_out_by.length > 0) {
      add(
        'ils_unserviceable',
        instrument ? SAFETY_POINTS.ils_unserviceable.instrument : SAFETY_POINTS.ils_unserviceable.visual,
        `ILS ${end.designator} out of service (NOTAM ${end.ils_out_by.join(', ')})${instrument ? ' in instrument conditions' : ''}.`,
      );
    }
    if (dark && !end.lighting_usable) {
      const why = end.runway_lighting_out_by.length > 0 ? `lighting out of service (NOTAM ${end.runway_lighting_out_by.join(', ')})` : 'no runway lighting in the data';
      add('runway_lighting', SAFETY_POINTS.runway_lighting.dark, `${end.designator}: ${why}, at ${sun.period} at the ETA.`);
    } else if (end.runway_lighting_out_by.length > 0) {
      add('runway_lighting', SAFETY_POINTS.runway_lighting.day_outage, `${end.designator}: lighting out of service (NOTAM ${end.runway_lighting_out_by.join(', ')}), by day.`);
    }
    if (end.approach_lighting_out_by.length > 0) {
      const needed = dark || instrument;
      add(
        'approach_lighting',
        needed ? SAFETY_POINTS.approach_lighting.needed : SAFETY_POINTS.approach_lighting.otherwise,
        `Approach lighting ${end.designator} out of service (NOTAM ${end.approach_lighting_out_by.join(', ')})${needed ? `, needed ${dark ? 'in the dark' : 'in instrument conditions'}` : ''}.`,
      );
    }
    if (approach.below_minima) add('below_minima', SAFETY_POINTS.below_minima, approach.reason);
  }

  const nightPoints = sun.period === 'day' ? 0 : SAFETY_POINTS.night[sun.period];
  add('night', nightPoints, `${capitalise(sun.period)} at the ETA: sun altitude ${sun.sun_altitude_deg}°.`);

  const sum = factors.reduce((total, factor) => total + factor.points, 0);
  return { score: Math.max(0, Math.min(100, 100 + sum)), factors };
}

function basisDetail(weather: WeatherAtEta): string {
  switch (weather.basis) {
    case 'observation':
      return `${weather.summary}: the ETA is within the METAR's validity (until ${weather.valid_until}).`;
    case 'forecast':
      return `${weather.summary}: the weather at the ETA is forecast, not observed.`;
    default:
      return `${weather.summary}: ${weather.reasoning.at(-1)}`;
  }
}

function weatherFactors(
  weather: WeatherAtEta,
  input: SafetyInput,
  light: boolean,
  add: (factor: SafetyFactorName, points: number, detail: string) => void,
): void {
  const what = weather.basis === 'observation' ? 'reported' : 'forecast';
  if (weather.observed_at !== null) {
    const ageMin = Math.max(0, Math.round((input.nowMs - Date.parse(weather.observed_at)) / 60_000));
    const age = SAFETY_POINTS.weather_age;
    const agePoints = ageMin <= age.current_max_min ? 0 : ageMin <= age.aging_max_min ? age.aging : age.stale;
    add('weather_age', agePoints, `METAR observed ${weather.observed_at}, ${ageMin} min old.`);
  }

  const category = weather.flight_category;
  const table = light ? SAFETY_POINTS.flight_category.light : SAFETY_POINTS.flight_category.transport;
  const unknownPoints = SAFETY_POINTS.flight_category.unknown;
  if (weather.visibility === null) add('flight_category', unknownPoints, `Flight category unknown: no visibility ${what}.`);
  else if (category === null) {
    // No sky group: the category is the visibility's or worse, so it costs at least that.
    const best = weather.flight_category_at_best!;
    add('flight_category', Math.min(unknownPoints, table[best]), `Flight category unknown: no sky condition ${what}, so the ceiling is unknown; ${best} at best.`);
  } else {
    const kind = light ? 'light aircraft or helicopter (often VFR only)' : 'transport aircraft';
    add('flight_category', table[category], `${category}${weather.basis === 'forecast' ? ' forecast' : ''} for a ${kind}.`);
  }

  if (weather.wind === null) add('wind_unknown', SAFETY_POINTS.wind_unknown, `No usable wind ${what}: wind limits unchecked.`);

  const risk = windShearAtEta(weather, input.choice.runway?.designator);
  if (risk === null) return;
  const reasons = risk.reasons.map((reason) => `${reason.rule} (${reason.detail})`);
  const unknown = risk.unknown_inputs.length > 0 ? ` Not assessed: ${risk.unknown_inputs.join(', ')}.` : '';
  add('wind_shear', SAFETY_POINTS.wind_shear[risk.level], `Wind shear risk ${risk.level}${reasons.length > 0 ? `: ${reasons.join('; ')}` : ''}.${unknown}`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
