// The AIS stream protocol (`/v3/stream/ais`): the close codes, the frames the server sends, and the
// reading of client messages against their schemas (stream.schemas.ts, given as JSON). Stream
// processes run it: nothing here loads TypeBox (its types only are read).
import type { Static } from 'typebox';
import type { ClientMessages, MessageIssue } from '../../platform/stream/client-messages.ts';
import { STREAM_CLOSE, type CloseCode } from '../../platform/stream/protocol.ts';
import type { AuthMessage } from '../../platform/stream/schemas.ts';
import { textFrame } from '../../platform/stream/wire.ts';
import { MID_TABLE, isValidImo, type VesselCategory } from '../vessels/reference/index.ts';
import type { BBox, Vessel } from '../vessels/store.ts';
import { positionFrameData } from '../../../common/position-frame.ts';
import { LIMITS, type ErrorCode } from './limits.ts';
import type { Filter, PositionData, StaticData, StreamError, SubscribeMessage } from './stream.schemas.ts';

export const STREAM_PATH = '/v3/stream/ais';

export { LIMITS } from './limits.ts';

// ---------------------------------------------------------------- close codes

export const CLOSE = {
  ...STREAM_CLOSE,
  slowConsumer: { code: 4503, name: 'slow_consumer', meaning: 'slow consumer: more than the hard bound waited to be sent for a sustained time', reconnect: 'yes' },
} as const satisfies Record<string, CloseCode>;

export const CLOSE_CODES: readonly CloseCode[] = Object.values(CLOSE);

// ---------------------------------------------------------------- frames out

/** A frame's JSON text as bytes. */
export function encodeFrame(event: string, data: unknown): Buffer {
  return Buffer.from(JSON.stringify({ event, data }));
}

/** A frame as the WebSocket frame sent, made once and shared by every stream it goes to. */
export function wireFrame(event: string, data: unknown): Buffer {
  return textFrame(JSON.stringify({ event, data }));
}

/** The shared mapping, typed against the frame's schema so the two cannot drift apart. null without a position. */
export const positionData: (vessel: Vessel) => Static<typeof PositionData> | null = positionFrameData;

export function staticData(vessel: Vessel): Static<typeof StaticData> {
  return {
    mmsi: vessel.mmsi,
    imo: vessel.imo,
    name: vessel.name,
    callsign: vessel.callsign,
    vessel_type: vessel.category,
    ship_type: vessel.ship_type,
    ais_class: vessel.ais_class,
    flag: vessel.flag?.alpha2 ?? null,
    dimensions: vessel.dimensions,
    draught: vessel.draught,
    destination: vessel.destination,
    eta: vessel.eta,
    timestamp: vessel.static_updated_at ?? vessel.last_update,
    source: vessel.source,
  };
}

// ---------------------------------------------------------------- reading client messages

export type ClientMessage =
  | { type: 'auth'; message: AuthMessage }
  | { type: 'subscribe'; message: SubscribeMessage }
  | { type: 'heartbeat' };

/** A refused message: the error to answer with, and whether it breaks the protocol (counts towards 4400). */
export type Refusal = { error: StreamError; protocol: boolean };

/** The one issue to report, led by its field (`(message)` for the message itself). */
const described = (issue: MessageIssue) => `${issue.field || '(message)'} ${issue.message}`;

const refuse = (code: ErrorCode, message: string, protocol: boolean, field?: string): Refusal =>
  ({ error: field === undefined ? { code, message } : { code, message, field }, protocol });

/** Reads one text frame: a known message, or why not. Never echoes the input (it may hold a key). */
export function readClientMessage(text: string, messages: ClientMessages): ClientMessage | Refusal {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return refuse('invalid_json', 'Messages are JSON objects such as {"type":"subscribe"}.', true);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return refuse('invalid_message', 'Messages are JSON objects with a "type".', true);
  }
  const type = (value as { type?: unknown }).type;
  if (type !== 'auth' && type !== 'subscribe' && type !== 'heartbeat') {
    return refuse('unknown_type', 'type must be auth, subscribe or heartbeat.', true, '/type');
  }
  const issue = messages.issue(type, value);
  if (issue !== null) {
    // A malformed subscription is the client's to fix and leaves the stream as it was.
    const code: ErrorCode = type === 'subscribe' ? 'invalid_subscription' : 'invalid_message';
    return refuse(code, described(issue), type !== 'subscribe', issue.field);
  }
  if (type === 'auth') return { type, message: value as AuthMessage };
  if (type === 'subscribe') return { type, message: value as SubscribeMessage };
  return { type };
}

const KNOWN_FLAGS = new Set(MID_TABLE.map((mid) => mid.alpha2));

function unique<T>(values: readonly T[] | undefined): T[] {
  return [...new Set(values ?? [])];
}

/** The effective filter of a schema-valid subscription, or the field that makes no sense. */
export function normaliseSubscription(message: SubscribeMessage): { ok: true; filter: Filter } | { ok: false; error: StreamError } {
  const invalid = (field: string, detail: string) =>
    ({ ok: false as const, error: { code: 'invalid_subscription' as const, message: `${field} ${detail}`, field } });
  const boxes: [string, BBox][] = [
    ...(message.bbox ? [['/bbox', message.bbox] as [string, BBox]] : []),
    ...(message.bboxes ?? []).map((box, i) => [`/bboxes/${i}`, box] as [string, BBox]),
  ];
  if (boxes.length > LIMITS.maxBoxes) return invalid('/bboxes', `holds too many boxes: at most ${LIMITS.maxBoxes} with bbox`);
  for (const [field, box] of boxes) {
    if (box.minLat > box.maxLat) return invalid(`${field}/minLat`, 'must not exceed maxLat');
  }
  const flags = unique(message.flags);
  const unknownFlag = flags.findIndex((flag) => !KNOWN_FLAGS.has(flag));
  if (unknownFlag >= 0) return invalid(`/flags/${message.flags!.indexOf(flags[unknownFlag]!)}`, `"${flags[unknownFlag]}" is no flag of the ITU MID table`);
  const imo = unique(message.imo);
  const badImo = imo.findIndex((number) => !isValidImo(number));
  if (badImo >= 0) return invalid(`/imo/${message.imo!.indexOf(imo[badImo]!)}`, `${imo[badImo]} has no valid check digit`);
  const distinctBoxes = new Map(boxes.map(([, b]) => [`${b.minLat},${b.maxLat},${b.minLon},${b.maxLon}`, { minLat: b.minLat, maxLat: b.maxLat, minLon: b.minLon, maxLon: b.maxLon }]));
  return {
    ok: true,
    filter: {
      bboxes: [...distinctBoxes.values()],
      vesselTypes: unique(message.vesselTypes) as VesselCategory[],
      mmsi: unique(message.mmsi),
      imo,
      flags,
      updateIntervalSec: message.updateIntervalSec ?? LIMITS.defaultUpdateIntervalSec,
    },
  };
}
