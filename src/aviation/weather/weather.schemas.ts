// TypeBox schemas of decoded METARs and TAFs (types.ts), of the values derived from them
// (derive.ts) and of the reports as stored, as the weather routes serve them.
import { Type } from 'typebox';
import { nullable, Shared } from '../../platform/http/schema.ts';
import { CONDITION_ORDER, WIND_SHEAR_RULES } from './derive.ts';

const IsoTime = Type.String({ format: 'date-time' });
const Raw = Type.String({ description: 'The group as written' });

export const WeatherErrorSchema = Shared('WeatherError', Type.Object({
  code: Type.String({ description: 'Why the decoder refused it (`bad_pressure`, `unrecognised_group`...)' }),
  message: Type.String({ description: 'Starts with the code and quotes the group at fault' }),
}));

export const WindSchema = Shared('Wind', Type.Object({
  direction_deg: nullable(Type.Number({ description: 'Degrees true the wind blows from; null when variable (VRB)' })),
  variable: Type.Boolean(),
  speed_kt: Type.Number(),
  gust_kt: nullable(Type.Number()),
  variable_from_deg: nullable(Type.Number({ description: 'dddVddd range, clockwise from → to' })),
  variable_to_deg: nullable(Type.Number()),
  calm: Type.Boolean(),
  reported: Type.Object({
    unit: Type.Enum(['KT', 'MPS', 'KMH']),
    speed: Type.Number(),
    gust: nullable(Type.Number()),
    group: Raw,
  }, { description: 'Speeds as written, before conversion to knots' }),
}));

const VisibilitySchema = Shared('Visibility', Type.Object({
  statute_mi: Type.Number(),
  metres: Type.Number(),
  nm: Type.Number(),
  lower_bound: Type.Boolean({ description: 'The visibility is at least this (P6SM, 9999, CAVOK)' }),
  upper_bound: Type.Boolean({ description: 'The visibility is below this (M1/4SM)' }),
  unit: Type.Enum(['SM', 'm']),
  reported: Raw,
  no_directional_variation: Type.Boolean(),
}));

const PhenomenonSchema = Shared('WeatherPhenomenon', Type.Object({
  intensity: Type.Enum(['light', 'moderate', 'heavy']),
  in_vicinity: Type.Boolean(),
  descriptor: nullable(Type.String({ description: 'MI, PR, BC, DR, BL, SH, TS, FZ' })),
  phenomena: Type.Array(Type.String(), { description: 'Two-letter codes: RA, SN, FG, BR...' }),
  raw: Raw,
}));

const CloudSchema = Shared('CloudLayer', Type.Object({
  cover: nullable(Type.Enum(['FEW', 'SCT', 'BKN', 'OVC'])),
  base_ft: nullable(Type.Number()),
  type: nullable(Type.Enum(['CB', 'TCU'])),
  raw: Raw,
}));

const WindShearGroupSchema = Shared('WindShearGroup', Type.Object({
  runway: nullable(Type.String()),
  all_runways: Type.Boolean(),
  phase: nullable(Type.Enum(['takeoff', 'landing'])),
  height_ft: nullable(Type.Number({ description: 'TAF WShhh/dddffKT: the top of the shear layer' })),
  wind_at_height: nullable(Type.Object({ direction_deg: Type.Number(), speed_kt: Type.Number() })),
  raw: Raw,
}));

const skyFields = {
  wind: nullable(WindSchema),
  visibility: nullable(VisibilitySchema),
  weather: Type.Array(PhenomenonSchema),
  clouds: Type.Array(CloudSchema),
  sky_clear_code: nullable(Type.Enum(['CAVOK', 'SKC', 'CLR', 'NSC', 'NCD'])),
  vertical_visibility_ft: nullable(Type.Number()),
  sky_obscured: Type.Boolean(),
  ceiling_ft: nullable(Type.Number({ description: 'Lowest BKN/OVC base or vertical visibility' })),
  ceiling_uncertain: Type.Boolean({ description: 'A BKN/OVC layer or VV of unknown height was reported: the ceiling may be lower' }),
  wind_shear: Type.Array(WindShearGroupSchema),
};

const TafForecastSchema = Shared('TafForecast', Type.Object({
  change: Type.Enum(['BASE', 'FM', 'BECMG', 'TEMPO', 'INTER', 'PROB']),
  probability: nullable(Type.Integer()),
  from: IsoTime,
  to: IsoTime,
  ...skyFields,
  no_significant_weather: Type.Boolean(),
  raw: Type.String(),
}));

