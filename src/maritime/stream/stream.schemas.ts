// The AIS stream's schemas (`/v3/stream/ais`): every frame in both directions. They check what clients
// send (as JSON, platform/stream/client-messages.ts: stream processes check with them without
// loading TypeBox), type what the server sends, and are the AsyncAPI document's payloads.
import { Type, type Static, type TSchema } from 'typebox';
import { nullable } from '../../platform/http/schema.ts';
import { AuthMessageSchema, HeartbeatData, HeartbeatMessageSchema } from '../../platform/stream/index.ts';
import { VESSEL_CATEGORIES } from '../vessels/reference/index.ts';
import { ERROR_CODES, LIMITS } from './limits.ts';

// Shared by every stream; named here too, as the AIS protocol's own.
export { AuthMessageSchema, HeartbeatMessageSchema };

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

/** The client messages the stream reads, by type: what a stream process is sent to check them with. */
export const AIS_STREAM_MESSAGES = { auth: AuthMessageSchema, subscribe: SubscribeMessageSchema, heartbeat: HeartbeatMessageSchema };

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
