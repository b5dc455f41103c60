// Weather holds: the hours a port's operating limits are exceeded, joined into periods, each with
// the factor or factors that hold it and how far beyond its limit each went.
//
// Default limits by harbour size (World Port Index), for when neither an operator of the instance
// nor the caller's organisation has set the port's own. They are LAMIS's choice, not any port
// authority's: typical figures at which pilotage, berthing or cargo work is suspended, stricter for
// smaller harbours (narrower entrances, fewer tugs, less shelter). A port's own rules always win.
//
//   harbour size   wind (mean)   gust    significant wave height   visibility below
//   large          35 kn         45 kn   3.5 m                      500 m
//   medium         30 kn         40 kn   3.0 m                      800 m
//   small          25 kn         35 kn   2.5 m                      1,000 m
//   very small     22 kn         30 kn   2.0 m                      1,000 m
//   unknown        as small
//
// At a poorly sheltered berth a moored ship ranges and cargo work stops sooner: with the WPI's
// shelter "poor" the wind and gust limits are 3 kn lower, with "none" 5 kn lower. The wave limit
// is judged against the sea state at the port (exposure.ts), which is where shelter counts most.
//
// An hour is held when its wind, gust or wave height is above its limit, or its visibility below
// its limit; a value the forecast lacks (waves over land) holds nothing. Each forecast hour stands
// for the hour that follows it, so a hold runs from its first held hour to the end of its last,
// cut to the period asked for; each factor's hours are counted within that cut too, so a factor
// beyond its limit throughout a hold has exactly the hold's duration.
import type { HarbourSize, Port, Shelter } from '../ports/ports.ts';
import { shelterText } from './exposure.ts';
import { HOUR_MS, type WeatherHour } from './model.ts';

export type HoldFactor = 'wind' | 'gust' | 'waves' | 'visibility';
export const HOLD_FACTORS: readonly HoldFactor[] = ['wind', 'gust', 'waves', 'visibility'];

export interface WeatherThresholds {
  wind_kn: number;
  gust_kn: number;
  wave_height_m: number;
  visibility_m: number;
}
export type ThresholdName = keyof WeatherThresholds;
export const THRESHOLD_NAMES: readonly ThresholdName[] = ['wind_kn', 'gust_kn', 'wave_height_m', 'visibility_m'];

export const DEFAULT_THRESHOLDS: Readonly<Record<HarbourSize | 'unknown', Readonly<WeatherThresholds>>> = {
  large: { wind_kn: 35, gust_kn: 45, wave_height_m: 3.5, visibility_m: 500 },
  medium: { wind_kn: 30, gust_kn: 40, wave_height_m: 3, visibility_m: 800 },
  small: { wind_kn: 25, gust_kn: 35, wave_height_m: 2.5, visibility_m: 1000 },
  very_small: { wind_kn: 22, gust_kn: 30, wave_height_m: 2, visibility_m: 1000 },
  unknown: { wind_kn: 25, gust_kn: 35, wave_height_m: 2.5, visibility_m: 1000 },
};

const SHELTER_WIND_ADJUSTMENT_KN: Readonly<Record<Shelter, number>> = { excellent: 0, good: 0, fair: 0, poor: -3, none: -5 };

/** The default limits at a port, by its harbour size and shelter, and what they are for. */
export function defaultThresholds(port: Pick<Port, 'harbour_size' | 'shelter'>): { values: WeatherThresholds; basis: string } {
  const size = port.harbour_size ?? 'unknown';
  const values = { ...DEFAULT_THRESHOLDS[size] };
  const adjustment = port.shelter === null ? 0 : SHELTER_WIND_ADJUSTMENT_KN[port.shelter];
  values.wind_kn += adjustment;
  values.gust_kn += adjustment;
  const shelter = port.shelter === null ? '' : `, ${shelterText(port.shelter)}${adjustment === 0 ? '' : ` (wind and gust ${adjustment} kn)`}`;
  return { values, basis: `${size}${shelter}` };
}

