// The AIS stream protocol (`/v3/stream/ais`): the TypeBox schema of every frame in both directions,
// the close codes, the subscription limits, and the reading of client messages. These schemas
// validate what clients send, shape what the server sends, and are the AsyncAPI document's payloads.
import { Type, type Static, type TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { nullable } from '../../platform/http/schema.ts';
import {
  AUTH_TIMEOUT_MS, AuthMessageSchema, HeartbeatData, HeartbeatMessageSchema, MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS,
  STREAM_CLOSE, textFrame, type AuthMessage, type CloseCode,
} from '../../platform/stream/index.ts';
import { MID_TABLE, VESSEL_CATEGORIES, isValidImo, type VesselCategory } from '../vessels/reference/index.ts';
import type { BBox, Vessel } from '../vessels/store.ts';
import { positionFrameData } from '../../../common/position-frame.ts';

export const STREAM_PATH = '/v3/stream/ais';

// Shared by every stream; named here too, as the AIS protocol's own.
export { AUTH_TIMEOUT_MS, AuthMessageSchema, HeartbeatMessageSchema, MAX_CLIENT_MESSAGE_BYTES, MAX_PROTOCOL_ERRORS };

export const LIMITS = {
  minUpdateIntervalSec: 1,
  defaultUpdateIntervalSec: 5,
  maxUpdateIntervalSec: 3600,
  /** Boxes in `bbox` and `bboxes` together. */
  maxBoxes: 16,
  /** Entries in each of `mmsi`, `imo`, `flags` and `vesselTypes`. */
  maxListItems: 1000,
} as const;

// ---------------------------------------------------------------- close codes

export const CLOSE = {
  ...STREAM_CLOSE,
  slowConsumer: { code: 4503, name: 'slow_consumer', meaning: 'slow consumer: more than the hard bound waited to be sent for a sustained time', reconnect: 'yes' },
} as const satisfies Record<string, CloseCode>;

export const CLOSE_CODES: readonly CloseCode[] = Object.values(CLOSE);

// ---------------------------------------------------------------- client messages

const Latitude = Type.Number({ minimum: -90, maximum: 90 });
const Longitude = Type.Number({ minimum: -180, maximum: 180 });

export const BoxSchema = Type.Object({
  minLat: Latitude,
  maxLat: Latitude,
  minLon: Longitude,
  maxLon: Longitude,
}, {
  additionalProperties: false,
  description: 'Degrees (WGS 84), edges included. minLat must not exceed maxLat; a box with minLon > maxLon crosses the antimeridian (180°).',
});

const list = <T extends TSchema>(item: T, description: string) =>
  Type.Optional(Type.Array(item, { maxItems: LIMITS.maxListItems, description: `${description} Up to ${LIMITS.maxListItems}; an empty list is the same as leaving it out.` }));

export const SubscribeMessageSchema = Type.Object({
  type: Type.Literal('subscribe'),
  bbox: Type.Optional(BoxSchema),
  bboxes: Type.Optional(Type.Array(BoxSchema, { maxItems: LIMITS.maxBoxes, description: `Several boxes; a vessel in any of them passes. Up to ${LIMITS.maxBoxes} boxes with \`bbox\`.` })),
  vesselTypes: list(Type.Enum([...VESSEL_CATEGORIES]), 'Vessel categories (from the AIS ship type; OTHER includes vessels that never sent one).'),
  mmsi: list(Type.Integer({ minimum: 1, maximum: 999_999_999 }), 'MMSIs.'),
  imo: list(Type.Integer({ minimum: 1_000_000, maximum: 9_999_999 }), 'IMO numbers (7 digits with a valid check digit).'),
  flags: list(Type.String({ pattern: '^[A-Z]{2}$' }), 'Flag states, ISO 3166-1 alpha-2 in upper case, as the MMSI\'s MID gives them (`/v3/maritime/flags`).'),
  updateIntervalSec: Type.Optional(Type.Number({
    minimum: LIMITS.minUpdateIntervalSec,
    maximum: LIMITS.maxUpdateIntervalSec,
    description: `At most one \`position\` per vessel per this many seconds, always its latest. Default ${LIMITS.defaultUpdateIntervalSec}.`,
  })),
}, {
  additionalProperties: false,
  description:
    'Sets what the stream sends, replacing any earlier subscription; nothing is sent before the first. Kinds combine with AND, ' +
    'the values of one kind with OR; `{"type":"subscribe"}` alone means every vessel. Answered by `subscribed` with the effective ' +
    'filter, or by `error` naming the field (the earlier subscription then stays in force).',
});

export type SubscribeMessage = Static<typeof SubscribeMessageSchema>;

// ---------------------------------------------------------------- server frames

const Time = (description: string) => Type.String({ format: 'date-time', description });
const VesselType = Type.Enum([...VESSEL_CATEGORIES], { description: 'The vessel category from its AIS ship type; OTHER when it sent none' });
const Source = Type.Union([Type.Literal('live'), Type.Literal('simulated'), Type.Literal('replay'), Type.Literal('upload')], {
  description: 'Where the latest message came from: a live feed, the built-in simulator, a file replay or an HTTP upload',
});
const Flag = nullable(Type.String({ description: 'Flag state (ISO 3166-1 alpha-2) from the MMSI\'s Maritime Identification Digits' }));

const frame = <E extends string, D extends TSchema>(event: E, data: D, description: string) =>
  Type.Object({ event: Type.Literal(event), data }, { description });

export const FilterSchema = Type.Object({
  bboxes: Type.Array(BoxSchema, { description: '`bbox` and `bboxes` together; empty: anywhere (vessels without a position included)' }),
  vesselTypes: Type.Array(Type.Enum([...VESSEL_CATEGORIES]), { description: 'Empty: every category' }),
  mmsi: Type.Array(Type.Integer(), { description: 'Empty: every MMSI' }),
  imo: Type.Array(Type.Integer(), { description: 'Empty: every IMO number (and vessels without one)' }),
  flags: Type.Array(Type.String(), { description: 'Empty: every flag (and vessels without one)' }),
  updateIntervalSec: Type.Number(),
}, { description: 'The subscription in force, normalised: duplicates removed, every kind present, the interval filled in' });
export type Filter = Static<typeof FilterSchema>;

export const ReadyData = Type.Object({
  organisation: nullable(Type.String({ description: 'The organisation id; null for the instance\'s operator keys' })),
  plan: nullable(Type.Union([Type.Literal('starter'), Type.Literal('pro'), Type.Literal('enterprise')], { description: 'null for operator keys' })),
  max_streams: nullable(Type.Integer({ description: 'Streams the organisation may hold at once; null: no cap' })),
  limits: Type.Object({
    min_update_interval_sec: Type.Number(),
    default_update_interval_sec: Type.Number(),
    max_update_interval_sec: Type.Number(),
    max_bboxes: Type.Integer(),
    max_list_items: Type.Integer({ description: 'Per list: mmsi, imo, flags, vesselTypes' }),
  }),
  heartbeat_interval_sec: Type.Integer({ description: 'How often the server sends `heartbeat` (and a WebSocket ping); a connection silent for two intervals is closed with 4408' }),
});

export const PositionData = Type.Object({
  mmsi: Type.Integer(),
  name: nullable(Type.String()),
  lat: Type.Number(),
  lon: Type.Number(),
  imo: nullable(Type.Integer()),
  sog: nullable(Type.Number({ description: 'Knots' })),
  cog: nullable(Type.Number({ description: 'Degrees true' })),
  heading: nullable(Type.Number({ description: 'Degrees true' })),
  nav_status: nullable(Type.Integer({ description: 'ITU-R M.1371 navigational status code' })),
  vessel_type: VesselType,
  flag: Flag,
  timestamp: Time('When the position was received (or the receiver\'s tag-block time), ISO 8601 UTC'),
  source: Source,
});

const Dimensions = nullable(Type.Object({
  to_bow: Type.Number(), to_stern: Type.Number(), to_port: Type.Number(), to_starboard: Type.Number(),
  length: nullable(Type.Number()), beam: nullable(Type.Number()),
}, { description: 'Metres from the position reference point' }));

export const StaticData = Type.Object({
  mmsi: Type.Integer(),
  imo: nullable(Type.Integer()),
  name: nullable(Type.String()),
  callsign: nullable(Type.String()),
  vessel_type: VesselType,
  ship_type: nullable(Type.Integer({ description: 'AIS ship and cargo type code' })),
  ais_class: nullable(Type.Union([Type.Literal('A'), Type.Literal('B')])),
  flag: Flag,
  dimensions: Dimensions,
  draught: nullable(Type.Number({ description: 'Metres' })),
  destination: nullable(Type.String()),
  eta: nullable(Time('Reported ETA, placed in the year that makes it the next such time')),
  timestamp: Time('When the static or voyage data last changed, ISO 8601 UTC'),
  source: Source,
});

export const ERROR_CODES = ['invalid_json', 'invalid_message', 'unknown_type', 'binary_frame', 'invalid_subscription', 'already_authenticated'] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const ErrorData = Type.Object({
  code: Type.Enum([...ERROR_CODES], {
    description: '`invalid_subscription` (the earlier subscription stays in force) and `already_authenticated` are answers to a valid message; the others count towards closing with 4400',
  }),
  message: Type.String(),
  field: Type.Optional(Type.String({ description: 'JSON pointer into the message, e.g. `/bbox/minLat` or `/mmsi/3`' })),
});
export type StreamError = Static<typeof ErrorData>;

export const ReadyFrame = frame('ready', ReadyData, 'The stream is admitted: who it belongs to and the limits that apply. Subscribe next.');
export const SubscribedFrame = frame('subscribed', FilterSchema, 'The answer to a valid `subscribe`: the effective filter, in force from this frame on.');
export const PositionFrame = frame('position', PositionData,
  'A vessel\'s latest position, for vessels passing the filter: at most one per vessel per `updateIntervalSec`, coalesced so it always carries the latest.');
export const StaticFrame = frame('static', StaticData, 'A vessel passing the filter changed its static or voyage data (name, call sign, IMO, type, dimensions, destination, ETA, draught).');
export const ErrorFrame = frame('error', ErrorData, 'A client message was refused; the connection stays open.');
export const HeartbeatFrame = frame('heartbeat', HeartbeatData, 'Sent every `heartbeat_interval_sec`.');

export type ReadyInfo = Static<typeof ReadyData>;

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

const checkers = {
  auth: Compile(AuthMessageSchema),
  subscribe: Compile(SubscribeMessageSchema),
  heartbeat: Compile(HeartbeatMessageSchema),
};

interface SchemaIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message: string;
}

