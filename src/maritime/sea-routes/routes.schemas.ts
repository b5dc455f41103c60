// Request and response schemas of the sea-route endpoint.
import { Type, type Static } from 'typebox';
import { nullable } from '../../platform/http/schema.ts';
import { PASSAGES } from './passages.ts';

/** Passage speed assumed when the request gives none: a merchant ship's typical sea speed. */
export const DEFAULT_SPEED_KN = 14;
export const MIN_SPEED_KN = 0.5;
export const MAX_SPEED_KN = 50;
/** Larger than any ship afloat, so a typo does not pass for a dimension. */
const MAX_METRES = { length_m: 500, beam_m: 80, draught_m: 30, air_draft_m: 120 } as const;

const metres = (description: string, maximum: number) =>
  Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum, description: `${description}, m. Routes only through passages that take it.` }));

export const RouteQuery = Type.Object({
  from: Type.String({ description: 'Where the route starts: a port id as the ports API gives it (a UN/LOCODE such as "NLRTM" or "WPI-31140"), or "lat,lon" in degrees' }),
  to: Type.String({ description: 'Where the route ends, as `from`' }),
  draught_m: metres('The vessel\'s draught', MAX_METRES.draught_m),
  beam_m: metres('The vessel\'s beam (the Suez Canal\'s draught limit falls with it)', MAX_METRES.beam_m),
  length_m: metres('The vessel\'s length overall', MAX_METRES.length_m),
  air_draft_m: metres('The vessel\'s height above the waterline', MAX_METRES.air_draft_m),
  avoid: Type.Optional(Type.String({
    description: `Passages not to sail through, comma-separated: ${PASSAGES.map((passage) => `\`${passage.id}\``).join(', ')}`,
  })),
  speed_kn: Type.Optional(Type.Number({
    minimum: MIN_SPEED_KN, maximum: MAX_SPEED_KN,
    description: `Speed for the duration; default ${DEFAULT_SPEED_KN} kn, a typical sea speed of a merchant ship`,
  })),
});
export type RouteQuery = Static<typeof RouteQuery>;

const Limits = Type.Object({
  length_m: nullable(Type.Number()),
  beam_m: nullable(Type.Number()),
  draught_m: nullable(Type.Number({ description: 'For the Suez Canal: at beams up to 50 m; see `note`' })),
  air_draft_m: nullable(Type.Number()),
}, { description: 'null: no published limit' });

export const PassageSchema = Type.Object({
  id: Type.String({ description: 'What `avoid` takes' }),
  name: Type.String(),
  kind: Type.Enum(['canal', 'strait']),
  limits: Limits,
  note: Type.String({ description: 'Where the limits come from' }),
});

const Exceeded = Type.Object({
  dimension: Type.Enum(['length_m', 'beam_m', 'draught_m', 'air_draft_m']),
  vessel: Type.Number(),
  limit: Type.Number({ description: 'The passage\'s limit for this vessel' }),
});

export const RefusedSchema = Type.Object({
  passage: PassageSchema,
  exceeded: Type.Array(Exceeded),
});

const End = Type.Object({
  port: nullable(Type.Object({ id: Type.String(), name: Type.String() }, { description: 'The port, when the end was given as one' })),
  lat: Type.Number(),
  lon: Type.Number(),
  joins_network: Type.Object({
    lat: Type.Number(),
    lon: Type.Number(),
    distance_nm: Type.Number({ description: 'The straight connector from the end to the sea-lane network' }),
    crosses_land: Type.Boolean({ description: 'True when every connector on offer crossed land (an end far inland)' }),
  }),
});

const Coordinates = Type.Array(Type.Number());

export const RouteResponse = Type.Object({
  from: End,
  to: End,
  distance_nm: Type.Number({ description: 'Along the route, connectors included' }),
  speed_kn: Type.Number(),
  speed_source: Type.Enum(['given', 'default']),
  duration_hours: Type.Number({ description: 'distance_nm / speed_kn: no weather, currents, canal waits or pilotage' }),
  passages: Type.Array(PassageSchema, { description: 'The named passages the route sails through, in order' }),
  refused: Type.Array(RefusedSchema, { description: 'Passages a shorter route would use that the vessel does not fit' }),
  avoided: Type.Array(Type.String(), { description: 'The passages `avoid` named' }),
  vessel: Type.Object({
    length_m: nullable(Type.Number()), beam_m: nullable(Type.Number()), draught_m: nullable(Type.Number()), air_draft_m: nullable(Type.Number()),
  }, { description: 'The dimensions the route was fitted to; null: not given, taken to fit' }),
  route: Type.Object({
    type: Type.Literal('Feature'),
    geometry: Type.Union([
      Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Coordinates) }),
      Type.Object({ type: Type.Literal('MultiLineString'), coordinates: Type.Array(Type.Array(Coordinates)) }),
    ], {
      description: '[lon, lat], longitudes in -180..180. A route crossing 180° is cut there into a MultiLineString (RFC 7946 §3.1.9): ' +
        'one line ends at ±180 and the next starts at ∓180 at the same latitude.',
    }),
    properties: Type.Object({ distance_nm: Type.Number(), crosses_antimeridian: Type.Boolean() }),
  }, { description: 'The route as a GeoJSON Feature' }),
  network: Type.String({ description: 'What the route was found on' }),
  disclaimer: Type.String(),
});
