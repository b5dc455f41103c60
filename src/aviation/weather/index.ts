// Public API of the aviation weather module: METAR/TAF decoding and the values derived from them.
export { parseMetar, TREND_VALID_MIN } from './metar.ts';
export type { ParseOptions } from './metar.ts';
export { parseTaf, tafConditionsAt } from './taf.ts';
export type { TafConditions, TafConditionsResult, TafParseOptions } from './taf.ts';
export {
  conditions,
  CONDITION_ORDER,
  deriveWeather,
  flightCategory,
  flightCategoryAtBest,
  forecastWindShearRisk,
  visibilityNm,
  WIND_SHEAR_RULES,
  windComponents,
  windShearRisk,
} from './derive.ts';
export type {
  Condition,
  DerivedWeather,
  DeriveOptions,
  FlightCategory,
  NauticalVisibility,
  WindComponents,
  WindShearOptions,
  WindShearReason,
  WindShearRisk,
  WindShearRiskLevel,
  WindShearRule,
} from './derive.ts';
export type * from './types.ts';
export { OBSERVATION_VALID_MIN, weatherAtEta, windShearAtEta } from './at-eta.ts';
export type { ForecastPeriod, WeatherAtEta, WeatherAtEtaInput, WeatherBasis } from './at-eta.ts';
