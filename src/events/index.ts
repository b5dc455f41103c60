// What the service and other features may use of events: the feature, the store rules raise and
// clear events through, the topic of their changes, the hysteresis of threshold rules, and the
// migrations.
export { events } from './feature.ts';
export {
  EVENT_KINDS, EventStore, dedupeKey, eventChanges, type EventChange, type EventKind, type EventSubject, type LamisEvent, type NewEvent,
  type EventChanges, type Severity, type Transition,
} from './events.ts';
export { crossing, crossingFor, DEAD_BANDS, type DeadBand, type Edge } from './hysteresis.ts';
export { eventsMigrations } from './migrations/index.ts';
