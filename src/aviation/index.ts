// What the service and other features may use of aviation: the feature and its migrations, the
// topic announcing stored METARs, TAFs and NOTAMs, the landing answers for watchers, the
// aircraft type table and the landing figures it gives, the wind shear levels of the weather
// rules, what landing intelligence asks of fleets, the tailwind it allows on a recommended runway,
// its ETA window and problems, which planned arrivals share, the airport data `lamis data sync`
// downloads and the navigation data `lamis import` reads.
export { aviation } from './feature.ts';
export { aviationMigrations } from './migrations/index.ts';
export { aviationInputs, type AviationInput } from './inputs.ts';
export { LandingWatch, type AirportAnswers, type AirportNow, type SourceFreshness, type WatchedAnswer, type WatchedLanding } from './landing/watch.ts';
export type { RunwayChoice } from './landing/runway.ts';
export { slotHour, type SlotHours } from './landing/slots.ts';
export { restrictionCode } from './landing/conditions.ts';
export type { LandingIntelligence } from './landing/landing.schemas.ts';
export { TAILWIND_LIMIT_KT } from './landing/runway.ts';
export { aircraftType, CONSERVATIVE_DEFAULTS, LANDING_DISTANCE_FACTOR } from './reference/aircraft-types.ts';
export type { LandingProfile } from './reference/aircraft-types.ts';
export type { FleetProfiles } from './services.ts';
export type { WindShearRiskLevel } from './weather/index.ts';
export { ETA_MAX_AHEAD_MS, ETA_PAST_TOLERANCE_MS, etaOutOfRange, vehicleCannotLand } from './landing/landing.routes.ts';
export { AIRPORT_SYNC_SOURCES } from './reference/ourairports-sync.ts';
export { NAVDATA_IMPORTERS } from './navdata/navdata-import.ts';
