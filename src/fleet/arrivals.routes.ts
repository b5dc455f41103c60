// REST for planned arrivals, under a vehicle of the fleet: add, list (watched by default, or
// archived), move the ETA, remove. Mounted on every fleet mount, like the vehicle routes: for API
// keys under /v3/fleet and for signed-in members under the organisation's path.
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { ETA_MAX_AHEAD_MS, ETA_PAST_TOLERANCE_MS, etaOutOfRange, vehicleCannotLand } from '../aviation/index.ts';
import type { App } from '../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../platform/http/pagination.ts';
import { ProblemError } from '../platform/http/problems.ts';
import { instant, invalidField, Shared } from '../platform/http/schema.ts';
import { arrivalNotFound } from './arrivals.problems.ts';
import type { ArrivalChange } from './changes.ts';
import { ARRIVAL_STATES, type ArrivalKey, type ArrivalStore } from './arrivals.ts';
import { vehicleNotFound } from './vehicles.problems.ts';
import { refuseUnknown, withNote, type FleetMount } from './vehicles.routes.ts';

const TAG = 'Fleet';

const EtaField = Type.String({ format: 'date-time', description: 'Estimated time of arrival, ISO 8601 in UTC, e.g. 2026-11-21T14:20:00Z: at most 15 minutes past and 366 days ahead' });
const NewArrival = Shared('NewPlannedArrival', Type.Object({
  destination_icao: Type.String({ description: 'Airport code, any case: ICAO (4 letters or digits) or IATA (3 letters), stored as the airport\'s ICAO code ("LHR" becomes "EGLL"); a 4-character code the airport data does not hold is kept as given' }),
  eta_utc: EtaField,
}));
const ArrivalChanges = Shared('PlannedArrivalChanges', Type.Object({ eta_utc: EtaField }));

