// REST for ports: search by name, UN/LOCODE, WPI number, country and distance, and one port by id.
import { Type, type Static } from 'typebox';
import { ringPositions } from '../../platform/geo/ring.ts';
import type { App } from '../../platform/http/app.ts';
import { geoSearchPage, NearQueryParams, shownDistanceNm } from '../../platform/http/geo-query.ts';
import { Page, PageQuery } from '../../platform/http/pagination.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { invalidField as invalid, nullable, PointCollection, Shared } from '../../platform/http/schema.ts';
import { normalizeLon } from '../sea-routes/geo.ts';
import { CLUSTER_MARGIN_NM, EXIT_MARGIN_NM, FORGET_DAYS, MIN_STOPS, TYPE_SCALE, type PortArea, type StopCluster } from './areas.ts';
import { APPROACH_RADIUS_NM, HARBOUR_SIZES, HARBOUR_TYPES, PORT_SOURCES, SHELTERS, type Port, type PortIndex } from './ports.ts';

const TAG = 'Ports';
const ID_PATTERN = /^([A-Za-z]{2}[A-Za-z2-9]{3}|WPI-\d{1,6}(\.\d{1,3})?)$/i;

export const portNotFound = problemType({
  code: 'port_not_found',
  status: 404,
  title: 'No such port',
  description: 'No port with this UN/LOCODE or WPI number is in the port data LAMIS holds (sea-ports and the World Port Index built in, UN/LOCODE when imported).',
});

const SourceSchema = Type.Enum([...PORT_SOURCES]);
const metres = (description: string) => nullable(Type.Number({ description: `Metres; null when the source does not say. ${description}`.trim() }));

const portFields = {
  id: Type.String({ description: 'The UN/LOCODE ("NLRTM") when the port has one to itself, else "WPI-<number>"' }),
  unlocode: nullable(Type.String({ description: 'UN/LOCODE, five characters without the space' })),
  wpi_number: nullable(Type.Number({ description: 'World Port Index number' })),
  name: Type.String(),
  alternate_names: Type.Array(Type.Object({ name: Type.String(), source: SourceSchema }), { description: 'Other names the sources give' }),
  country: nullable(Type.String({ description: 'ISO 3166-1 alpha-2' })),
  lat: Type.Number(),
  lon: Type.Number(),
  timezone: nullable(Type.String({ description: 'IANA time zone' })),
  harbour_size: nullable(Type.Enum([...HARBOUR_SIZES])),
  harbour_type: nullable(Type.Enum([...HARBOUR_TYPES])),
  shelter: nullable(Type.Enum([...SHELTERS], { description: 'How well the harbour is sheltered from wind and sea (World Port Index "Shelter Afforded"); it sets the sea state at the port and its default weather limits' })),
  channel_depth_m: metres('World Port Index depths are mostly the lower edge of a 5-foot band: read them as "at least".'),
  anchorage_depth_m: metres(''),
  cargo_pier_depth_m: metres(''),
  oil_terminal_depth_m: metres(''),
  tidal_range_m: metres(''),
  max_vessel_length_m: metres(''),
  max_vessel_beam_m: metres(''),
  max_vessel_draught_m: metres(''),
  entrance_restrictions: nullable(Type.Object({
    tide: nullable(Type.Boolean()),
    swell: nullable(Type.Boolean()),
    ice: nullable(Type.Boolean()),
    other: nullable(Type.Boolean()),
  }, { description: 'Whether the World Port Index lists each condition as restricting the entrance; null: unknown' })),
  approach_area: Type.Object({
    kind: Type.Literal('circle'),
    radius_nm: Type.Number(),
  }, {
    description: `The circle by harbour size alone round the port position ` +
      `(${Object.entries(APPROACH_RADIUS_NM).map(([size, radius]) => `${size} ${radius} nm`).join(', ')}); ` +
      'the water LAMIS counts as the port is `area` on `/v3/maritime/ports/{id}`',
  }),
  sources: Type.Record(Type.String(), SourceSchema, { description: 'Which source each field with a value came from' }),
};

