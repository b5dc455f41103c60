// What every WebSocket stream of the service shares: the limits on client messages, the close codes
// a stream may end with and what a refused key hears (the shared messages' schemas are in
// schemas.ts). Streams add their own frames and codes. Nothing here loads TypeBox: stream
// processes run it.
import { PLANS } from '../../../common/plans.ts';
import type { KeyRejection } from '../http/auth.ts';

/** A client without an `Authorization` header must authenticate within this time. */
export const AUTH_TIMEOUT_MS = 5_000;

/** Client messages are small; a bigger one closes the connection with 1009. */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;

/** Binary, non-JSON or unknown messages each get an `error`; this many close the stream with 4400. */
export const MAX_PROTOCOL_ERRORS = 5;

export interface CloseCode {
  code: number;
  name: string;
  meaning: string;
  reconnect: 'no' | 'yes' | 'yes, with a long backoff';
}

export const STREAM_CLOSE = {
  normal: { code: 1000, name: 'normal', meaning: 'normal close (the client closed, or its close was answered)', reconnect: 'no' },
  shuttingDown: { code: 1001, name: 'shutting_down', meaning: 'the server is shutting down', reconnect: 'yes' },
  tooBig: { code: 1009, name: 'message_too_big', meaning: `a client message over ${MAX_CLIENT_MESSAGE_BYTES / 1024} KiB`, reconnect: 'no' },
  internal: { code: 1011, name: 'internal_error', meaning: 'the server could not check the key or the plan (storage or Redis unreachable)', reconnect: 'yes' },
  overloaded: { code: 1013, name: 'overloaded', meaning: 'the service is overloaded and serves production keys first: a development key is refused, and its open streams are closed once the overload has lasted `LAMIS_OVERLOAD_STREAM_CLOSE_SEC` (the reason starts with `overloaded` and says why: `in_flight`, `event_loop` or `ingest`)', reconnect: 'yes, with a long backoff' },
  protocol: { code: 4400, name: 'protocol_error', meaning: `protocol error: ${MAX_PROTOCOL_ERRORS} binary, non-JSON or unknown messages`, reconnect: 'no' },
  unauthorized: { code: 4401, name: 'unauthorized', meaning: 'authentication failed: the reason starts with `missing`, `malformed`, `unknown`, `expired` or `revoked`', reconnect: 'no' },
  planHasNoStreams: { code: 4403, name: 'plan_has_no_streams', meaning: "the organisation's plan has no streams (Starter)", reconnect: 'no' },
  timeout: { code: 4408, name: 'timeout', meaning: `no auth message within ${AUTH_TIMEOUT_MS / 1000} s, or the connection went idle or dead (no pong, no message for two heartbeat intervals)`, reconnect: 'yes' },
  streamCap: { code: 4429, name: 'stream_cap', meaning: `the organisation already holds its plan's concurrent streams (Pro: ${PLANS.pro.maxConcurrentStreams})`, reconnect: 'yes, with a long backoff' },
} as const satisfies Record<string, CloseCode>;

/** What a refused key hears: the problem's `detail`, and after the reason word the close frame's reason (at most 123 bytes). */
export const KEY_REFUSALS: Record<KeyRejection | 'missing' | 'bad_header', string> = {
  missing: 'send Authorization: Bearer <key> on the upgrade, or {"type":"auth","api_key":"<key>"} first',
  bad_header: 'the Authorization header must read Bearer <key>',
  malformed: 'the API key is malformed: its checksum does not match',
  unknown: 'the API key is not recognised',
  expired: 'the API key has expired',
  revoked: 'the API key has been revoked',
};