const ArrivalSchema = Shared('PlannedArrival', Type.Object({
  id: Type.String({ description: '`arr_` and 16 letters or digits' }),
  vehicle_id: Type.String(),
  destination_icao: Type.String({ description: 'The ICAO code of the destination (the one an IATA code given stands for), upper case' }),
  eta_utc: Type.String({ format: 'date-time' }),
  state: Type.Enum([...ARRIVAL_STATES], { description: '`watched` until an hour after the ETA, then `archived`' }),
  watched_until: Type.String({ format: 'date-time', description: 'An hour after the ETA' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
}));

const isArrivalKey = (key: unknown): key is ArrivalKey =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

/** The ETA's instant, within the landing endpoint's window: 400 when it is not an ISO time in UTC, 422 outside. */
function etaOf(text: string, nowMs: number): number {
  const etaMs = instant(text, '/body/eta_utc');
  if (!/(Z|[+-]00:?00)$/i.test(text)) throw invalidField('/body/eta_utc', `must be in UTC, e.g. 2026-11-21T14:20:00Z (got "${text}")`);
  if (etaMs < nowMs - ETA_PAST_TOLERANCE_MS || etaMs > nowMs + ETA_MAX_AHEAD_MS) {
    throw new ProblemError(etaOutOfRange, `eta_utc ${text} is more than 15 minutes in the past or more than 366 days ahead.`);
  }
  return etaMs;
}

/**
 * The planned-arrival routes under `mount.prefix`/vehicles/{id}/arrivals. `announce`: tells the
 * rules that watch arrivals what changed, once it is stored; `airportCode`: the ICAO code of an
 * airport code (ICAO or IATA), null for one the airport data does not hold.
 */
export function mountArrivalRoutes(
  app: App, store: ArrivalStore, mount: FleetMount, announce: (change: ArrivalChange) => Promise<void>, airportCode: (code: string) => Promise<string | null>,
): void {
  const { prefix, ownerOf } = mount;
  const VehicleParams = Type.Object({ ...mount.params, id: Type.String({ maxLength: 64, description: 'The vehicle id' }) });
  const ArrivalParams = Type.Object({ ...VehicleParams.properties, arrivalId: Type.String({ maxLength: 64, description: 'The arrival id' }) });
  const path = `${prefix}/vehicles/:id/arrivals`;
  const noVehicle = (id: string) => new ProblemError(vehicleNotFound, `No vehicle ${id} in your fleet.`);
  /** A missing vehicle answers as such; an arrival of another vehicle as a missing arrival. */
  const noArrival = async (request: FastifyRequest<{ Params: { id: string; arrivalId: string } }>) =>
    (await store.hasVehicle(ownerOf(request), request.params.id))
      ? new ProblemError(arrivalNotFound, `Vehicle ${request.params.id} has no planned arrival ${request.params.arrivalId}.`)
      : noVehicle(request.params.id);

  const create = mount.admit('manage', 'plan arrivals');
  app.post(path, {
    ...create.options,
    schema: {
      summary: 'Plan an arrival of a vehicle',
      description: withNote(
        'An aircraft or helicopter of your fleet lands at `destination_icao` at `eta_utc`; the arrival is watched until an hour after the ETA. ' +
        '201 with the arrival; 404 `vehicle_not_found`; 422 `vehicle_cannot_land` for a vessel; 422 `eta_out_of_range`.',
        create.note,
      ),
      tags: [TAG],
      params: VehicleParams,
      body: NewArrival,
      response: { 201: ArrivalSchema },
    },
  }, async (request, reply) => {
    refuseUnknown(request.body, ['destination_icao', 'eta_utc']);
    const { destination_icao: destination, eta_utc: eta } = request.body;
    if (!/^[A-Za-z0-9]{3,4}$/.test(destination)) throw invalidField('/body/destination_icao', `must be an airport code of 3 or 4 letters or digits, e.g. EGLL or LHR (got "${destination}")`);
    const icao = await airportCode(destination);
    // Three letters are an IATA code, which only the airport data can turn into an ICAO code.
    if (icao === null && /^[A-Za-z]{3}$/.test(destination)) throw invalidField('/body/destination_icao', `no airport has the IATA code ${destination.toUpperCase()}`);
    const nowMs = Date.now();
    const result = await store.create(ownerOf(request), request.params.id, icao ?? destination, etaOf(eta, nowMs), nowMs);
    if (result.status === 'vehicle_not_found') throw noVehicle(request.params.id);
    if (result.status === 'cannot_land') throw new ProblemError(vehicleCannotLand, `Vehicle ${request.params.id} is a ${result.vehicle_type}; only aircraft and helicopters have planned arrivals.`);
    await announce({ org_id: ownerOf(request), vehicle_id: request.params.id, arrival_id: result.arrival.id, change: 'created' });
    reply.code(201).header('Location', `${request.url.replace(/\?.*$/, '')}/${result.arrival.id}`);
    return result.arrival;
  });

  const list = mount.admit('view', 'see the fleet');
  app.get(path, {
    ...list.options,
    schema: {
      summary: 'The planned arrivals of a vehicle',
      description: withNote('By ETA (ties by id), cursor-paginated; the watched ones unless `state=archived`. 404 `vehicle_not_found`.', list.note),
      tags: [TAG],
      params: VehicleParams,
      querystring: Type.Object({ state: Type.Optional(Type.Enum([...ARRIVAL_STATES], { default: 'watched' })), ...PageQuery }),
      response: { 200: Page(ArrivalSchema) },
    },
  }, async (request) => {
    const { state, limit, cursor } = request.query;
    const after = cursor === undefined ? undefined : decodeCursor(cursor, isArrivalKey);
    const page = await store.list(ownerOf(request), request.params.id, { state: state!, limit: limit!, after, nowMs: Date.now() });
    if (!page) throw noVehicle(request.params.id);
    return { data: page.data, next_cursor: page.next === null ? null : encodeCursor(page.next) };
  });

  const read = mount.admit('view', 'see the fleet');
  app.get(`${path}/:arrivalId`, {
    ...read.options,
    schema: { summary: 'One planned arrival', description: withNote('Watched or archived. 404 `vehicle_not_found`, `arrival_not_found`.', read.note), tags: [TAG], params: ArrivalParams, response: { 200: ArrivalSchema } },
  }, async (request) => {
    const arrival = await store.get(ownerOf(request), request.params.id, request.params.arrivalId, Date.now());
    if (!arrival) throw await noArrival(request);
    return arrival;
  });

  const change = mount.admit('manage', 'change planned arrivals');
  app.patch(`${path}/:arrivalId`, {
    ...change.options,
    schema: {
      summary: 'Move the ETA of a planned arrival',
      description: withNote('The new ETA obeys the same window; an archived arrival moved ahead is watched again. 404 `vehicle_not_found`, `arrival_not_found`; 422 `eta_out_of_range`.', change.note),
      tags: [TAG],
      params: ArrivalParams,
      body: ArrivalChanges,
      response: { 200: ArrivalSchema },
    },
  }, async (request) => {
    refuseUnknown(request.body, ['eta_utc']);
    const nowMs = Date.now();
    const arrival = await store.reschedule(ownerOf(request), request.params.id, request.params.arrivalId, etaOf(request.body.eta_utc, nowMs), nowMs);
    if (!arrival) throw await noArrival(request);
    await announce({ org_id: ownerOf(request), vehicle_id: request.params.id, arrival_id: arrival.id, change: 'rescheduled' });
    return arrival;
  });

  const remove = mount.admit('manage', 'remove planned arrivals');
  app.delete(`${path}/:arrivalId`, {
    ...remove.options,
    schema: {
      summary: 'Remove a planned arrival',
      description: withNote('404 `vehicle_not_found`, `arrival_not_found`.', remove.note),
      tags: [TAG],
      params: ArrivalParams,
      response: { 204: Type.Null({ description: 'Removed' }) },
    },
  }, async (request, reply) => {
    if (!(await store.delete(ownerOf(request), request.params.id, request.params.arrivalId))) throw await noArrival(request);
    await announce({ org_id: ownerOf(request), vehicle_id: request.params.id, arrival_id: request.params.arrivalId, change: 'deleted' });
    return reply.code(204).send(null);
  });
}
