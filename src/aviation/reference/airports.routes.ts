// Airports over REST: search, one airport with its runways, and its runways alone. The airport
// path parameter and its lookup serve every aviation route under /v3/aviation/airports/{icao}.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { geoSearchPage, NearQueryParams, shownDistanceNm } from '../../platform/http/geo-query.ts';
import { Page, PageQuery } from '../../platform/http/pagination.ts';
import { invalidField as invalid, nullable, Shared } from '../../platform/http/schema.ts';
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
  type Runway,
} from './airports.ts';

export const IcaoParams = Type.Object({
  icao: Type.String({ description: 'ICAO location indicator ("EGLL") or OurAirports ident ("00A"): 3 or 4 letters or digits, any case' }),
});

/** The airport named in the path: 400 for a malformed code, 404 for an unknown one. */
export function airportFor(services: AviationServices, code: string): Airport {
  if (!/^[A-Za-z0-9]{3,4}$/.test(code)) throw invalid('/params/icao', `must be 3 or 4 letters or digits (got "${code}")`);
  const airport = services.airports.get(code);
  if (airport === null) throw new ProblemError(airportNotFound, `No airport ${code.toUpperCase()} in the airport data.`);
  return airport;
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
  runways: Type.Array(RunwaySchema),
  ils: AirportIlsSchema,
  attribution: Type.String({ description: 'The data licence (ODbL) and where the data comes from' }),
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

export function registerAirportRoutes(app: App, services: AviationServices): void {
  const { airports } = services;

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

  app.get('/v3/aviation/airports/:icao', {
    schema: {
      summary: 'One airport with its runways',
      description: 'From OurAirports data (ODbL; see `attribution`), with the ILS from navigation data the operator imported (`ils`; unknown without it). 400 for a malformed code, 404 `airport_not_found` for an unknown one.',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: AirportSchema },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    return { ...airportFieldsOf(airport), runways: airport.runways.map(runwayView), ils: airportIls(services.navdata, airport.icao), attribution: AIRPORT_DATA_ATTRIBUTION };
  });

  app.get('/v3/aviation/airports/:icao/runways', {
    schema: {
      summary: 'The runways of one airport',
      description: 'Each runway with its ends (true heading, threshold, displaced threshold). Closed runways are not in the source data.',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: Type.Object({ data: Type.Array(RunwaySchema) }) },
    },
  }, async (request) => ({ data: airportFor(services, request.params.icao).runways.map(runwayView) }));
}
