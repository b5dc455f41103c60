// The schemas every WebSocket stream shares: the authentication message, the client heartbeat and
// the server's heartbeat data. They are the AsyncAPI document's payloads, and the JSON Schemas
// client messages are checked against (client-messages.ts).
import { Type, type Static } from 'typebox';
import { AUTH_TIMEOUT_MS } from './protocol.ts';

export const AuthMessageSchema = Type.Object({
  type: Type.Literal('auth'),
  api_key: Type.String({ minLength: 1, maxLength: 512, description: 'An API key, as it would follow `Bearer `' }),
}, {
  additionalProperties: false,
  description: `The first message of a client that sent no \`Authorization\` header (browsers), within ${AUTH_TIMEOUT_MS / 1000} s of opening.`,
});

export type AuthMessage = Static<typeof AuthMessageSchema>;

export const HeartbeatMessageSchema = Type.Object({ type: Type.Literal('heartbeat') }, {
  additionalProperties: false,
  description: 'Client keepalive; any message (or a WebSocket pong) shows the connection is alive.',
});

export const HeartbeatData = Type.Object({ time: Type.String({ format: 'date-time', description: 'Server time' }) });
