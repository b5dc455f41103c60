// Approximate sunrise and sunset for SR/SS schedules, from NOAA's "general solar position"
// equations (fractional-year series for the equation of time and the declination, 90.833° zenith
// for refraction and the solar disc). Good to a few minutes away from the poles, which is finer
// than NOTAM schedules need; callers wanting an almanac can inject their own provider.

import { MS_PER_DAY, MS_PER_MINUTE } from './time.ts';
import type { LatLon } from './types.ts';

export interface SunTimes {
  sunrise: Date;
  sunset: Date;
}

/**
 * Sunrise and sunset on the UTC day containing `dayUtc` at `position`; null when the sun does not
 * rise or does not set that day (polar night or midnight sun).
 */
export type SunTimesProvider = (dayUtc: Date, position: LatLon) => SunTimes | null;

const DEG = Math.PI / 180;
const SUNRISE_ZENITH_RAD = 90.833 * DEG;

export const approximateSunTimes: SunTimesProvider = (dayUtc, position) => {
  const dayStart = Math.floor(dayUtc.getTime() / MS_PER_DAY) * MS_PER_DAY;
  // First estimate at local solar noon, then once more at each event: the declination moves
  // enough over half a day around the equinoxes to shift sunset by several minutes.
  const noonMin = 720 - 4 * position.lon;
  const sunriseFirst = eventMinutes(dayStart, noonMin, position, -1);
  const sunsetFirst = eventMinutes(dayStart, noonMin, position, 1);
  if (sunriseFirst === null || sunsetFirst === null) return null;
  const sunrise = eventMinutes(dayStart, sunriseFirst, position, -1);
  const sunset = eventMinutes(dayStart, sunsetFirst, position, 1);
  if (sunrise === null || sunset === null) return null;
  return {
    sunrise: new Date(dayStart + Math.round(sunrise) * MS_PER_MINUTE),
    sunset: new Date(dayStart + Math.round(sunset) * MS_PER_MINUTE),
  };
};

/**
 * Minutes after `dayStart` (UTC midnight) of sunrise (side -1) or sunset (side 1), with the sun's
 * position taken at `atMinutes`; null when the sun stays above or below the horizon.
 */
function eventMinutes(dayStart: number, atMinutes: number, position: LatLon, side: -1 | 1): number | null {
  const year = new Date(dayStart).getUTCFullYear();
  const dayOfYear = (dayStart - Date.UTC(year, 0, 1)) / MS_PER_DAY + 1;
  const daysInYear = (Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / MS_PER_DAY;
  // Fractional year in radians.
  const g = ((2 * Math.PI) / daysInYear) * (dayOfYear - 1 + (atMinutes / 60 - 12) / 24);
  const equationOfTimeMin =
    229.18 * (0.000075 + 0.001868 * Math.cos(g) - 0.032077 * Math.sin(g) - 0.014615 * Math.cos(2 * g) - 0.040849 * Math.sin(2 * g));
  const declination =
    0.006918 -
    0.399912 * Math.cos(g) +
    0.070257 * Math.sin(g) -
    0.006758 * Math.cos(2 * g) +
    0.000907 * Math.sin(2 * g) -
    0.002697 * Math.cos(3 * g) +
    0.00148 * Math.sin(3 * g);
  const lat = position.lat * DEG;
  const cosHourAngle = Math.cos(SUNRISE_ZENITH_RAD) / (Math.cos(lat) * Math.cos(declination)) - Math.tan(lat) * Math.tan(declination);
  if (!(cosHourAngle >= -1 && cosHourAngle <= 1)) return null;
  const hourAngleDeg = Math.acos(cosHourAngle) / DEG;
  return 720 - 4 * (position.lon - side * hourAngleDeg) - equationOfTimeMin;
}
