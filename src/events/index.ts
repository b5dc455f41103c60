// What the service and other features may use of events: the feature, the store rules raise and
// clear events through, the topic of their changes, the hook that joins their transactions, the
// hysteresis of threshold rules, the fleet feed's entry and the way its frames reach the event
// stream, the migrations, and the settings (the retention others keep to).
export { events } from './feature.ts';
export {
  EVENT_KINDS, EventStore, eventChanges, onEventTransition, ownerOf, SEVERITIES, type Change, type EventChange,
  type EventChanges, type EventKind, type EventSubject, type LamisEvent, type NewEvent, type Severity, type Transition,
} from './events.ts';
export { crossing, crossingFor, DEAD_BANDS, type DeadBand, type Edge } from './hysteresis.ts';
export { FeedFrames } from './feed-frames.ts';
export { FEED_FRAME_INTERVAL_SEC } from './stream.schemas.ts';
export { FleetFeedEntrySchema, type FleetFeedEntry } from './fleet-feed.schemas.ts';
export { eventsMigrations } from './migrations/index.ts';
export type { EventsSettings } from './settings.ts';
