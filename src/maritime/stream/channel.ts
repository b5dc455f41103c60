// The AIS stream as an AsyncAPI channel: the protocol's own schemas, its rules and its close codes.
import { Type } from 'typebox';
import type { AsyncApiChannel } from '../../platform/http/asyncapi.ts';
import { PLANS } from '../../../common/plans.ts';
import {
  AUTH_TIMEOUT_MS, AuthMessageSchema, CLOSE_CODES, ErrorFrame, HeartbeatFrame, HeartbeatMessageSchema, LIMITS,
  MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS, PositionFrame, ReadyFrame, STREAM_PATH, StaticFrame, SubscribeMessageSchema,
  SubscribedFrame,
} from './protocol.ts';

export function aisStreamChannel(heartbeatSec: number): AsyncApiChannel {
  const closeCodes = CLOSE_CODES.map((c) => `| ${c.code} | ${c.meaning} | ${c.reconnect} |`).join('\n');
  const description = [
    'Live AIS vessel updates, filtered by a subscription and paced per vessel.',
    '',
    '**Connecting.** Open a WebSocket to this path with `Authorization: Bearer <key>` on the upgrade request, or (browsers) send ' +
      `\`{"type":"auth","api_key":"<key>"}\` as the first message within ${AUTH_TIMEOUT_MS / 1000} s. Keys never go in the URL. ` +
      'A bad key, or a plan or cap refusal, on the upgrade request is answered with a problem document (401 `unauthorized`, ' +
      '403 `stream_not_in_plan`, 429 `stream_limit_reached`) and no upgrade; after an `auth` message, with a close code. ' +
      `Starter has no streams; Pro holds ${PLANS.pro.maxConcurrentStreams} at once per organisation, across all instances; Enterprise and the instance's operator keys have no cap.`,
    '',
    '**Then** the server sends `ready`; nothing else comes before the first `subscribe`. Each `subscribe` replaces the one before ' +
      'and is answered by `subscribed` with the effective filter, or by `error` naming the field (the earlier subscription stays).',
    '',
    `**Limits.** \`updateIntervalSec\` from ${LIMITS.minUpdateIntervalSec} to ${LIMITS.maxUpdateIntervalSec} s, default ${LIMITS.defaultUpdateIntervalSec}; ` +
      `at most ${LIMITS.maxBoxes} boxes (\`bbox\` and \`bboxes\` together) and ${LIMITS.maxListItems} entries in each list; ` +
      `messages up to ${MAX_CLIENT_MESSAGE_BYTES / 1024} KiB. ${MAX_PROTOCOL_ERRORS} binary, non-JSON or unknown messages close the stream.`,
    '',
    `**Heartbeats.** Every ${heartbeatSec} s the server sends \`heartbeat\` and a WebSocket ping. A stream from which nothing ` +
      '(no message, no pong) was heard for two intervals is closed with 4408; send `{"type":"heartbeat"}` if your client cannot answer pings.',
    '',
    '**Slow consumers.** While too much waits to be sent on a stream, it gets only the latest update per vessel; if that stays ' +
      'over the hard bound, it is closed with 4503.',
    '',
    '**Close codes** (the reason text says more):',
    '',
    '| code | meaning | reconnect? |',
    '|---|---|---|',
    closeCodes,
  ].join('\n');
  return {
    id: 'aisStream',
    address: STREAM_PATH,
    title: 'Live AIS stream',
    description,
    sends: {
      ready: { title: 'Ready', summary: 'The stream is admitted; the limits that apply', payload: ReadyFrame },
      subscribed: { title: 'Subscribed', summary: 'The effective filter after a valid subscribe', payload: SubscribedFrame },
      position: { title: 'Position', summary: "A vessel's latest position", payload: PositionFrame },
      static: { title: 'Static and voyage data', summary: "A vessel's static or voyage data changed", payload: StaticFrame },
      error: { title: 'Error', summary: 'A client message was refused', payload: ErrorFrame },
      heartbeat: { title: 'Heartbeat', summary: 'Server keepalive', payload: HeartbeatFrame },
    },
    receives: {
      auth: { title: 'Authenticate', summary: 'The API key, for clients that cannot set headers', payload: AuthMessageSchema },
      subscribe: { title: 'Subscribe', summary: 'What to receive; replaces the previous subscription', payload: SubscribeMessageSchema },
      clientHeartbeat: { title: 'Client heartbeat', summary: 'Client keepalive', payload: HeartbeatMessageSchema },
    },
    headers: Type.Object({
      Authorization: Type.Optional(Type.String({ description: '`Bearer <key>`; without it, authenticate with an `auth` message' })),
    }),
    extensions: {
      'x-close-codes': CLOSE_CODES.map(({ code, name, meaning, reconnect }) => ({ code, name, meaning, reconnect })),
    },
  };
}
