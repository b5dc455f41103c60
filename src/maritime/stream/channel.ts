// The AIS stream as an AsyncAPI channel: the protocol's own schemas, its rules and its close codes.
import type { AsyncApiChannel } from '../../platform/http/asyncapi.ts';
import { MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS, streamChannel } from '../../platform/stream/index.ts';
import { CLOSE_CODES, LIMITS, STREAM_PATH } from './protocol.ts';
import {
  ErrorFrame, HeartbeatFrame, PositionFrame, ReadyFrame, StaticFrame, SubscribeMessageSchema, SubscribedFrame,
} from './stream.schemas.ts';

export function aisStreamChannel(heartbeatSec: number): AsyncApiChannel {
  return streamChannel({
    id: 'aisStream',
    address: STREAM_PATH,
    title: 'Live AIS stream',
    summary: 'Live AIS vessel updates, filtered by a subscription and paced per vessel.',
    sections: [
      '**Then** the server sends `ready`; nothing else comes before the first `subscribe`. Each `subscribe` replaces the one before ' +
        'and is answered by `subscribed` with the effective filter, or by `error` naming the field (the earlier subscription stays).',
      `**Limits.** \`updateIntervalSec\` from ${LIMITS.minUpdateIntervalSec} to ${LIMITS.maxUpdateIntervalSec} s, default ${LIMITS.defaultUpdateIntervalSec}; ` +
        `at most ${LIMITS.maxBoxes} boxes (\`bbox\` and \`bboxes\` together) and ${LIMITS.maxListItems} entries in each list; ` +
        `messages up to ${MAX_CLIENT_MESSAGE_BYTES / 1024} KiB. ${MAX_PROTOCOL_ERRORS} binary, non-JSON or unknown messages close the stream.`,
      '**Slow consumers.** While too much waits to be sent on a stream, it gets only the latest update per vessel; if that stays ' +
        'over the hard bound, it is closed with 4503.',
    ],
    heartbeatSec,
    closeCodes: CLOSE_CODES,
    sends: {
      ready: { title: 'Ready', summary: 'The stream is admitted; the limits that apply', payload: ReadyFrame },
      subscribed: { title: 'Subscribed', summary: 'The effective filter after a valid subscribe', payload: SubscribedFrame },
      position: { title: 'Position', summary: "A vessel's latest position", payload: PositionFrame },
      static: { title: 'Static and voyage data', summary: "A vessel's static or voyage data changed", payload: StaticFrame },
      error: { title: 'Error', summary: 'A client message was refused', payload: ErrorFrame },
      heartbeat: { title: 'Heartbeat', summary: 'Server keepalive', payload: HeartbeatFrame },
    },
    receives: {
      subscribe: { title: 'Subscribe', summary: 'What to receive; replaces the previous subscription', payload: SubscribeMessageSchema },
    },
  });
}