/** The one issue to report: an unknown field by its own path, else the first that is not a `false` schema. */
function firstIssue(issues: readonly SchemaIssue[]): { field: string; message: string } {
  const extra = issues.find((issue) => issue.keyword === 'additionalProperties');
  if (extra) {
    const name = (extra.params.additionalProperties as string[] | undefined)?.[0] ?? '';
    return { field: `${extra.instancePath}/${name}`, message: 'is not a known field' };
  }
  const issue = issues.find((i) => i.keyword !== 'boolean') ?? issues[0]!;
  const missing = issue.keyword === 'required' ? (issue.params.requiredProperties as string[] | undefined)?.[0] : undefined;
  return missing ? { field: `${issue.instancePath}/${missing}`, message: 'is required' } : { field: issue.instancePath, message: issue.message };
}

const refuse = (code: ErrorCode, message: string, protocol: boolean, field?: string): Refusal =>
  ({ error: field === undefined ? { code, message } : { code, message, field }, protocol });

/** Reads one text frame: a known message, or why not. Never echoes the input (it may hold a key). */
export function readClientMessage(text: string): ClientMessage | Refusal {
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
  const checker = checkers[type];
  if (!checker.Check(value)) {
    const issue = firstIssue(checker.Errors(value) as SchemaIssue[]);
    // A malformed subscription is the client's to fix and leaves the stream as it was.
    const code: ErrorCode = type === 'subscribe' ? 'invalid_subscription' : 'invalid_message';
    return refuse(code, `${issue.field || '(message)'} ${issue.message}`, type !== 'subscribe', issue.field);
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
