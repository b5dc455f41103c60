// GET and POST /v3/intelligence/landing: the landing bundle for a destination, an aircraft and an
// ETA. The fields come as a JSON body (GET or POST, since many clients and proxies drop GET
// bodies) or as query parameters.
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { ProblemError, problemType } from '../../platform/http/problems.ts';
import { invalidField } from '../../platform/http/schema.ts';
import { aircraftType, CONSERVATIVE_DEFAULTS } from '../reference/aircraft-types.ts';
import { airportOfCode } from '../reference/airports.routes.ts';
import type { Principal } from '../../platform/http/auth.ts';
import type { AviationServices } from '../services.ts';
import { landingBundleJson, type LandingRequest } from './bundle.ts';
import { LandingFields, LandingRequestSchema, LandingResponse } from './landing.schemas.ts';

/** An ETA this far in the past is still answered (a late request for an arrival under way). */
export const ETA_PAST_TOLERANCE_MS = 15 * 60_000;
/** Nothing useful can be said about an arrival further ahead than this. */
export const ETA_MAX_AHEAD_MS = 366 * 86_400_000;

const LANDS_AT_AIRPORTS = new Set(['aircraft', 'helicopter']);

export const vehicleCannotLand = problemType({
  code: 'vehicle_cannot_land', status: 422, title: 'This vehicle does not land at airports',
  description: 'Landing intelligence is for aircraft-capable vehicle types (`aircraft`, `helicopter`).',
});
export const etaOutOfRange = problemType({
  code: 'eta_out_of_range', status: 422, title: 'The ETA is too far in the past or future',
  description: 'An ETA may lie at most 15 minutes in the past and at most 366 days ahead.',
});
export const invalidAircraftType = problemType({
  code: 'invalid_aircraft_type', status: 422, title: 'Unknown aircraft type',
  description: 'The `aircraft_type` is not an ICAO type designator LAMIS knows; see `/v3/aviation/aircraft-types`.',
});

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]00:?00)$/;

function invalid(location: string, field: string, message: string): ProblemError {
  return invalidField(`/${location}/${field}`, message);
}

async function toRequest(services: AviationServices, principal: Principal, fields: LandingFields, location: 'body' | 'querystring', nowMs: number): Promise<LandingRequest> {
  if (!ISO_UTC.test(fields.eta_utc) || Number.isNaN(Date.parse(fields.eta_utc))) {
    throw invalid(location, 'eta_utc', `must be an ISO 8601 time in UTC, e.g. 2026-11-21T14:20:00Z (got "${fields.eta_utc}")`);
  }
  const airport = airportOfCode(services, fields.destination_icao, `/${location}/destination_icao`);
  const requestedCode = fields.destination_icao.toUpperCase();
  if (!LANDS_AT_AIRPORTS.has(fields.vehicle_type)) {
    throw new ProblemError(vehicleCannotLand, `A ${fields.vehicle_type} does not land at airports; landing intelligence is for aircraft and helicopters.`);
  }
  const etaMs = Date.parse(fields.eta_utc);
  if (etaMs < nowMs - ETA_PAST_TOLERANCE_MS || etaMs > nowMs + ETA_MAX_AHEAD_MS) {
    throw new ProblemError(etaOutOfRange, `eta_utc ${fields.eta_utc} is more than 15 minutes in the past or more than 366 days ahead.`);
  }
  const category = fields.vehicle_type as 'aircraft' | 'helicopter';
  const registration = fields.registration.toUpperCase();
  // The caller's own fleet first: its figures are the operator's, not a type's.
  const fleetProfile = await services.fleet.landingProfileOf(principal.organisation_id ?? principal.key_id, fields.registration, category);
  if (fleetProfile) return { airport, requestedCode, etaMs, registration, vehicleType: category, profile: fleetProfile, profileSource: 'fleet' };
  if (fields.aircraft_type !== undefined) {
    const type = aircraftType(fields.aircraft_type);
    if (!type) throw new ProblemError(invalidAircraftType, `No aircraft type ${fields.aircraft_type.toUpperCase()} in the type table.`);
    return { airport, requestedCode, etaMs, registration, vehicleType: category, profile: type, profileSource: 'aircraft_type' };
  }
  return { airport, requestedCode, etaMs, registration, vehicleType: category, profile: CONSERVATIVE_DEFAULTS[category], profileSource: 'default' };
}

/** The answer as JSON, written by the route's own serialiser (so by its response schema) and sent as it is. */
async function answer(services: AviationServices, request: LandingRequest, requestId: string, nowMs: number, reply: FastifyReply): Promise<FastifyReply> {
  // The route's serialiser writes text (fast-json-stringify).
  const json = await landingBundleJson(services, request, requestId, nowMs, (bundle) => reply.serialize(bundle) as string);
  return reply.type('application/json; charset=utf-8').send(json);
}

export function registerLandingRoutes(app: App, services: AviationServices): void {
  const description =
    'Airport status, weather (raw METAR and what it means), the recommended runway and approach, NOTAMs in force at the ETA, ' +
    'slot availability in the ETA\'s hour and an explained safety score, with the source and age of every input. ' +
    'Without `aircraft_type` (and until fleets exist) the aircraft is taken at documented conservative figures. ' +
    'Rules: see the README and src/aviation/landing/RULES.md.';
  const schema = { tags: ['Landing'], response: { 200: LandingResponse } };

  app.get('/v3/intelligence/landing', {
    // A HEAD route cannot carry the body schema, and a bundle without its body is of no use.
    exposeHeadRoute: false,
    // Without a body there is nothing to validate there: the fields come as query parameters.
    preValidation: async (request) => {
      if (request.body === undefined) request.body = null;
    },
    schema: {
      ...schema,
      summary: 'Landing intelligence for a destination, aircraft and ETA (fields as query parameters or a JSON body)',
      description,
      querystring: Type.Partial(LandingFields),
      body: Type.Union([LandingRequestSchema, Type.Null()]),
    },
  }, async (request, reply) => {
    const fromBody = request.body !== undefined && request.body !== null;
    const fields = (fromBody ? request.body : request.query) as Partial<LandingFields>;
    const location = fromBody ? 'body' : 'querystring';
    for (const field of ['destination_icao', 'vehicle_type', 'eta_utc', 'registration'] as const) {
      if (fields[field] === undefined) throw invalid(location, field, 'is required');
    }
    const nowMs = Date.now();
    return answer(services, await toRequest(services, request.principal!, fields as LandingFields, location, nowMs), request.id, nowMs, reply);
  });

  app.post('/v3/intelligence/landing', {
    schema: { ...schema, summary: 'Landing intelligence (the same as GET, with the fields as a JSON body)', description, body: LandingRequestSchema },
  }, async (request, reply) => {
    const nowMs = Date.now();
    return answer(services, await toRequest(services, request.principal!, request.body, 'body', nowMs), request.id, nowMs, reply);
  });
}
