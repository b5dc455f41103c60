// Alert thresholds of the notification settings: a fixed set, each optional (absent: no alert of
// that kind). Organisation-wide settings apply to every vehicle; a vehicle's own settings replace
// them key by key. The schemas here are both the validation and the API description.
import { Type, type Static } from 'typebox';
import { Value } from 'typebox/value';
import type { WindShearRiskLevel } from '../aviation/index.ts';
import { Issues } from './validation.ts';

export const WIND_SHEAR_LEVELS = ['LOW', 'MODERATE', 'HIGH', 'SEVERE'] as const satisfies readonly WindShearRiskLevel[];

/** Each threshold with what it must be, worded for error messages. */
const RULES = {
  safety_score_below: {
    schema: Type.Integer({ minimum: 0, maximum: 100, description: 'Alert when a landing safety score falls below this (0–100)' }),
    expected: 'an integer from 0 to 100',
  },
  crosswind_kt_above: {
    schema: Type.Number({ minimum: 0, maximum: 100, description: 'Alert when the crosswind on the recommended runway exceeds this many knots, gusts included' }),
    expected: 'a number of knots from 0 to 100',
  },
  wind_shear_at_least: {
    schema: Type.Enum([...WIND_SHEAR_LEVELS], { description: 'Alert when the wind shear risk at the destination reaches this level' }),
    expected: `one of ${WIND_SHEAR_LEVELS.join(', ')}`,
  },
  visibility_nm_below: {
    schema: Type.Number({ minimum: 0, maximum: 50, description: 'Alert when the visibility at the destination falls below this many nautical miles' }),
    expected: 'a number of nautical miles from 0 to 50',
  },
  weather_hold: {
    schema: Type.Boolean({ description: 'true: alert when the forecast holds a vessel\'s destination port (the one its AIS destination names) within the forecast horizon' }),
    expected: 'true or false',
  },
  eta_delay_minutes_above: {
    schema: Type.Integer({ minimum: 1, maximum: 1440, description: 'Alert when a vessel\'s predicted ETA is later than the ETA it reports in AIS by more than this many minutes (1–1440)' }),
    expected: 'an integer from 1 to 1440',
  },
} as const;

export const THRESHOLD_NAMES = Object.keys(RULES) as (keyof typeof RULES)[];

export const ThresholdsSchema = Type.Object({
  safety_score_below: Type.Optional(RULES.safety_score_below.schema),
  crosswind_kt_above: Type.Optional(RULES.crosswind_kt_above.schema),
  wind_shear_at_least: Type.Optional(RULES.wind_shear_at_least.schema),
  visibility_nm_below: Type.Optional(RULES.visibility_nm_below.schema),
  weather_hold: Type.Optional(RULES.weather_hold.schema),
  eta_delay_minutes_above: Type.Optional(RULES.eta_delay_minutes_above.schema),
}, { description: `Alert thresholds; each is optional (absent: no such alert). Known: ${THRESHOLD_NAMES.join(', ')}` });
export type Thresholds = Static<typeof ThresholdsSchema>;

const isName = (key: string): key is keyof typeof RULES => Object.hasOwn(RULES, key);

/** The thresholds in `input`, checked; throws FleetValidationError naming each bad or unknown key under `path`. */
export function validateThresholds(input: unknown, path = 'thresholds'): Thresholds {
  const issues = new Issues();
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    issues.add(path, `must be an object of thresholds (${THRESHOLD_NAMES.join(', ')})`);
    issues.check();
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    if (!isName(key)) {
      issues.add(`${path}/${key}`, `is not a known threshold; the known ones are ${THRESHOLD_NAMES.join(', ')}`);
    } else if (!Value.Check(RULES[key].schema, value)) {
      issues.add(`${path}/${key}`, `must be ${RULES[key].expected} (leave it out for no such alert)`);
    } else {
      out[key] = value;
    }
  }
  issues.check();
  return out as Thresholds;
}
