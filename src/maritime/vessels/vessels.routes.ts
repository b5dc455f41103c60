// REST for vessels: one vessel by MMSI, search (IMO, name, flag, category, box), its track, and
// the MID/flag table.
import { Type, type Static } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { DateTime, instant, invalidField as invalid, nullable, Shared } from '../../platform/http/schema.ts';
import { decodeCursor, Page, PageQuery, pageOf } from '../../platform/http/pagination.ts';
import { MID_TABLE, MMSI_KINDS, VESSEL_CATEGORIES, isValidImo } from './reference/index.ts';
import { inBox, type BBox, type Vessel, type VesselStore } from './store.ts';

const TAG = 'Vessels';
const MAX_TRACK_POINTS = 10_000;
const DEFAULT_TRACK_HOURS = 24;

export const vesselNotFound = problemType({
  code: 'vessel_not_found',
  status: 404,
  title: 'No such vessel',
  description: 'No AIS message from this MMSI has reached LAMIS (or its data has passed the retention period).',
});

const FeedSourceSchema = Type.Union([Type.Literal('live'), Type.Literal('simulated'), Type.Literal('replay'), Type.Literal('upload')], {
  description: 'Where the data came from: a live feed, the built-in simulator, a file replay or an HTTP upload',
});

const VesselPositionSchema = Shared('VesselPosition', Type.Object({
  lat: Type.Number(), lon: Type.Number(),
  sog: nullable(Type.Number({ description: 'Knots' })),
  cog: nullable(Type.Number({ description: 'Degrees true' })),
  heading: nullable(Type.Number({ description: 'Degrees true' })),
  rot: nullable(Type.Number({ description: 'Rate of turn in degrees per minute, positive to starboard; null when not reported or when turning faster than 5° per 30 s with no turn indicator (AIS ROT ±127)' })),
  rot_direction: nullable(Type.Union([Type.Literal('port'), Type.Literal('starboard')], {
    description: 'The side the vessel turns to whenever AIS says so, also when the rate is not given (rot null: a fast turn); null when not turning, not reported, or for class B',
  })),
  nav_status: nullable(Type.Integer()),
  position_accuracy: Type.Boolean({ description: 'true: better than 10 m' }),
  timestamp: Type.String({ format: 'date-time' }),
}));

export const VesselSchema = Shared('Vessel', Type.Object({
  mmsi: Type.Integer(),
  mmsi_kind: Type.Enum([...MMSI_KINDS], { description: 'What the MMSI format says the station is' }),
  flag: nullable(Type.Object({ alpha2: Type.String(), country: Type.String() }, { description: 'Flag state from the MMSI\'s Maritime Identification Digits' })),
  ais_class: nullable(Type.Union([Type.Literal('A'), Type.Literal('B')])),
  name: nullable(Type.String()),
  callsign: nullable(Type.String()),
  imo: nullable(Type.Integer()),
  ship_type: nullable(Type.Integer({ description: 'AIS ship and cargo type code' })),
  category: Type.Enum([...VESSEL_CATEGORIES]),
  dimensions: nullable(Type.Object({
    to_bow: Type.Number(), to_stern: Type.Number(), to_port: Type.Number(), to_starboard: Type.Number(),
    length: nullable(Type.Number()), beam: nullable(Type.Number()),
  }, { description: 'Metres from the position reference point' })),
  destination: nullable(Type.String()),
  eta: nullable(Type.String({ format: 'date-time', description: 'Reported ETA, placed in the year that makes it the next such time' })),
  draught: nullable(Type.Number({ description: 'Metres' })),
  position: nullable(VesselPositionSchema),
  source: FeedSourceSchema,
  sources: Type.Array(FeedSourceSchema, { description: 'Every source that has reported this vessel' }),
  last_update: Type.String({ format: 'date-time' }),
  static_updated_at: nullable(Type.String({ format: 'date-time' })),
}));

export const MmsiParams = Type.Object({
  mmsi: Type.String({ description: 'Maritime Mobile Service Identity: 1 to 9 digits (leading zeros allowed, as coast stations have)' }),
});

export function parseMmsi(text: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) === 0) throw invalid('/params/mmsi', `must be a number from 1 to 999999999 (got "${text}")`);
  return Number(text);
}