const ClusterSchema = Type.Object({
  id: Type.String({ description: 'The cluster\'s id, stable while it is kept' }),
  centroid: Type.Object({ lat: Type.Number(), lon: Type.Number() }, { description: 'The mean position of its stops' }),
  radius_nm: Type.Number({ description: 'The farthest a stop report lay from the centroid, 0.01 nm' }),
  stops: Type.Integer({ description: 'Vessel stops seen in it (one per vessel per stay)' }),
  first_seen: Type.String({ format: 'date-time', description: 'The first stop report in it' }),
  last_seen: Type.String({ format: 'date-time', description: `The latest stop report in it; clusters not seen for ${FORGET_DAYS} days are forgotten` }),
});

const AreaSchema = Shared('PortArea', Type.Object({
  polygon: Type.Object({
    type: Type.Literal('Polygon'),
    coordinates: Type.Array(Type.Array(Type.Array(Type.Number(), { minItems: 2, maxItems: 2 }))),
  }, { description: 'GeoJSON polygon ([lon, lat], first point repeated last): a vessel that stops inside has arrived' }),
  exit_margin_nm: Type.Number({ description: 'How far beyond the polygon a vessel in port may go before it has left' }),
  anchorages: Type.Array(ClusterSchema, { description: 'Clusters of vessels reporting at anchor (AIS navigation status 1) below 0.5 kn' }),
  berth_clusters: Type.Array(ClusterSchema, { description: 'Clusters of vessels reporting moored (AIS navigation status 5) below 0.5 kn' }),
  derivation: Type.Object({
    method: Type.Enum(['base', 'seeded', 'evidence'], {
      description: '`base`: the circle by harbour size and type alone; `seeded`: a river port\'s circle with those of the smaller WPI ports of its country within reach ' +
        `(\`seeds\`), where its terminals may lie; \`evidence\`: with the convex hull of the AIS clusters of ${MIN_STOPS} stops or more, each widened by ${CLUSTER_MARGIN_NM} nm`,
    }),
    base_radius_nm: Type.Number({
      description: `The radius by harbour size times a factor by harbour type (${Object.entries(TYPE_SCALE).map(([type, scale]) => `${type} ${scale}`).join(', ')}; unknown 1)`,
    }),
    seeds: Type.Array(Type.String(), { description: 'The ids of the ports whose circles a river port\'s area takes in' }),
    clusters_used: Type.Integer({ description: 'The clusters the hull takes in' }),
    reasoning: Type.String({ description: 'How the area was made, in words' }),
  }),
}, { description: 'The water LAMIS counts as the port: where port calls, congestion and expected arrivals look' }));

const PortSchema = Shared('Port', Type.Object({ ...portFields, area: AreaSchema }));
const PortHitSchema = Shared('PortSearchHit', Type.Object({
  ...portFields,
  distance_nm: nullable(Type.Number({ description: 'Great-circle distance from `near`, 0.1 nm; null without `near`' })),
}));

const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Words that must all appear in the UN/LOCODE, WPI number, name or an alternate name (case and accents ignored)' })),
  country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' })),
  ...NearQueryParams('ports'),
  ...PageQuery,
});

export const IdParams = Type.Object({
  id: Type.String({ description: 'A UN/LOCODE ("NLRTM", any case) or a World Port Index number as "WPI-31140"' }),
});

/** The port with this id; 400 for a malformed id, 404 `port_not_found` for an unknown one, both naming `path`. */
export function portById(index: PortIndex, id: string, path = '/params/id'): Port {
  if (!ID_PATTERN.test(id)) throw invalid(path, `must be a UN/LOCODE such as NLRTM or a WPI number such as WPI-31140 (got "${id}")`);
  const port = index.get(id);
  if (port === null) {
    const detail = `No port ${id.toUpperCase()} in the port data.`;
    throw new ProblemError(portNotFound, detail, { errors: [{ path, message: detail }] });
  }
  return port;
}

export interface PortApiDeps {
  index: PortIndex;
  area(port: Port): PortArea;
}

const PortLabelsSchema = Shared('PortLabels', PointCollection(Type.Object({
  id: Type.String({ description: 'As on `/v3/maritime/ports/{id}`' }),
  name: Type.String(),
  size: nullable(Type.Enum([...HARBOUR_SIZES], { description: 'Harbour size (World Port Index); null when unknown' })),
}), 'Every port as a point with its name and harbour size, larger harbours first'));

