// The WebSocket streams' shared machinery: upgrades, authentication, plan leases, heartbeats and
// close codes; each stream brings its frames and its session.
export {
  AUTH_TIMEOUT_MS, AuthMessageSchema, HeartbeatData, HeartbeatMessageSchema, MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS,
  STREAM_CLOSE, type AuthMessage, type CloseCode,
} from './protocol.ts';
export { streamChannel, type StreamChannelOptions } from './channel.ts';
export {
  SessionSet, StreamEndpoint, StreamSession, type Admission, type Admitted, type HandedOver, type SessionHost, type StreamEndpointOptions,
  type StreamErrorData,
} from './stream.ts';
export { streamLimitReached, streamNotInPlan, upgradeRequired } from './stream.problems.ts';
export { FrameWriter, textFrame, textFramePayload } from './wire.ts';
