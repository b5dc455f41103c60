// The WebSocket streams' shared machinery: upgrades, authentication, plan leases, heartbeats and
// close codes; each stream brings its frames and its session. What a stream process runs imports
// its modules directly (session.ts, protocol.ts, client-messages.ts, wire.ts): this index also
// carries the schemas, and with them TypeBox.
export { ClientMessages, type ClientMessageSchemas, type MessageIssue } from './client-messages.ts';
export { AUTH_TIMEOUT_MS, MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS, STREAM_CLOSE, type CloseCode } from './protocol.ts';
export { AuthMessageSchema, HeartbeatData, HeartbeatMessageSchema, type AuthMessage } from './schemas.ts';
export { streamChannel, type StreamChannelOptions } from './channel.ts';
export { StreamEndpoint, type HandedOver, type StreamEndpointOptions } from './endpoint.ts';
export { SessionSet, StreamSession, type Admission, type Admitted, type SessionHost, type StreamErrorData } from './session.ts';
export { streamLimitReached, streamNotInPlan, upgradeRequired } from './stream.problems.ts';
export { FrameWriter, textFrame, textFramePayload } from './wire.ts';
