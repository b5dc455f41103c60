// Public surface of the landing module: runway choice, approach, airport status, safety score,
// arrival capacity and slots. The rules are in RULES.md.
export { chooseRunway, windRegime, LIGHT_WIND_KT, TAILWIND_LIMIT_KT } from './runway.ts';
export type { RunwayChoice, RunwayChoiceInput, RunwayEndAssessment, WindRegime } from './runway.ts';
export { approachMinimaMet, recommendApproach, TYPICAL_MINIMA, VISUAL_MIN_CEILING_FT, VISUAL_MIN_VISIBILITY_SM } from './approach.ts';
export type { ApproachRecommendation, ApproachType, TypicalMinima } from './approach.ts';
export { airportStatus } from './status.ts';
export type { AirportStatus, AirportStatusInput, AirportStatusResult } from './status.ts';
export { daylight, safetyScore, SAFETY_POINTS, CIVIL_TWILIGHT_ALTITUDE_DEG, SUNRISE_ALTITUDE_DEG } from './safety.ts';
export type { Daylight, LightPeriod, SafetyFactor, SafetyFactorName, SafetyInput, SafetyScore } from './safety.ts';
export { capacityWeather, deriveCapacity, FLIGHT_CATEGORY_FACTORS } from './capacity.ts';
export type { CapacityWeather, DerivedCapacity, RunwayRate, RunwaySystem } from './capacity.ts';
export { SlotBook, slotHour } from './slots.ts';
export type { BookRequest, BookResult, CancelResult, SlotAvailability, SlotBooking } from './slots.ts';
export type * from './types.ts';