/** `minLon,minLat,maxLon,maxLat` (GeoJSON order); minLon > maxLon crosses the antimeridian. */
export function parseBbox(text: string): BBox {
  const parts = text.split(',').map((p) => p.trim());
  const numbers = parts.map(Number);
  if (parts.length !== 4 || parts.some((p) => p === '') || numbers.some((n) => !Number.isFinite(n))) {
    throw invalid('/querystring/bbox', 'must be four numbers: minLon,minLat,maxLon,maxLat');
  }
  const [minLon, minLat, maxLon, maxLat] = numbers as [number, number, number, number];
  if ([minLon, maxLon].some((lon) => lon < -180 || lon > 180)) throw invalid('/querystring/bbox', 'longitudes must lie in -180..180');
  if ([minLat, maxLat].some((lat) => lat < -90 || lat > 90)) throw invalid('/querystring/bbox', 'latitudes must lie in -90..90');
  if (minLat > maxLat) throw invalid('/querystring/bbox', 'minLat must not exceed maxLat');
  return { minLat, maxLat, minLon, maxLon };
}

const SearchQuery = Type.Object({
  imo: Type.Optional(Type.String({ description: 'IMO number (7 digits with a valid check digit)' })),
  name: Type.Optional(Type.String({ minLength: 1, maxLength: 40, description: 'Part of the vessel name, any case' })),
  flag: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'Flag state, ISO 3166-1 alpha-2' })),
  category: Type.Optional(Type.Enum([...VESSEL_CATEGORIES])),
  bbox: Type.Optional(Type.String({ description: 'Only vessels with a live position in minLon,minLat,maxLon,maxLat (degrees); minLon > maxLon crosses 180°' })),
  ...PageQuery,
});

export const TrackPointSchema = Shared('TrackPoint', Type.Object({
  time: Type.String({ format: 'date-time' }),
  lat: Type.Number(),
  lon: Type.Number(),
  sog: nullable(Type.Number()),
  cog: nullable(Type.Number()),
  heading: nullable(Type.Number()),
  nav_status: nullable(Type.Integer()),
  source: FeedSourceSchema,
}));
export type TrackPointView = Static<typeof TrackPointSchema>;

const TrackQuery = Type.Object({
  from: Type.Optional(DateTime(`Start (ISO 8601); default ${DEFAULT_TRACK_HOURS} hours before \`to\``)),
  to: Type.Optional(DateTime('End (ISO 8601); default now')),
  format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('geojson')], { description: 'json (the default) or geojson: a Feature with a LineString (also chosen by Accept: application/geo+json)' })),
});

const TrackJson = Type.Object({
  mmsi: Type.Integer(),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time' }),
  points: Type.Array(TrackPointSchema),
  truncated: Type.Boolean({ description: `true when the window holds more than ${MAX_TRACK_POINTS} points (the first ones are returned)` }),
});

const TrackGeoJson = Type.Object({
  type: Type.Literal('Feature'),
  geometry: nullable(Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Type.Array(Type.Number())) })),
  properties: Type.Object({
    mmsi: Type.Integer(),
    name: nullable(Type.String()),
    from: Type.String(),
    to: Type.String(),
    times: Type.Array(Type.String(), { description: 'The time of each coordinate' }),
    truncated: Type.Boolean(),
  }),
}, { description: 'GeoJSON Feature; geometry is null with fewer than two points' });

const FlagSchema = Type.Object({
  mid: Type.Integer({ description: 'Maritime Identification Digits' }),
  alpha2: Type.String(),
  country: Type.String(),
  area: Type.Optional(Type.String({ description: 'The ITU area when narrower than the country' })),
});

export interface VesselApiDeps {
  store: VesselStore;
  /** Track points of one vessel in [from, to], time order, at most `limit`. */
  track(mmsi: number, from: number, to: number, limit: number): Promise<TrackPointView[]>;
}

function* matching(candidates: Iterable<Vessel>, query: Static<typeof SearchQuery>): Generator<Vessel> {
  const name = query.name?.toUpperCase();
  const flag = query.flag?.toUpperCase();
  for (const vessel of candidates) {
    if (name !== undefined && !vessel.name?.includes(name)) continue;
    if (flag !== undefined && vessel.flag?.alpha2 !== flag) continue;
    if (query.category !== undefined && vessel.category !== query.category) continue;
    yield vessel;
  }
}

