// Airports over REST: search, one airport with its runways, frequencies and navaids, and its runways
// alone. The airport path parameter and its lookup serve every aviation route under
// /v3/aviation/airports/{icao}: an IATA code there answers as the airport's ICAO code, with a
// Content-Location header naming the ICAO path.
import { Type, type Static } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { geoSearchPage, NearQueryParams, shownDistanceNm } from '../../platform/http/geo-query.ts';
import { Page, PageQuery } from '../../platform/http/pagination.ts';
import { invalidField as invalid, nullable, PointCollection, Shared } from '../../platform/http/schema.ts';
import { airportIls } from '../navdata/navdata.ts';
import { AirportIlsSchema } from '../navdata/navdata.schemas.ts';
import { TAG, type AviationServices } from '../services.ts';
import { airportNotFound } from './airports.problems.ts';
import {
  AIRPORT_DATA_ATTRIBUTION,
  AIRPORT_TYPES,
  HEADING_SOURCES,
  RUNWAY_SURFACES,
  type Airport,
  type AirportIndex,
  type AirportType,
  type Runway,
} from './airports.ts';

/** An airport code as callers give it: ICAO, GPS code or ident (four characters), IATA (three letters). */
export const AIRPORT_CODE_PATTERN = '^[A-Za-z0-9]{3,4}$';

export const AIRPORT_CODE_DESCRIPTION =
  'ICAO location indicator ("EGLL"), IATA code ("LHR") or OurAirports ident ("00A"), any case. Three letters are read as an ' +
  'IATA code (an ident of three letters only when no airport has it as IATA code); four characters as ICAO code or ident.';

export const IcaoParams = Type.Object({
  icao: Type.String({
    description: `${AIRPORT_CODE_DESCRIPTION} A path by IATA code or ident answers as the ICAO path would, with a Content-Location header naming that path.`,
  }),
});

/**
 * The airport a caller's code names (see AIRPORT_CODE_DESCRIPTION): a 400 problem for a malformed
 * code and a 404 `airport_not_found` for an unknown one, both naming `field`.
 */
export function airportOfCode(services: AviationServices, code: string, field: string): Airport {
  if (!new RegExp(AIRPORT_CODE_PATTERN).test(code)) throw invalid(field, `must be an airport code of 3 or 4 letters or digits, e.g. EGLL or LHR (got "${code}")`);
  const airport = services.airports.get(code);
  if (airport === null) {
    const kind = /^[A-Za-z]{3}$/.test(code) ? 'IATA code' : 'code';
    const message = `no airport has the ${kind} ${code.toUpperCase()} in the airport data`;
    throw new ProblemError(airportNotFound, `No airport ${code.toUpperCase()} in the airport data.`, { errors: [{ path: field, message }] });
  }
  return airport;
}

/** The airport named in the path: 400 for a malformed code, 404 for an unknown one. */
export function airportFor(services: AviationServices, code: string): Airport {
  return airportOfCode(services, code, '/params/icao');
}

const RunwayEndSchema = Shared('RunwayEnd', Type.Object({
  ident: Type.String({ description: 'As painted: "09L", "27", "20T" (true), "H1"' }),
  true_heading_deg: Type.Number({ description: 'Degrees true, in (0, 360]' }),
  heading_source: Type.Enum([...HEADING_SOURCES], {
    description: '`data`: recorded and checked against the runway number; `thresholds`: bearing between the thresholds; `ident`: the number plus magnetic variation; `reciprocal`: the opposite end + 180°',
  }),
  lat: nullable(Type.Number({ description: 'Threshold position; null for an end derived from its opposite' })),
  lon: nullable(Type.Number()),
  elevation_ft: nullable(Type.Number()),
  displaced_threshold_ft: nullable(Type.Number()),
  ils: nullable(Type.Boolean({ description: 'From imported navigation data (see the airport\'s `ils`); null: unknown, no navigation data covers the airport' })),
}));

const RunwaySchema = Shared('Runway', Type.Object({
  id: Type.Integer({ description: 'OurAirports runway record id' }),
  designator: nullable(Type.String({ description: '"09L/27R"; null when the data describes neither end' })),
  length_ft: nullable(Type.Number()),
  width_ft: nullable(Type.Number()),
  surface: Type.Enum([...RUNWAY_SURFACES]),
  paved: nullable(Type.Boolean({ description: 'Asphalt or concrete; null when the surface is unknown' })),
  lighted: Type.Boolean(),
  closed: Type.Boolean(),
  ends: Type.Array(RunwayEndSchema, { description: 'Low-numbered end first; empty when the data gives no end' }),
}));

