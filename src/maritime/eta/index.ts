// Public surface of arrival prediction. Other features (expected arrivals) call predictArrival, or
// the bound `predictArrival` the maritime feature builds with its weather source and track reader.
export { registerEtaRoutes, vesselPositionUnknown, vesselSpeedUnknown } from './eta.routes.ts';
export type { EtaApiDeps } from './eta.routes.ts';
export {
  beaufortFromWaveHeight,
  beaufortFromWind,
  directionCoefficient,
  formCoefficient,
  froudeNumber,
  MAX_LOSS_PERCENT,
  relativeWeatherAngle,
  sectorOf,
  speedCoefficient,
  speedLoss,
} from './kwon.ts';
export type { HullForm, LoadingCondition, SpeedLoss, SpeedLossInput, WeatherSector } from './kwon.ts';
export { LEG_NM, MAX_LEGS, MAX_SPEED_KN, MIN_SPEED_KN, predictArrival } from './predict.ts';
export type { ArrivalDeps, ArrivalErrorCode, ArrivalLeg, ArrivalPrediction, ArrivalRequest, ArrivalResult } from './predict.ts';
export { hullModel } from './ship.ts';
export type { HullModel } from './ship.ts';
export { observedSpeed, SPEED_WINDOW_MS, UNDER_WAY_MIN_KN } from './speed.ts';
export type { ObservedSpeed, SpeedSample } from './speed.ts';