export const MetarSchema = Shared('Metar', Type.Object({
  raw: Type.String(),
  type: Type.Enum(['METAR', 'SPECI']),
  station: Type.String(),
  observed_at: IsoTime,
  auto: Type.Boolean(),
  corrected: Type.Boolean(),
  ...skyFields,
  visibility_minimum: nullable(Type.Object({ metres: Type.Number(), direction: nullable(Type.String()) })),
  runway_visual_ranges: Type.Array(Type.Object({
    runway: Type.String(),
    min: nullable(Type.Number()),
    max: nullable(Type.Number()),
    unit: Type.Enum(['m', 'ft']),
    below_min: Type.Boolean(),
    above_max: Type.Boolean(),
    trend: nullable(Type.Enum(['up', 'down', 'no_change'])),
    raw: Raw,
  })),
  recent_weather: Type.Array(PhenomenonSchema),
  temperature_c: nullable(Type.Number()),
  dewpoint_c: nullable(Type.Number()),
  altimeter: nullable(Type.Object({ hpa: Type.Number(), inhg: Type.Number(), reported_unit: Type.Enum(['hPa', 'inHg']) })),
  runway_states: Type.Array(Type.Object({
    runway: Type.String({ description: 'Designator, ALL (88) or REPEAT (99)' }),
    cleared: Type.Boolean(),
    closed_by_snow: Type.Boolean(),
    deposit: nullable(Type.String()),
    coverage: nullable(Type.String()),
    depth_mm: nullable(Type.Number()),
    not_operational: Type.Boolean(),
    friction_coefficient: nullable(Type.Number()),
    braking_action: nullable(Type.Enum(['poor', 'medium_poor', 'medium', 'medium_good', 'good', 'unreliable'])),
    raw: Raw,
  })),
  sky_reported: Type.Boolean({ description: 'false: no cloud layer, clear-sky code or vertical visibility in the report, so the ceiling is unknown (a null ceiling_ft is then not "no ceiling")' }),
  remarks: Type.Object({
    raw: nullable(Type.String({ description: 'Everything after RMK' })),
    peak_wind: nullable(Type.Object({ direction_deg: Type.Number(), speed_kt: Type.Number(), time: Type.String(), raw: Raw })),
    wind_shift: nullable(Type.Object({ time: Type.String(), frontal_passage: Type.Boolean(), raw: Raw })),
    low_level_wind_shear: nullable(Type.String()),
    decoded: Type.Array(Type.String(), { description: 'Plain-language decode of the remarks' }),
  }),
  trends: Type.Array(Type.Object({
    type: Type.Enum(['NOSIG', 'BECMG', 'TEMPO', 'INTER']),
    raw: Type.String(),
    forecast: Type.Union([TafForecastSchema, Type.Null()], {
      description: 'BECMG, TEMPO or INTER decoded as a forecast group: its period within the two hours after the observation (FM, TL, AT narrow it), its wind, visibility, weather and cloud; null for NOSIG and for a trend LAMIS could not read, of which nothing is assumed',
    }),
  }), {
    description: 'Each trend keyword with its groups up to the next keyword or RMK, as written, and decoded',
  }),
  missing_groups: Type.Array(Type.String(), { description: 'All-slash groups: elements the station could not measure' }),
  unparsed_groups: Type.Array(Type.String(), { description: 'Groups LAMIS does not decode: after the temperature (QFE, colour states), and after NOSIG, which takes none' }),
  invalid_groups: Type.Array(WeatherErrorSchema, { description: 'Malformed groups skipped; their elements read as unknown' }),
}));

export const TafSchema = Shared('Taf', Type.Object({
  raw: Type.String(),
  station: Type.String(),
  issued_at: IsoTime,
  valid_from: IsoTime,
  valid_to: IsoTime,
  amended: Type.Boolean(),
  corrected: Type.Boolean(),
  forecasts: Type.Array(TafForecastSchema, { description: 'The BASE forecast, then the change groups in report order' }),
  low_level_wind_shear: nullable(Type.String()),
  unparsed_groups: Type.Array(Type.String()),
}));

const FlightCategorySchema = nullable(Type.Enum(['VFR', 'MVFR', 'IFR', 'LIFR'], {
  description: 'FAA flight category; null when unknown: no visibility, or (METAR) no sky group and a visibility of 1 SM or more',
}));
const VisibilityNmSchema = nullable(Type.Object({ nm: Type.Number(), lower_bound: Type.Boolean(), upper_bound: Type.Boolean() }));
export const ConditionsSchema = Type.Array(Type.Enum([...CONDITION_ORDER]), { description: 'Every condition that applies, the headline first' });
const RiskLevel = Type.Enum(['LOW', 'MODERATE', 'HIGH', 'SEVERE']);