const FrequencySchema = Shared('AirportFrequency', Type.Object({
  type: Type.String({ description: 'OurAirports\' type word: "ATIS", "TWR" (tower), "APP" (approach), "DEP", "GND" (ground), "CLD"/"DEL" (clearance delivery), "CTAF", "UNIC" (Unicom), "AFIS"...' }),
  description: nullable(Type.String({ description: 'As the data names it, e.g. "Heathrow Tower"' })),
  frequency_mhz: Type.Number({ description: 'MHz, e.g. 118.5' }),
}, { description: 'A radio frequency of the airport (OurAirports)' }));

const NavaidSchema = Shared('Navaid', Type.Object({
  ident: Type.String({ description: 'Morse ident, e.g. "LON"' }),
  name: Type.String(),
  type: Type.String({ description: '"VOR", "VOR-DME", "VORTAC", "DME", "NDB", "NDB-DME" or "TACAN"' }),
  frequency_khz: nullable(Type.Number({ description: 'kHz as published: 113600 for a VOR on 113.60 MHz, 373 for an NDB; null when unknown' })),
  lat: Type.Number(),
  lon: Type.Number(),
  elevation_ft: nullable(Type.Number()),
  associated_airport: Type.String({ description: 'The airport the data associates the navaid with (this one)' }),
}, { description: 'A radio navigation aid associated with the airport (OurAirports; it lists no ILS)' }));

const airportFields = {
  icao: Type.String({ description: 'ICAO code, or the OurAirports ident of a field without one' }),
  iata: nullable(Type.String()),
  name: Type.String(),
  municipality: nullable(Type.String()),
  country: Type.String({ description: 'ISO 3166-1 alpha-2' }),
  region: nullable(Type.String({ description: 'ISO 3166-2' })),
  type: Type.Enum([...AIRPORT_TYPES]),
  status: Type.Union([Type.Literal('open'), Type.Literal('closed')]),
  lat: Type.Number(),
  lon: Type.Number(),
  elevation_ft: Type.Number(),
  timezone: nullable(Type.String({ description: 'IANA time zone; null when the data has none' })),
};

const AirportSummarySchema = Shared('AirportSummary', Type.Object({
  ...airportFields,
  runway_count: Type.Integer(),
  distance_nm: nullable(Type.Number({ description: 'Great-circle distance from `near`, 0.1 nm; null without `near`' })),
}));

const AirportSchema = Shared('Airport', Type.Object({
  ...airportFields,
  requested_code: Type.String({ description: 'The code as asked, upper case: "LHR" for a request by IATA code, else the same as `icao` or the OurAirports ident' }),
  runways: Type.Array(RunwaySchema),
  frequencies: Type.Array(FrequencySchema, { description: 'By type, then MHz; empty when the data lists none' }),
  navaids: Type.Array(NavaidSchema, { description: 'VOR, DME, NDB and TACAN the data associates with the airport; empty when none' }),
  ils: AirportIlsSchema,
  attribution: Type.String({ description: 'Where the data comes from and its licences: OurAirports (public domain) and the airport package (ODbL)' }),
}));

