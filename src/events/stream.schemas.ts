// The event stream protocol (`/v3/stream/events`): the TypeBox schema of every frame in both
// directions, its close codes, and the reading of client messages. The same schemas check what
// clients send (as JSON: platform/stream/client-messages.ts) and are the AsyncAPI document's payloads.
import { Type, type Static, type TSchema } from 'typebox';
import { nullable } from '../platform/http/schema.ts';
import type { AsyncApiChannel } from '../platform/http/asyncapi.ts';
import {
  AuthMessageSchema, HeartbeatData, HeartbeatMessageSchema, MAX_PROTOCOL_ERRORS, STREAM_CLOSE, streamChannel, type ClientMessages, type CloseCode,
  type StreamErrorData,
} from '../platform/stream/index.ts';
import { EventObject } from './events.schemas.ts';
import { FleetFeedEntryObject } from './fleet-feed.schemas.ts';

export const EVENT_STREAM_PATH = '/v3/stream/events';

/** A vehicle's `feed` frames come at most this often. */
export const FEED_FRAME_INTERVAL_SEC = 10;

export const EVENT_STREAM_CLOSE_CODES: readonly CloseCode[] = Object.values(STREAM_CLOSE);

/** Every real change of an event has a number (its `seq` in the change log); a cursor names it. */
const CURSOR_PREFIX = 'chg_';

/** The resume cursor of the change numbered `seq`. */
export const changeCursor = (seq: number): string => `${CURSOR_PREFIX}${seq}`;

/** The change number a resume cursor names, or null when `after` is not a cursor (an event id, then). */
export function cursorSeq(after: string): number | null {
  const match = /^chg_(\d{1,15})$/.exec(after);
  return match ? Number(match[1]) : null;
}

const ChangeCursor = Type.String({
  pattern: `^${CURSOR_PREFIX}[0-9]+$`,
  description: 'Where a resume continues: after this change. Opaque: keep the one of the last `alert` you handled and send it back as `after`',
});

const ResumeAfter = Type.String({
  minLength: 1, maxLength: 64,
  description: 'The `cursor` of the last `alert` handled (exact), or, the inexact older form, the id of the last event seen (`evt_…`)',
});

export const ResumeMessageSchema = Type.Object({
  type: Type.Literal('resume'),
  after: ResumeAfter,
}, {
  additionalProperties: false,
  description:
    'Replays what was missed: every event of the organisation changed after the named change, once, in its current state, ' +
    'oldest latest change first; then `resumed`, then live frames. Only as the first message after authentication (with an `auth` message: right behind it), ' +
    'and only when `after` was not in the URL.',
});

const frame = <E extends string, D extends TSchema>(event: E, data: D, description: string) =>
  Type.Object({ event: Type.Literal(event), data }, { description });

export const EventReadyData = Type.Object({
  organisation: nullable(Type.String({ description: "The organisation id; null for the instance's operator keys" })),
  plan: nullable(Type.Union([Type.Literal('starter'), Type.Literal('pro'), Type.Literal('enterprise')], { description: 'null for operator keys' })),
  max_streams: nullable(Type.Integer({ description: 'Streams the organisation may hold at once (AIS and events together); null: no cap' })),
  heartbeat_interval_sec: Type.Integer({ description: 'How often the server sends `heartbeat` (and a WebSocket ping); a connection silent for two intervals is closed with 4408' }),
});

const EVENT_STREAM_ERRORS = [
  'invalid_json', 'invalid_message', 'unknown_type', 'binary_frame', 'already_authenticated', 'invalid_resume', 'unknown_event', 'resume_too_old',
] as const;

export const EventStreamErrorData = Type.Object({
  code: Type.Enum([...EVENT_STREAM_ERRORS], {
    description: '`invalid_resume` (a second resume, or one after live frames began), `unknown_event` (`after` is neither a cursor nor an event of the organisation) ' +
      'and `resume_too_old` (`after` names an event none of whose changes is in the change log, or is older than changes retention took out of it) answer a valid ' +
      'message: nothing (more) is replayed, no `resumed` comes, live frames follow; list `/v3/events` to catch up. The others count towards closing with 4400',
  }),
  message: Type.String(),
  field: Type.Optional(Type.String({ description: 'JSON pointer into the message, e.g. `/after`' })),
});

export const EventReadyFrame = frame('ready', EventReadyData, 'The stream is admitted; live frames follow (after the replay, when resuming).');
export const AlertFrame = Type.Object({ event: Type.Literal('alert'), data: EventObject, cursor: ChangeCursor }, {
  description: 'An event of the organisation opened, changed (severity, summary, data), was acknowledged or cleared: the event in its new state, ' +
    'and the cursor to resume after this change.',
});
export const FeedFrame = frame('feed', FleetFeedEntryObject,
  "An entry of the organisation's fleet feed changed: the entry as `GET /v3/fleet/feed` serves it now. At most one per vehicle every " +
  `${FEED_FRAME_INTERVAL_SEC} s (the latest entry then); a position's age alone is no change. Not replayed on resume.`);