/** Larger harbours first, so a map that places labels in order shows them when labels collide. */
const SIZE_ORDER = new Map<string | null, number>([...HARBOUR_SIZES.map((size, rank) => [size, rank] as const), [null, HARBOUR_SIZES.length]]);

export function registerPortRoutes(app: App, deps: PortApiDeps): void {
  const { index } = deps;
  // The index does not change while LAMIS runs: the labels are made once, at the first request.
  let labels: Static<typeof PortLabelsSchema> | null = null;

  app.get('/v3/maritime/ports', {
    schema: {
      summary: 'Find ports by name, UN/LOCODE, WPI number, country or distance',
      description:
        'Filters combine (AND). With `near`: ports within `radius_nm`, nearest first. With `q` alone: the best matches first ' +
        '(the code itself, then a name or alternate name with a word starting with the query, larger harbours first). Otherwise by id. ' +
        'Cursor-paginated; a cursor is only valid for a search in the same order.',
      tags: [TAG],
      querystring: SearchQuery,
      response: { 200: Page(PortHitSchema) },
    },
  }, async (request) => {
    const { q, country, limit } = request.query;
    const page = geoSearchPage(request.query, 'id', (near, after) => index.search({ q, country, near, limit, after }));
    return {
      data: page.items.map((hit) => ({ ...portView(hit.port), distance_nm: shownDistanceNm(hit.distance_nm) })),
      next_cursor: page.next_cursor,
    };
  });

  app.get('/v3/maritime/ports/labels', {
    schema: {
      summary: 'Every port as a map label: a GeoJSON point with name and harbour size',
      description: 'One request for a map\'s port names (the dashboard\'s live map draws them), instead of paging through the search. ' +
        'Larger harbours first. The same for every caller while LAMIS runs, so it may be cached for an hour.',
      tags: [TAG],
      response: { 200: PortLabelsSchema },
    },
  }, async (_request, reply) => {
    labels ??= {
      type: 'FeatureCollection',
      features: [...index.ports]
        .sort((a, b) => SIZE_ORDER.get(a.harbour_size)! - SIZE_ORDER.get(b.harbour_size)! || a.id.localeCompare(b.id))
        .map((port) => ({
          type: 'Feature' as const,
          geometry: { type: 'Point' as const, coordinates: [round(normalizeLon(port.lon), 4), round(port.lat, 4)] },
          properties: { id: port.id, name: port.name, size: port.harbour_size },
        })),
    };
    reply.header('Cache-Control', 'private, max-age=3600');
    return labels;
  });

  app.get('/v3/maritime/ports/:id', {
    schema: {
      summary: 'One port by UN/LOCODE or WPI number',
      description: 'Each field names its source in `sources`; `area` is the water LAMIS counts as the port and how it was made. ' +
        '400 for a malformed id, 404 `port_not_found` for an unknown one.',
      tags: [TAG],
      params: IdParams,
      response: { 200: PortSchema },
    },
  }, async (request) => {
    const port = portById(index, request.params.id);
    return { ...portView(port), area: areaView(deps.area(port)) };
  });
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

function clusterView(cluster: StopCluster) {
  return {
    id: cluster.id,
    centroid: { lat: round(cluster.lat, 5), lon: round(cluster.lon, 5) },
    radius_nm: round(cluster.radius_nm, 2),
    stops: cluster.stops,
    first_seen: cluster.first_seen,
    last_seen: cluster.last_seen,
  };
}

function areaView(area: PortArea) {
  return {
    polygon: { type: 'Polygon' as const, coordinates: [ringPositions(area.polygon).map(([lon, lat]) => [round(normalizeLon(lon), 5), round(lat, 5)])] },
    exit_margin_nm: EXIT_MARGIN_NM,
    anchorages: area.anchorages.map(clusterView),
    berth_clusters: area.berth_clusters.map(clusterView),
    derivation: { ...area.derivation, seeds: [...area.derivation.seeds] },
  };
}

/** The index's port with mutable arrays, as the response type wants. */
function portView(port: Port) {
  return { ...port, alternate_names: [...port.alternate_names] };
}
