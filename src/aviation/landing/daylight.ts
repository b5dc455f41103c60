// Day, civil twilight or night at the airport at the ETA: the score's night factor, and whether
// runway lighting matters for the status and the score.
import { getPosition } from 'suncalc';

export type LightPeriod = 'day' | 'twilight' | 'night';

/** Sunrise/sunset: the sun's upper limb on the horizon. */
export const SUNRISE_ALTITUDE_DEG = -0.833;
/** The end of civil twilight: ICAO's night begins here. */
export const CIVIL_TWILIGHT_ALTITUDE_DEG = -6;

export interface Daylight {
  period: LightPeriod;
  sun_altitude_deg: number;
}

/**
 * Day, civil twilight or night at a place and time, from the sun's altitude (suncalc, refraction
 * included): day at or above −0.833°, night below −6° (ICAO), civil twilight between.
 */
export function daylight(atMs: number, position: { lat: number; lon: number }): Daylight {
  const altitude = getPosition(new Date(atMs), position.lat, position.lon).altitude;
  const period = altitude >= SUNRISE_ALTITUDE_DEG ? 'day' : altitude >= CIVIL_TWILIGHT_ALTITUDE_DEG ? 'twilight' : 'night';
  return { period, sun_altitude_deg: Math.round(altitude * 10) / 10 };
}