export const ResumedFrame = frame('resumed', Type.Object({
  after: Type.String({ description: 'The cursor or event id the replay started after, as sent' }),
  replayed: Type.Integer({ description: 'How many `alert` frames the replay sent' }),
}), 'The replay is over: the `alert` frames from here on are live.');
export const EventErrorFrame = frame('error', EventStreamErrorData, 'A client message was refused; the connection stays open.');
export const EventHeartbeatFrame = frame('heartbeat', HeartbeatData, 'Sent every `heartbeat_interval_sec`.');

export type EventReadyInfo = Static<typeof EventReadyData>;

/** The client messages the stream reads, by type: its endpoint checks them against these. */
export const EVENT_STREAM_MESSAGES = { auth: AuthMessageSchema, resume: ResumeMessageSchema, heartbeat: HeartbeatMessageSchema };

/** A client message of an admitted stream: what it asks, or the error that answers it (protocol: counts towards 4400). */
export function readEventStreamMessage(text: string, messages: ClientMessages):
  | { type: 'resume'; after: string } | { type: 'heartbeat' } | { type: 'auth' }
  | { error: StreamErrorData; protocol: boolean } {
  let message: unknown;
  try {
    message = JSON.parse(text);
  } catch {
    return { error: { code: 'invalid_json', message: 'The message is not JSON.' }, protocol: true };
  }
  const type = typeof message === 'object' && message !== null ? (message as { type?: unknown }).type : undefined;
  if (type === 'auth') return { type: 'auth' };
  if (type !== 'resume' && type !== 'heartbeat') {
    return { error: { code: 'unknown_type', message: '`type` must be `resume` or `heartbeat`.', field: '/type' }, protocol: true };
  }
  if (messages.issue(type, message) !== null) {
    return { error: { code: 'invalid_message', message: type === 'resume' ? '`after` must be a cursor or an event id, and nothing else may come with it.' : 'A heartbeat carries `type` only.', field: type === 'resume' ? '/after' : '' }, protocol: true };
  }
  return type === 'resume' ? { type, after: (message as { after: string }).after } : { type };
}

/** The stream as an AsyncAPI channel: its own schemas, its rules and its close codes. */
export function eventStreamChannel(heartbeatSec: number): AsyncApiChannel {
  return streamChannel({
    id: 'eventStream',
    address: EVENT_STREAM_PATH,
    title: 'Event stream',
    summary: "Your organisation's events as they open, change, are acknowledged and clear; never another organisation's.",
    sections: [
      '**Then** the server sends `ready`, and an `alert` with the event in its new state for each change of one of your events, ' +
        `and a \`feed\` with a vehicle's fleet feed entry when it changes (at most one per vehicle every ${FEED_FRAME_INTERVAL_SEC} s).`,
      '**Resuming.** Every `alert` carries a `cursor`. Back after a drop, send the cursor of the last `alert` you handled: `after=<cursor>` in the URL, ' +
        'or `{"type":"resume","after":"<cursor>"}` as the first message (right behind `auth`). Every event of your organisation changed after that change ' +
        'is sent as an `alert`, in its current state with the cursor of its latest change, oldest latest change first (an event changed several times ' +
        'while you were away comes once, as it is now); then `resumed`; then live frames. A change made during the replay comes after it, and none comes ' +
        'twice. An event is kept for the retention after it cleared (90 days by default), with its changes; a resume from before the changes retention took ' +
        'out of your organisation\'s log is answered with `error` `resume_too_old`. `after=<event id>`, the older form, still works but is inexact: it ' +
        'resumes after that event\'s latest change, so if the event changed again while you were away, changes of other events in between are not ' +
        'replayed. An `after` that is neither a cursor nor one of your events is answered with `error` `unknown_event`, an event with no logged change ' +
        '(older than the log) with `resume_too_old`; then nothing is replayed: list `/v3/events` to catch up.',
      `**Limits.** ${MAX_PROTOCOL_ERRORS} binary, non-JSON or unknown messages close the stream.`,
    ],
    heartbeatSec,
    closeCodes: EVENT_STREAM_CLOSE_CODES,
    sends: {
      ready: { title: 'Ready', summary: 'The stream is admitted', payload: EventReadyFrame },
      alert: { title: 'Alert', summary: 'An event opened, changed, was acknowledged or cleared', payload: AlertFrame },
      feed: { title: 'Fleet feed entry', summary: "A vehicle's fleet feed entry changed", payload: FeedFrame },
      resumed: { title: 'Resumed', summary: 'The replay of missed changes is over', payload: ResumedFrame },
      error: { title: 'Error', summary: 'A client message was refused', payload: EventErrorFrame },
      heartbeat: { title: 'Heartbeat', summary: 'Server keepalive', payload: EventHeartbeatFrame },
    },
    receives: {
      resume: { title: 'Resume', summary: 'Replay the changes after the last one handled', payload: ResumeMessageSchema },
    },
  });
}
