// What every WebSocket stream of the service shares: the authentication message, the client
// heartbeat, the limits on client messages and the close codes a stream may end with. Streams add
// their own frames and codes; these schemas are also the AsyncAPI document's payloads.
import { Type, type Static } from 'typebox';
import { Compile } from 'typebox/compile';
import { PLANS } from '../../../common/plans.ts';

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

export const AuthMessageSchema = Type.Object({
  type: Type.Literal('auth'),
  api_key: Type.String({ minLength: 1, maxLength: 512, description: 'An API key, as it would follow `Bearer `' }),
}, {
  additionalProperties: false,
  description: `The first message of a client that sent no \`Authorization\` header (browsers), within ${AUTH_TIMEOUT_MS / 1000} s of opening.`,
});

export const HeartbeatMessageSchema = Type.Object({ type: Type.Literal('heartbeat') }, {
  additionalProperties: false,
  description: 'Client keepalive; any message (or a WebSocket pong) shows the connection is alive.',
});

export const HeartbeatData = Type.Object({ time: Type.String({ format: 'date-time', description: 'Server time' }) });

export type AuthMessage = Static<typeof AuthMessageSchema>;

const authMessage = Compile(AuthMessageSchema);

/** The `auth` message in a client's first text, or null for anything else. */
export function readAuthMessage(text: string): AuthMessage | null {
  try {
    const message: unknown = JSON.parse(text);
    return authMessage.Check(message) ? message : null;
  } catch {
    return null;
  }
}
