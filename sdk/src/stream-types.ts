// Short names for the AIS stream's frames. Each is a view of the types generated from the server's
// AsyncAPI document (generated/stream.ts), never a second definition.
import type {
  AisStreamError,
  AisStreamHeartbeat,
  AisStreamPosition,
  AisStreamReady,
  AisStreamStatic,
  AisStreamSubscribe,
  AisStreamSubscribed,
} from './generated/stream.ts';

export type { AisStreamChannel, StreamChannels } from './generated/stream.ts';

/** What to receive. Kinds combine with AND, values of one kind with OR; `{}` means every vessel. */
export type SubscribeFilters = Omit<AisStreamSubscribe, 'type'>;
/** Degrees; a box with minLon > maxLon crosses the antimeridian. */
export type BoundingBox = NonNullable<SubscribeFilters['bbox']>;
/** The filter in force, normalised by the server (every kind present, the interval filled in). */
export type SubscribedFilter = AisStreamSubscribed['data'];
/** The admitted stream: organisation, plan, limits and heartbeat interval. */
export type ReadyInfo = AisStreamReady['data'];
export type PositionUpdate = AisStreamPosition['data'];
export type StaticUpdate = AisStreamStatic['data'];
export type StreamErrorInfo = AisStreamError['data'];
export type HeartbeatInfo = AisStreamHeartbeat['data'];