export function registerVesselRoutes(app: App, deps: VesselApiDeps): void {
  const { store } = deps;

  app.get('/v3/maritime/vessels', {
    schema: {
      summary: 'Find vessels by IMO, name, flag, category or area',
      description: 'Filters combine (AND). Sorted by MMSI, cursor-paginated. `imo` answers the vessel reporting that IMO number.',
      tags: [TAG],
      querystring: SearchQuery,
      response: { 200: Page(VesselSchema) },
    },
  }, async (request) => {
    const query = request.query;
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, (k): k is number => Number.isInteger(k));
    let candidates: Iterable<Vessel>;
    if (query.imo !== undefined) {
      if (!/^\d{7}$/.test(query.imo) || !isValidImo(Number(query.imo))) {
        throw invalid('/querystring/imo', `must be a 7-digit IMO number with a valid check digit (got "${query.imo}")`);
      }
      const vessel = store.byImo(Number(query.imo));
      const box = query.bbox === undefined ? undefined : parseBbox(query.bbox);
      const inArea = (v: Vessel) => !box || (v.position !== null && inBox(box, v.position.lat, v.position.lon));
      candidates = vessel && inArea(vessel) ? [vessel] : [];
    } else {
      candidates = query.bbox === undefined ? store.all() : store.inBox(parseBbox(query.bbox));
    }
    return pageOf(matching(candidates, query), (v) => v.mmsi, query.limit!, after);
  });

  app.get('/v3/maritime/vessels/:mmsi', {
    schema: {
      summary: 'Everything known about one vessel',
      description: 'Position, static and voyage data, flag, AIS class and source. 400 for a malformed MMSI, 404 when nothing was heard from it.',
      tags: [TAG],
      params: MmsiParams,
      response: { 200: VesselSchema },
    },
  }, async (request) => {
    const mmsi = parseMmsi(request.params.mmsi);
    const vessel = store.get(mmsi);
    if (!vessel) throw new ProblemError(vesselNotFound, `No AIS data from MMSI ${request.params.mmsi}.`);
    return vessel;
  });

  app.get('/v3/maritime/vessels/:mmsi/track', {
    schema: {
      summary: 'The recorded track of one vessel',
      description: `Points in time order between \`from\` and \`to\` (default the last ${DEFAULT_TRACK_HOURS} hours), as JSON or a GeoJSON Feature. Tracks are thinned when recorded (see the README).`,
      tags: [TAG],
      params: MmsiParams,
      querystring: TrackQuery,
      response: { 200: Type.Union([TrackJson, TrackGeoJson]) },
    },
  }, async (request, reply) => {
    const mmsi = parseMmsi(request.params.mmsi);
    const vessel = store.get(mmsi);
    if (!vessel) throw new ProblemError(vesselNotFound, `No AIS data from MMSI ${request.params.mmsi}.`);
    const to = request.query.to === undefined ? Date.now() : instant(request.query.to, '/querystring/to');
    const from = request.query.from === undefined ? to - DEFAULT_TRACK_HOURS * 3_600_000 : instant(request.query.from, '/querystring/from');
    if (from > to) throw invalid('/querystring/from', 'must not be after `to`');
    const points = await deps.track(mmsi, from, to, MAX_TRACK_POINTS + 1);
    const truncated = points.length > MAX_TRACK_POINTS;
    if (truncated) points.length = MAX_TRACK_POINTS;
    const window = { from: new Date(from).toISOString(), to: new Date(to).toISOString() };
    const geojson = request.query.format === 'geojson' || (request.query.format === undefined && /application\/geo\+json/.test(request.headers.accept ?? ''));
    if (!geojson) return { mmsi, ...window, points, truncated };
    reply.type('application/geo+json');
    return {
      type: 'Feature' as const,
      geometry: points.length < 2 ? null : { type: 'LineString' as const, coordinates: points.map((p) => [p.lon, p.lat]) },
      properties: { mmsi, name: vessel.name, ...window, times: points.map((p) => p.time), truncated },
    };
  });

  app.get('/v3/maritime/flags', {
    schema: {
      summary: 'The MID table: which flag each Maritime Identification Digits value stands for',
      description: 'From the ITU MID table. The first three digits of a ship MMSI are its MID.',
      tags: [TAG],
      response: { 200: Type.Object({ data: Type.Array(FlagSchema) }) },
    },
  }, async () => ({ data: [...MID_TABLE] }));
}
