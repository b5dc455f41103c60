// Reference data over REST: airport search, one airport with its runways, and aircraft types.
import { Type } from 'typebox';
import type { App } from '../platform/http/app.ts';
import { ProblemError, problemType } from '../platform/http/problems.ts';
import { geoSearchPage, NearQueryParams, shownDistanceNm } from '../platform/http/geo-query.ts';
import { decodeCursor, Page, PageQuery, pageOf } from '../platform/http/pagination.ts';
import { invalidField as invalid, nullable, Shared } from '../platform/http/schema.ts';
import { airportFor, IcaoParams, TAG } from './api-common.ts';
import { AIRCRAFT_TYPES, aircraftType, type AircraftType } from './reference/aircraft-types.ts';
import {
  AIRPORT_DATA_ATTRIBUTION,
  AIRPORT_TYPES,
  HEADING_SOURCES,
  RUNWAY_SURFACES,
  type Airport,
  type Runway,
} from './reference/airports.ts';
import type { AviationServices } from './services.ts';

export const unknownAircraftType = problemType({
  code: 'unknown_aircraft_type',
  status: 404,
  title: 'No such aircraft type',
  description: 'The ICAO Doc 8643 type designator is not in the aircraft type table LAMIS holds.',
});

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
  ils: nullable(Type.Boolean({ description: 'null: the data does not say' })),
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
    ends: runway.ends.map((end) => ({ ...end })),
  };
}

function airportFieldsOf(airport: Airport) {
  const { runways: _runways, ...fields } = airport;
  return fields;
}

function aircraftTypeView(type: AircraftType) {
  return { ...type, recat_eu: type.recat_eu ?? null, vref_kt: type.vref_kt ?? null };
}

export const aircraftTypeFields = {
  designator: Type.String({ description: 'ICAO Doc 8643 type designator' }),
  manufacturer: Type.String(),
  model: Type.String(),
  description: Type.String({ description: 'ICAO Doc 8643 description: L landplane, S seaplane, A amphibian, H helicopter, G gyrocopter, T tiltrotor; engines; J jet, T turboprop/turboshaft, P piston, E electric ("L2J")' }),
  vehicle_category: Type.Union([Type.Literal('aircraft'), Type.Literal('helicopter')]),
  approach_category: Type.Enum(['A', 'B', 'C', 'D', 'E', 'H'], { description: 'ICAO approach category by threshold speed; H for helicopters' }),
  wake_category: Type.Enum(['L', 'M', 'H', 'J'], { description: 'ICAO wake turbulence category (J: super)' }),
  recat_eu: nullable(Type.Enum(['A', 'B', 'C', 'D', 'E', 'F'], { description: 'EUROCONTROL RECAT-EU category' })),
  vref_kt: nullable(Type.Number({ description: 'Reference landing speed at maximum landing mass' })),
  crosswind_limit_kt: Type.Number({ description: 'Conservative crosswind component, gusts included: the demonstrated figure where public, else the certification minimum. Not an operational limit' }),
  landing_distance_m: Type.Number({ description: 'Unfactored landing distance at maximum landing mass, sea level, ISA, dry paved runway' }),
  min_runway_m: Type.Number({ description: 'Runway for a dispatch-factored landing: landing distance / 0.6, rounded up to 10 m' }),
  confidence: Type.Union([Type.Literal('published'), Type.Literal('estimated')], { description: '`estimated`: at least one figure is a conservative estimate' }),
  source: Type.String({ description: 'The public references the figures come from' }),
};
const AircraftTypeSchema = Shared('AircraftType', Type.Object(aircraftTypeFields));

const DesignatorParams = Type.Object({
  designator: Type.String({ description: 'ICAO Doc 8643 type designator, 2 to 4 letters or digits ("B738"), any case' }),
});

export function registerReferenceRoutes(app: App, services: AviationServices): void {
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
      description: 'From OurAirports data (ODbL; see `attribution`). 400 for a malformed code, 404 `airport_not_found` for an unknown one.',
      tags: [TAG],
      params: IcaoParams,
      response: { 200: AirportSchema },
    },
  }, async (request) => {
    const airport = airportFor(services, request.params.icao);
    return { ...airportFieldsOf(airport), runways: airport.runways.map(runwayView), attribution: AIRPORT_DATA_ATTRIBUTION };
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

  app.get('/v3/aviation/aircraft-types', {
    schema: {
      summary: 'The aircraft types LAMIS knows',
      description: 'Sorted by designator, cursor-paginated. Planning reference figures: the flight manual and the operator\'s procedures always govern.',
      tags: [TAG],
      querystring: Type.Object({ ...PageQuery }),
      response: { 200: Page(AircraftTypeSchema) },
    },
  }, async (request) => {
    const after = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, (k): k is string => typeof k === 'string');
    const page = pageOf(AIRCRAFT_TYPES, (type) => type.designator, request.query.limit!, after);
    return { data: page.data.map(aircraftTypeView), next_cursor: page.next_cursor };
  });

  app.get('/v3/aviation/aircraft-types/:designator', {
    schema: {
      summary: 'One aircraft type by ICAO designator',
      description: 'Approach, wake and RECAT-EU categories, crosswind figure and landing distance. 404 `unknown_aircraft_type` when the type is not in the table.',
      tags: [TAG],
      params: DesignatorParams,
      response: { 200: AircraftTypeSchema },
    },
  }, async (request) => {
    const designator = request.params.designator;
    if (!/^[A-Za-z0-9]{2,4}$/.test(designator)) throw invalid('/params/designator', `must be 2 to 4 letters or digits (got "${designator}")`);
    const type = aircraftType(designator);
    if (type === undefined) throw new ProblemError(unknownAircraftType, `${designator.toUpperCase()} is not in the aircraft type table.`);
    return aircraftTypeView(type);
  });
}