export const WindShearReasonSchema = Shared('WindShearReason', Type.Object({
  rule: Type.Enum(Object.keys(WIND_SHEAR_RULES) as (keyof typeof WIND_SHEAR_RULES)[]),
  level: RiskLevel,
  detail: Type.String(),
}));

export const MetarDerivedSchema = Shared('MetarDerived', Type.Object({
  flight_category: FlightCategorySchema,
  flight_category_at_best: nullable(Type.Enum(['VFR', 'MVFR', 'IFR', 'LIFR'], {
    description: 'The best category the report allows: flight_category, or with no sky group the visibility\'s alone (the true one is that or worse)',
  })),
  visibility_nm: VisibilityNmSchema,
  ceiling_ft: nullable(Type.Number()),
  conditions: ConditionsSchema,
  wind: nullable(WindSchema),
  wind_shear_risk: Type.Object({
    level: RiskLevel,
    reasons: Type.Array(WindShearReasonSchema),
    unknown_inputs: Type.Array(Type.Enum(['wind', 'taf']), { description: 'Inputs that were unknown, so the level may understate the risk' }),
  }, { description: 'Reads the latest TAF too when one is held' }),
  runway_wind: Type.Array(Type.Object({
    runway: Type.String(),
    true_heading_deg: Type.Number(),
    headwind_kt: nullable(Type.Number({ description: 'Mean wind along the runway; negative is a tailwind; null for VRB' })),
    crosswind_kt: nullable(Type.Number({ description: 'Positive from the right' })),
    crosswind_from: nullable(Type.Enum(['left', 'right'])),
    worst_headwind_kt: Type.Number({ description: 'At gust speed over the reported direction range' }),
    worst_crosswind_kt: Type.Number(),
  }), { description: 'Wind components for each runway end; empty without a wind group' }),
}));

const TafPeriodSchema = Type.Object({
  flight_category: FlightCategorySchema,
  visibility_nm: VisibilityNmSchema,
  ceiling_ft: nullable(Type.Number()),
  conditions: ConditionsSchema,
  wind: nullable(WindSchema),
});

export const TafDerivedSchema = Shared('TafDerived', Type.Object({
  at: Type.String({ format: 'date-time', description: 'The time the TAF was read for: now' }),
  in_validity: Type.Boolean({ description: 'Whether the TAF is valid now; when false, `prevailing` is null and `changes` empty' }),
  prevailing: nullable(TafPeriodSchema),
  changes: Type.Array(Type.Object({
    change: Type.Enum(['BECMG', 'TEMPO', 'INTER', 'PROB']),
    probability: nullable(Type.Integer()),
    from: IsoTime,
    to: IsoTime,
    flight_category: FlightCategorySchema,
    conditions: ConditionsSchema,
    raw: Type.String(),
  }), { description: 'TEMPO, INTER and PROB groups in force now, and BECMG groups in transition' }),
  wind_shear: Type.Array(WindShearGroupSchema),
}));

export const storedFields = {
  icao: Type.String(),
  source: Type.Enum(['live', 'simulated', 'operator'], { description: 'live feed, built-in simulator, or pushed by an operator' }),
  raw: Type.String(),
  observed_at: Type.String({ format: 'date-time', description: 'Observation time of a METAR, issue time of a TAF' }),
  received_at: Type.String({ format: 'date-time', description: 'When the report last came in from its source' }),
  checked_at: Type.String({ format: 'date-time', description: 'When LAMIS last confirmed with the source that nothing newer exists' }),
  age_s: Type.Integer({ description: 'Seconds since checked_at' }),
  observation_age_s: Type.Integer({ description: 'Seconds since observed_at' }),
  freshness: Type.Enum(['live', 'recent', 'stale'], { description: 'live: confirmed under a minute ago; recent: up to five minutes; then stale' }),
  decode_error: nullable(WeatherErrorSchema),
  disclaimer: Type.String(),
};

export const MetarReportSchema = Shared('MetarReport', Type.Object({
  ...storedFields,
  kind: Type.Literal('metar'),
  decoded: nullable(MetarSchema),
  derived: nullable(MetarDerivedSchema),
}));

export const TafReportSchema = Shared('TafReport', Type.Object({
  ...storedFields,
  kind: Type.Literal('taf'),
  decoded: nullable(TafSchema),
  derived: nullable(TafDerivedSchema),
}));
