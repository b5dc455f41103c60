// REST for a port's expected arrivals and its berth availability.
import { Type } from 'typebox';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import type { App } from '../../platform/http/app.ts';
import { decodeCursor, PageQuery, pageOf } from '../../platform/http/pagination.ts';
import { DateTime, instant, invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { shownDistanceNm } from '../../platform/http/geo-query.ts';
import { VESSEL_CATEGORIES } from '../vessels/reference/index.ts';
import type { Vessel } from '../vessels/store.ts';
import { IdParams, portById } from './ports.routes.ts';
import type { ArrivalPredictor, ExpectedArrival } from './arrivals.ts';
import type { Availability } from './availability.ts';
import type { BerthViewer } from './berths.ts';
import { CapacitySchema } from './berths.routes.ts';
import type { Port, PortIndex } from './model.ts';

const TAG = 'Ports';
/** How far back `at` may reach (calls are kept that long at least) and how far ahead (AIS ETAs say no more). */
export const AT_PAST_DAYS = 366;
export const AT_FUTURE_DAYS = 30;
const DAY_MS = 86_400_000;

const FitLimitSchema = Type.Enum(['max_draught', 'channel_depth', 'max_length', 'max_beam']);

const ArrivalSchema = Shared('PortArrival', Type.Object({
  mmsi: Type.Integer(),
  name: nullable(Type.String()),
  imo: nullable(Type.Integer()),
  ship_type: nullable(Type.Integer()),
  category: Type.Enum([...VESSEL_CATEGORIES]),
  flag: nullable(Type.String({ description: 'ISO 3166-1 alpha-2 from the MMSI' })),
  source: Type.String({ description: 'Source of the vessel\'s latest message: live, simulated, replay or upload' }),
  match: Type.Enum(['destination', 'course'], { description: '`destination`: its AIS destination names the port; `course`: no usable destination, but its course leads there' }),
  destination: nullable(Type.String({ description: 'The AIS destination as reported' })),
  destination_match: nullable(Type.Object({
    leg: Type.String({ description: 'The part of the text read as the port (the last leg of a route)' }),
    matched_by: Type.Enum(['unlocode', 'abbreviation', 'name']),
    ambiguous: Type.Boolean({ description: 'Other ports fit the text too; this one won by country, harbour size or nearness' }),
  })),
  position: nullable(Type.Object({
    lat: Type.Number(), lon: Type.Number(),
    sog: nullable(Type.Number()), cog: nullable(Type.Number()), nav_status: nullable(Type.Integer()),
    timestamp: Type.String({ format: 'date-time' }),
  })),
  distance_nm: nullable(Type.Number({ description: 'Great-circle distance to the port, 0.1 nm' })),
  reported_eta: nullable(Type.String({ format: 'date-time', description: 'The ETA the vessel reports in AIS' })),
  course_eta: nullable(Type.String({ format: 'date-time', description: 'Course matches: distance over speed, in a straight line' })),
  predicted_eta: nullable(Type.String({
    format: 'date-time',
    description: 'The weather-aware prediction along the sea route, as `/v3/maritime/vessels/{mmsi}/eta` gives it; null when it cannot predict (no position, not under way, no route) or with `predict=false`',
  })),
  predicted_distance_nm: nullable(Type.Number({ description: 'Distance to go along the route of the prediction' })),
  draught_m: nullable(Type.Number({ description: 'Reported draught' })),
  length_m: nullable(Type.Number()),
  beam_m: nullable(Type.Number()),
  fit: Type.Object({
    verdict: Type.Enum(['fits', 'exceeds', 'unknown'], {
      description: '`exceeds` when a known limit is passed; `fits` when at least one could be checked and none is; WPI depths are at least-values without tide',
    }),
    checks: Type.Array(Type.Object({ limit: FitLimitSchema, port_m: Type.Number(), vessel_m: Type.Number(), fits: Type.Boolean() })),
    unknown: Type.Array(FitLimitSchema, { description: 'Limits not compared: the port\'s or the vessel\'s figure is unknown' }),
  }),
}));

const InPortSchema = Shared('VesselInPort', Type.Object({
  mmsi: Type.Integer(),
  name: nullable(Type.String()),
  state: Type.Enum(['at_berth', 'at_anchor']),
  call_id: Type.String(),
  arrived_at: Type.String({ format: 'date-time' }),
  berthed_at: nullable(Type.String({ format: 'date-time' })),
  expected_departure_at: nullable(Type.String({ format: 'date-time', description: 'null when the vessel has stayed past its typical time' })),
  expected_departure_basis: Type.Enum(['port_history', 'default', 'overdue'], {
    description: '`port_history`: the median stay at this port over 30 days; `default`: a typical stay for the vessel category; `overdue`: past it, counted as staying',
  }),
  berth_id: nullable(Type.String({ description: 'The berth record it lies at, where berth positions allow' })),
}));

const AvailabilitySchema = Type.Object({
  port_id: Type.String(),
  at: Type.String({ format: 'date-time' }),
  basis: Type.Enum(['now', 'recorded', 'forecast'], { description: '`now`: live state; `recorded`: from stored calls; `forecast`: from expected departures and arrivals' }),
  capacity: CapacitySchema,
  at_berth: Type.Integer({ description: 'Vessels at berth; in a forecast, the demand for berths up to capacity' }),
  waiting: Type.Integer({ description: 'Vessels at anchor; in a forecast, the demand beyond capacity' }),
  available: Type.Integer({ description: 'Berths free' }),
  vessels: Type.Array(InPortSchema, { description: 'Vessels in port at `at` (in a forecast: those in port now still expected there); at most 200' }),
  expected_departures: Type.Array(InPortSchema, { description: 'Vessels at berth expected to leave by `at` (now: within 24 h); at most 200' }),
  expected_arrivals: Type.Array(Type.Object({
    mmsi: Type.Integer(),
    name: nullable(Type.String()),
    eta: Type.String({ format: 'date-time' }),
    eta_basis: Type.Enum(['reported', 'course']),
  }), { description: 'Vessels expected by `at` (now: within 24 h); at most 200' }),
  berths: Type.Array(Type.Object({
    id: Type.String(),
    name: Type.String(),
    organisation_id: nullable(Type.String({ description: 'Your organisation\'s own record; null: a shared one' })),
    occupied_by: nullable(Type.Object({ mmsi: Type.Integer(), name: nullable(Type.String()) })),
  }), { description: 'Berth records with a position, and the vessel placed at each' }),
  typical_stay_hours: nullable(Type.Number({ description: 'Median stay at the port over 30 days; null with fewer than 5 calls' })),
  disclaimer: Type.String(),
});

const isCursor = (key: unknown): key is string => typeof key === 'string';

export interface ArrivalsApiDeps {
  index: PortIndex;
  arrivals(port: Port, nowMs: number): ExpectedArrival[];
  /** With the berth records `viewer` sees: the shared ones and its organisation's. */
  availability(port: Port, atMs: number, nowMs: number, viewer: BerthViewer): Promise<Availability>;
  /** The weather-aware ETA (maritime/eta); without it `predicted_eta` stays null. */
  predictor?: ArrivalPredictor;
  onPredictionError?(error: unknown, mmsi: number, port: Port): void;
}

/** Sort key: the ETA used for ordering (none last), then the MMSI, as text that sorts that way. */
function sortKey(arrival: ExpectedArrival): string {
  const eta = arrival.course_eta ?? arrival.vessel.eta;
  return `${eta === null ? '~' : String(Date.parse(eta)).padStart(15, '0')}|${String(arrival.vessel.mmsi).padStart(9, '0')}`;
}

function arrivalView(arrival: ExpectedArrival, predicted: { eta: string; distance_nm: number | null } | null) {
  const vessel: Vessel = arrival.vessel;
  const position = vessel.position;
  return {
    mmsi: vessel.mmsi,
    name: vessel.name,
    imo: vessel.imo,
    ship_type: vessel.ship_type,
    category: vessel.category,
    flag: vessel.flag?.alpha2 ?? null,
    source: vessel.source,
    match: arrival.match,
    destination: vessel.destination,
    destination_match: arrival.destination === null
      ? null
      : { leg: arrival.destination.leg, matched_by: arrival.destination.matched_by, ambiguous: arrival.destination.ambiguous },
    position: position === null
      ? null
      : { lat: position.lat, lon: position.lon, sog: position.sog, cog: position.cog, nav_status: position.nav_status, timestamp: position.timestamp },
    distance_nm: shownDistanceNm(arrival.distance_nm),
    reported_eta: vessel.eta,
    course_eta: arrival.course_eta,
    predicted_eta: predicted?.eta ?? null,
    predicted_distance_nm: shownDistanceNm(predicted?.distance_nm ?? null),
    draught_m: vessel.draught,
    length_m: vessel.dimensions?.length ?? null,
    beam_m: vessel.dimensions?.beam ?? null,
    fit: { verdict: arrival.fit.verdict, checks: [...arrival.fit.checks], unknown: [...arrival.fit.unknown] },
  };
}

export function registerArrivalRoutes(app: App, deps: ArrivalsApiDeps): void {
  const { index } = deps;

  app.get('/v3/maritime/ports/:id/arrivals', {
    schema: {
      summary: 'Vessels expected at a port',
      description:
        'Vessels whose AIS destination names the port (UN/LOCODE with or without its space, names and common abbreviations, the last leg of `A>B` routes; ' +
        '"FOR ORDERS" and the like name no port), and vessels without a usable destination whose course leads there from within 60 nm. ' +
        'Soonest first by reported ETA (course matches by distance over speed; none last), cursor-paginated. Each carries its reported ETA, the predicted ETA where ' +
        'available, its draught and dimensions, and whether it fits the port\'s limits. 400 for a malformed id, 404 `port_not_found`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object({
        predict: Type.Optional(Type.Boolean({ default: true, description: 'Whether to predict each vessel\'s ETA along the sea route (false answers faster); predictions are reused for 5 minutes' })),
        ...PageQuery,
      }),
      response: {
        200: Type.Object({
          port_id: Type.String(),
          data: Type.Array(ArrivalSchema),
          next_cursor: nullable(Type.String()),
          disclaimer: Type.String(),
        }),
      },
    },
  }, async (request) => {
    const port = portById(index, request.params.id);
    const { limit, cursor, predict } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isCursor);
    const page = pageOf(deps.arrivals(port, Date.now()), sortKey, limit!, after);
    const predictions = await Promise.all(page.data.map(async (arrival) => {
      if (deps.predictor === undefined || predict === false) return null;
      try {
        return await deps.predictor(arrival.vessel, port);
      } catch (error) {
        deps.onPredictionError?.(error, arrival.vessel.mmsi, port);
        return null;
      }
    }));
    return {
      port_id: port.id,
      data: page.data.map((arrival, i) => arrivalView(arrival, predictions[i]!)),
      next_cursor: page.next_cursor,
      disclaimer: DISCLAIMER,
    };
  });

  app.get('/v3/maritime/ports/:id/availability', {
    schema: {
      summary: 'Berth availability at a port, now or at a given time',
      description:
        'Capacity (the berth records you see: the shared ones and your organisation\'s; or an estimate marked as one), vessels at berth and at anchor, ' +
        'berths free, expected departures and arrivals, and the vessel at ' +
        `each positioned berth. \`at\` in the past answers from recorded calls (up to ${AT_PAST_DAYS} days back); in the future (up to ${AT_FUTURE_DAYS} days) ` +
        'it forecasts from typical stays and expected arrivals. 400 for a malformed id or an `at` out of range, 404 `port_not_found`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object({ at: Type.Optional(DateTime('The time to answer for (ISO 8601); default now')) }),
      response: { 200: AvailabilitySchema },
    },
  }, async (request) => {
    const port = portById(index, request.params.id);
    const now = Date.now();
    const at = request.query.at === undefined ? now : instant(request.query.at, '/querystring/at');
    if (at < now - AT_PAST_DAYS * DAY_MS) throw invalidField('/querystring/at', `must lie within the last ${AT_PAST_DAYS} days`);
    if (at > now + AT_FUTURE_DAYS * DAY_MS) throw invalidField('/querystring/at', `must lie within the next ${AT_FUTURE_DAYS} days`);
    const answer = await deps.availability(port, at, now, request.principal!.organisation_id);
    return {
      ...answer,
      capacity: { ...answer.capacity },
      vessels: [...answer.vessels],
      expected_departures: [...answer.expected_departures],
      expected_arrivals: [...answer.expected_arrivals],
      berths: [...answer.berths],
      disclaimer: DISCLAIMER,
    };
  });
}
