// What the service and other features may use of aviation: the feature and its migrations, the
// aircraft type table and the landing figures it gives, the wind shear levels of the weather
// rules, and what landing intelligence asks of fleets.
export { aviation } from './feature.ts';
export { aviationMigrations } from './migrations/index.ts';
export { aircraftType, CONSERVATIVE_DEFAULTS, LANDING_DISTANCE_FACTOR } from './reference/aircraft-types.ts';
export type { LandingProfile } from './reference/aircraft-types.ts';
export type { FleetProfiles } from './services.ts';
export type { WindShearRiskLevel } from './weather/index.ts';
