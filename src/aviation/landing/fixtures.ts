// Test support (not used by the service): airports in the reference data's shape, aircraft
// profiles, and METARs and NOTAMs run through the real parsers.
import assert from 'node:assert/strict';
import { parseNotam } from '../notams/index.ts';
import { parseMetar, weatherAtEta } from '../weather/index.ts';
import type { Metar, WeatherAtEta } from '../weather/index.ts';
import type { ActiveNotam, AircraftProfile, LandingAirport, Runway, RunwayEnd } from './types.ts';

export const JUNE = new Date('2025-06-21T12:00:00Z');

export function metar(raw: string, now: Date = JUNE): Metar {
  const result = parseMetar(raw, { now });
  if (!result.ok) assert.fail(`${raw}: ${result.error.message}`);
  return result.metar;
}

/** The weather at an ETA at the METAR's observation time: basis observation. */
export function observed(raw: string, now: Date = JUNE): WeatherAtEta {
  const report = metar(raw, now);
  return weatherAtEta({ metar: report, taf: null, etaMs: Date.parse(report.observed_at) });
}

/** No weather known at the ETA (no METAR, no TAF): basis none. */
export const NO_WEATHER: WeatherAtEta = weatherAtEta({ metar: null, taf: null, etaMs: JUNE.getTime() });

/** An ICAO NOTAM for `location` with the given Q code and item E). */
export function notam(number: string, qCode: string, text: string, location = 'EGLL'): ActiveNotam {
  const raw = `${number} NOTAMN\nQ) EGTT/${qCode}/IV/NBO/A/000/999/5129N00028W005\nA) ${location} B) 2506010000 C) 2507012359\nE) ${text}`;
  const result = parseNotam(raw);
  if (!result.ok) assert.fail(`${raw}: ${result.error.message}`);
  return result.notam;
}

export function end(ident: string, heading: number | null, extra: Partial<RunwayEnd> = {}): RunwayEnd {
  return { ident, true_heading_deg: heading, lat: null, lon: null, elevation_ft: null, displaced_threshold_ft: 0, ils: false, ...extra };
}

export function runway(id: string, lengthFt: number | null, ends: RunwayEnd[], extra: Partial<Runway> = {}): Runway {
  return { id, length_ft: lengthFt, width_ft: 150, surface: 'ASP', paved: true, lighted: true, closed: false, ends, ...extra };
}

/** Heathrow's two parallel runways, every end with an ILS; 09L and 09R have displaced thresholds. */
export const EGLL: LandingAirport = {
  icao: 'EGLL',
  type: 'large_airport',
  lat: 51.4706,
  lon: -0.461941,
  runways: [
    runway('09L/27R', 12802, [
      end('09L', 89.6, { ils: true, displaced_threshold_ft: 1007, lat: 51.4775, lon: -0.4850 }),
      end('27R', 269.7, { ils: true, lat: 51.4777, lon: -0.4332 }),
    ], { width_ft: 164 }),
    runway('09R/27L', 12008, [
      end('09R', 89.6, { ils: true, displaced_threshold_ft: 1010, lat: 51.4647, lon: -0.4823 }),
      end('27L', 269.7, { ils: true, lat: 51.4650, lon: -0.4341 }),
    ], { width_ft: 164 }),
  ],
};

/**
 * A regional airport with crossing runways (ZZZZ is ICAO's "no indicator" placeholder): 04/22 with
 * an ILS on 22, 13/31 without ILS, and an unlit grass strip 18/36.
 */
export const CROSSING: LandingAirport = {
  icao: 'ZZZZ',
  type: 'medium_airport',
  lat: 48.0,
  lon: 11.0,
  runways: [
    runway('04/22', 7000, [end('04', 40), end('22', 220, { ils: true })]),
    runway('13/31', 5500, [end('13', 130), end('31', 310)]),
    runway('18/36', 2500, [end('18', 180), end('36', 0)], { surface: 'GRS', paved: false, lighted: false }),
  ],
};

export const A320: AircraftProfile = {
  designator: 'A320',
  approach_category: 'C',
  crosswind_limit_kt: 33,
  landing_distance_m: 1500,
  min_runway_m: 1800,
  vehicle_category: 'airplane',
};

export const C172: AircraftProfile = {
  designator: 'C172',
  approach_category: 'A',
  crosswind_limit_kt: 15,
  landing_distance_m: 400,
  min_runway_m: 500,
  vehicle_category: 'airplane',
};