const SearchQuery = Type.Object({
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Words that must all appear in the code, IATA code, name or town (case and accents ignored)' })),
  country: Type.Optional(Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2' })),
  type: Type.Optional(Type.Enum([...AIRPORT_TYPES])),
  ...NearQueryParams('airports'),
  ...PageQuery,
});

function runwayView(runway: Runway) {
  return {
    id: runway.id,
    designator: runway.designator,
    length_ft: runway.length_ft,
    width_ft: runway.width_ft,
    surface: runway.surface,
    paved: runway.paved,
    lighted: runway.lighted,
    closed: runway.closed,
    ends: runway.ends.map(({ localizers: _localizers, ...end }) => end),
  };
}

function airportFieldsOf(airport: Airport) {
  const { runways: _runways, ...fields } = airport;
  return fields;
}

/** The airports a map names: the large and medium ones in use (small fields and heliports would bury them). */
const LABELLED_TYPES = new Map<AirportType, 'large' | 'medium'>([['large_airport', 'large'], ['medium_airport', 'medium']]);

const AirportLabelsSchema = Shared('AirportLabels', PointCollection(Type.Object({
  icao: Type.String({ description: 'As on `/v3/aviation/airports/{icao}`' }),
  iata: nullable(Type.String()),
  name: Type.String(),
  size: Type.Enum(['large', 'medium'], { description: 'From the OurAirports type: `large_airport` or `medium_airport`' }),
}), 'The large and medium airports in use as points with name and codes, large ones first'));

function airportLabels(index: AirportIndex): Static<typeof AirportLabelsSchema> {
  const labelled = index.airports({ status: 'open', types: [...LABELLED_TYPES.keys()] });
  labelled.sort((a, b) => (a.type === b.type ? a.icao.localeCompare(b.icao) : a.type === 'large_airport' ? -1 : 1));
  return {
    type: 'FeatureCollection',
    features: labelled.map((airport) => ({
      type: 'Feature' as const,
      geometry: { type: 'Point' as const, coordinates: [Math.round(airport.lon * 1e4) / 1e4, Math.round(airport.lat * 1e4) / 1e4] },
      properties: { icao: airport.icao, iata: airport.iata, name: airport.name, size: LABELLED_TYPES.get(airport.type)! },
    })),
  };
}

export function registerAirportRoutes(app: App, services: AviationServices): void {
  const { airports } = services;
  // Made once per airport index, at the first request after it.
  let labels: { index: AirportIndex; collection: Static<typeof AirportLabelsSchema> } | null = null;

  // A path by IATA code or ident answers as the ICAO path would; Content-Location names that one.
  app.addHook('onSend', async (request, reply) => {
    const route = request.routeOptions.url;
    const code = (request.params as { icao?: unknown } | undefined)?.icao;
    if (route === undefined || !route.startsWith('/v3/aviation/airports/:icao') || typeof code !== 'string' || reply.statusCode >= 300) return;
    const airport = airports.get(code);
    if (airport !== null && airport.icao !== code.toUpperCase()) {
      reply.header('Content-Location', request.url.replace(/\?.*$/, '').replace(`/airports/${code}`, `/airports/${encodeURIComponent(airport.icao)}`));
    }
  });

  app.get('/v3/aviation/airports', {
    schema: {
      summary: 'Find airports by name, code, country, type or distance',
      description:
        'Filters combine (AND). With `near`: airports within `radius_nm`, nearest first. With `q` alone: the best matches first ' +
        '(the code itself, then a word of the name or town starting with the query, larger airports first). Otherwise by code. ' +
        'Cursor-paginated; a cursor is only valid for a search in the same order.',
      tags: [TAG],
      querystring: SearchQuery,
      response: { 200: Page(AirportSummarySchema) },
    },
  }, async (request) => {
    const { q, country, type, limit } = request.query;
    const page = geoSearchPage(request.query, 'code', (near, after) => airports.search({ q, country, type, near, limit, after }));
    return {
      data: page.items.map((hit) => ({
        ...airportFieldsOf(hit.airport),
        runway_count: hit.airport.runways.length,
        distance_nm: shownDistanceNm(hit.distance_nm),
      })),
      next_cursor: page.next_cursor,
    };
  });

  app.get('/v3/aviation/airports/labels', {
    schema: {
      summary: 'The large and medium airports as map labels: GeoJSON points with name and codes',
      description: 'One request for a map\'s airport names (the dashboard\'s live map draws them), instead of paging through the search. ' +
        'Open large and medium airports (OurAirports types), large ones first. The same for every caller until the airport data changes; it may be cached for an hour.',
      tags: [TAG],
      response: { 200: AirportLabelsSchema },
    },
  }, async (_request, reply) => {
    if (labels?.index !== services.airports) labels = { index: services.airports, collection: airportLabels(services.airports) };
    reply.header('Cache-Control', 'private, max-age=3600');
    return labels.collection;
  });

  app.get('/v3/aviation/airports/:icao', {
    schema: {
      summary: 'One airport with its runways, frequencies, navaids and ILS',
      description: 'From OurAirports data (see `attribution`), by ICAO or IATA code, with the ILS from navigation data the operator imported (`ils`; unknown without it). 400 for a malformed code, 404 `airport_not_found` for an unknown one.',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: AirportSchema },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    return {
      ...airportFieldsOf(airport),
      requested_code: request.params.icao.toUpperCase(),
      runways: airport.runways.map(runwayView),
      frequencies: airports.frequencies(airport.icao).map((frequency) => ({ ...frequency })),
      navaids: airports.navaids(airport.icao).map((navaid) => ({ ...navaid, associated_airport: airport.icao })),
      ils: airportIls(services.navdata, airport.icao),
      attribution: AIRPORT_DATA_ATTRIBUTION,
    };
  });

  app.get('/v3/aviation/airports/:icao/runways', {
    schema: {
      summary: 'The runways of one airport',
      description: 'Each runway with its ends (true heading, threshold, displaced threshold), closed ones included (`closed`).',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: Type.Object({ data: Type.Array(RunwaySchema) }) },
    },
  }, async (request) => ({ data: airportFor(services, request.params.icao).runways.map(runwayView) }));
}