interface FactorRule {
  threshold: ThresholdName;
  value: (hour: WeatherHour) => number | null;
  /** Whether a value beyond the limit is above it (wind) or below it (visibility). */
  above: boolean;
  unit: string;
}

const RULES: Readonly<Record<HoldFactor, FactorRule>> = {
  wind: { threshold: 'wind_kn', value: (hour) => hour.wind_speed_kn, above: true, unit: 'kn' },
  gust: { threshold: 'gust_kn', value: (hour) => hour.gust_kn, above: true, unit: 'kn' },
  waves: { threshold: 'wave_height_m', value: (hour) => hour.wave_height_m, above: true, unit: 'm' },
  visibility: { threshold: 'visibility_m', value: (hour) => hour.visibility_m, above: false, unit: 'm' },
};

export interface LimitingFactor {
  factor: HoldFactor;
  threshold: number;
  unit: string;
  /** The value furthest beyond the limit during the hold, and its hour. */
  worst: number;
  worst_at: string;
  /** Hours of the hold in which this factor was beyond its limit (within the period asked for). */
  hours: number;
}

export interface WeatherHold {
  start: string;
  end: string;
  duration_hours: number;
  /** Most hours first. */
  limiting: LimitingFactor[];
}

/** The factors beyond their limits in one hour. */
export function exceeded(hour: WeatherHour, thresholds: WeatherThresholds): HoldFactor[] {
  return HOLD_FACTORS.filter((factor) => {
    const rule = RULES[factor];
    const value = rule.value(hour);
    if (value === null) return false;
    const limit = thresholds[rule.threshold];
    return rule.above ? value > limit : value < limit;
  });
}

/** Hold periods within [from, to] from hourly forecasts in time order. */
export function weatherHolds(hours: readonly WeatherHour[], thresholds: WeatherThresholds, from: number, to: number): WeatherHold[] {
  const holds: WeatherHold[] = [];
  let open: { start: number; end: number; factors: Map<HoldFactor, LimitingFactor> } | null = null;
  const hoursIn = (ms: number) => Math.round((ms / HOUR_MS) * 100) / 100;
  const close = () => {
    if (open === null) return;
    const start = Math.max(from, open.start);
    const end = Math.min(to, open.end);
    if (end > start) {
      holds.push({
        start: new Date(start).toISOString(),
        end: new Date(end).toISOString(),
        duration_hours: hoursIn(end - start),
        limiting: [...open.factors.values()].sort((a, b) => b.hours - a.hours || HOLD_FACTORS.indexOf(a.factor) - HOLD_FACTORS.indexOf(b.factor)),
      });
    }
    open = null;
  };
  for (const hour of hours) {
    const time = Date.parse(hour.time);
    // An hour that stands for time outside the period holds nothing in it.
    if (time >= to || time + HOUR_MS <= from) continue;
    const factors = exceeded(hour, thresholds);
    // The part of this hour inside the period.
    const within = Math.min(to, time + HOUR_MS) - Math.max(from, time);
    if (factors.length === 0 || (open !== null && open.end < time)) close();
    if (factors.length === 0) continue;
    open ??= { start: time, end: time + HOUR_MS, factors: new Map() };
    open.end = time + HOUR_MS;
    for (const factor of factors) {
      const rule = RULES[factor];
      const value = rule.value(hour)!;
      const known = open.factors.get(factor);
      if (known === undefined) {
        open.factors.set(factor, { factor, threshold: thresholds[rule.threshold], unit: rule.unit, worst: value, worst_at: hour.time, hours: within });
        continue;
      }
      known.hours += within;
      if (rule.above ? value > known.worst : value < known.worst) {
        known.worst = value;
        known.worst_at = hour.time;
      }
    }
  }
  close();
  for (const hold of holds) for (const factor of hold.limiting) factor.hours = hoursIn(factor.hours);
  return holds;
}
