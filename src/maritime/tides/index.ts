// Public surface of the tides module: stations, water levels, high/low waters and tidal windows.
export { TideInputError } from './errors.ts';
export { commercialUseAllowed } from './station-lookup.ts';
export {
  DEFAULT_MAX_DISTANCE_NM,
  loadTideStations,
  MAX_DISTANCE_LIMIT_NM,
} from './stations.ts';
export type { NearestOptions, StationMatch, TideStation, TideStationIndex, TideStationLicence } from './stations.ts';
export { DEFAULT_STEP_MINUTES, MAX_PERIOD_DAYS, MAX_STEP_MINUTES, predictExtremes, predictTimeline } from './predict.ts';
export type { TideAnswer, TideExtreme, TideExtremes, TideQuery, TideTimeline, TimelineQuery, WaterLevel } from './predict.ts';
export { defaultUkcM, MAX_DRAUGHT_M, MIN_DEFAULT_UKC_M, tidalWindows, UKC_FRACTION_OF_DRAUGHT } from './windows.ts';
export type { TidalWindow, TidalWindows, TidalWindowsQuery } from './windows.ts';
