// What every weather source gives: hourly marine weather at points, in the units LAMIS serves
// (knots, metres, degrees true), with the direction each comes from, as meteorologists give it.
import type { LatLon } from '../../platform/geo/great-circle.ts';

export type WeatherSourceKind = 'simulated' | 'open-meteo';
export const WEATHER_SOURCE_KINDS: readonly WeatherSourceKind[] = ['simulated', 'open-meteo'];

export interface WeatherHour {
  /** Start of the UTC hour the values are for, ISO 8601. */
  time: string;
  /** Mean wind at 10 m. */
  wind_speed_kn: number | null;
  /** Where the wind blows from, degrees true. */
  wind_direction_deg: number | null;
  /** Highest gust at 10 m (over the preceding hour where the source says so); never below the wind. */
  gust_kn: number | null;
  /** Significant height of wind sea and swell together. */
  wave_height_m: number | null;
  /** Where the waves come from, degrees true. */
  wave_direction_deg: number | null;
  visibility_m: number | null;
}

/** The hours of one point a caller asked for: every whole UTC hour from the hour holding `from` to `to`. */
export interface PointWeather {
  /** The position the values are for: the one asked for, or the source's grid point. */
  lat: number;
  lon: number;
  hours: WeatherHour[];
}

export interface WeatherRequest extends LatLon {
  from: number;
  to: number;
  /** Where to take marine values (waves) when not at the point itself: open water near a port. */
  marine?: LatLon;
}

export interface WeatherSource {
  readonly kind: WeatherSourceKind;
  /** The credit to show with its data. */
  readonly attribution: string;
  /** How far ahead of now its forecasts reach. */
  readonly horizonHours: number;
  /** Hourly weather for each request, in the order asked; throws WeatherUnavailableError when the source fails. */
  hourly(requests: readonly WeatherRequest[]): Promise<PointWeather[]>;
}

export type WeatherFailure = 'timeout' | 'network' | 'upstream' | 'rate_limited' | 'bad_response' | 'too_large';

export class WeatherUnavailableError extends Error {
  readonly failure: WeatherFailure;
  /** When the source may be asked again, in ms from now; null when unknown. */
  readonly retryAfterMs: number | null;

  constructor(failure: WeatherFailure, message: string, retryAfterMs: number | null = null) {
    super(message);
    this.name = 'WeatherUnavailableError';
    this.failure = failure;
    this.retryAfterMs = retryAfterMs;
  }
}

export const HOUR_MS = 3_600_000;

/** The whole UTC hours a request covers: from the hour holding `from` through `to`. */
export function hoursOf(from: number, to: number): number[] {
  const hours: number[] = [];
  for (let hour = Math.floor(from / HOUR_MS) * HOUR_MS; hour <= to; hour += HOUR_MS) hours.push(hour);
  return hours;
}
