// Public surface of the NOTAM module.

export { parseNotam } from './parse.ts';
export { parseIcaoNotam } from './icao.ts';
export { parseFaaNotam, FAA_KEYWORDS } from './faa.ts';
export { MAX_NOTAM_LENGTH } from './common.ts';
export { deriveEffects, expandRunways, runwaysIn } from './effects.ts';
export type { EffectInput } from './effects.ts';
export { activeInWindow, activeIntervals, isActiveAt, parseSchedule } from './schedule.ts';
export type {
  ActiveInterval,
  ActivityOptions,
  DailyPeriod,
  DaySelection,
  Instant,
  Schedule,
  ScheduleInput,
  ScheduleParse,
  ScheduleRule,
  TimeOfDay,
} from './schedule.ts';
export { approximateSunTimes } from './sun.ts';
export type { SunTimes, SunTimesProvider } from './sun.ts';
export {
  CONDITIONS,
  PURPOSE_MEANINGS,
  SCOPE_MEANINGS,
  SUBJECTS,
  TRAFFIC_MEANINGS,
  decodeCondition,
  decodeSubject,
} from './qcodes.ts';
export type * from './types.ts';
