// @lamis/sdk: a typed client for LAMIS, the Landing and Maritime Intelligence Service.
export { DEFAULT_TIMEOUT_MS, DEFAULT_URL, LamisClient } from './client.ts';
export type { EventsApi, LamisClientOptions, LamisResponse, RequestOptions, VesselsApi, WebhooksApi, ZonesApi } from './client.ts';
export {
  apiError,
  LamisApiError,
  LamisConnectionError,
  LamisError,
  LamisForbiddenError,
  LamisNotFoundError,
  LamisRateLimitError,
  LamisTimeoutError,
  LamisUnauthorizedError,
  problemFrom,
} from './errors.ts';
export { parseRateLimit, parseRetryAfter } from './rate-limit.ts';
export type { RateLimitInfo } from './rate-limit.ts';
export {
  FINAL_CLOSE_CODES,
  LamisStreamClosedError,
  LamisStreamError,
  LONG_BACKOFF_CLOSE_CODES,
  STREAM_PATH,
  StreamClient,
  streamUrl,
} from './stream.ts';
export type {
  CloseInfo,
  ReconnectingInfo,
  ReconnectOptions,
  StreamClientOptions,
  StreamEvents,
  StreamState,
  WebSocketFactory,
  WebSocketLike,
} from './stream.ts';
export { EVENT_STREAM_PATH, EventStreamClient } from './event-stream.ts';
export type {
  EventAlert,
  EventStreamClientOptions,
  EventStreamErrorInfo,
  EventStreamEvents,
  EventStreamReadyInfo,
  EventStreamResumedInfo,
  FleetFeedUpdate,
} from './event-stream.ts';
export { AIS_STREAM_CLOSE_CODES, EVENT_STREAM_CLOSE_CODES } from './generated/stream.ts';
export type * from './stream-types.ts';
export type * from './types.ts';
