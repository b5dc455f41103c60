// REST for port calls: a port's calls and a vessel's calls, newest arrival first, cursor-paginated.
import { Type } from 'typebox';
import type { App } from '../../platform/http/app.ts';
import { decodeCursor, encodeCursor, Page, PageQuery } from '../../platform/http/pagination.ts';
import { ProblemError } from '../../platform/http/problems.ts';
import { DateTime, instant, invalidField, nullable, Shared } from '../../platform/http/schema.ts';
import { parseMmsi, vesselNotFound } from '../vessels/vessels.routes.ts';
import type { VesselStore } from '../vessels/store.ts';
import { IdParams, portById } from './ports.routes.ts';
import type { CallCursor, CallFilter, PortCallStore } from './call-store.ts';
import type { PortCall } from './calls.ts';
import type { PortIndex } from './model.ts';

const TAG = 'Ports';

export const PortCallSchema = Shared('PortCall', Type.Object({
  id: Type.String({ description: '`call_` and 16 letters or digits' }),
  mmsi: Type.Integer(),
  port_id: Type.String(),
  port_name: nullable(Type.String({ description: 'null when the port is no longer in the port data' })),
  vessel_name: nullable(Type.String({ description: 'As reported when the vessel arrived' })),
  imo: nullable(Type.Integer()),
  ship_type: nullable(Type.Integer({ description: 'AIS ship and cargo type code' })),
  state: Type.Enum(['in_port', 'departed']),
  arrived_at: Type.String({ format: 'date-time' }),
  arrival_observed: Type.Boolean({ description: 'false: the vessel was already in the port area when LAMIS first heard it, after a silence; `arrived_at` is then when it was first heard there' }),
  arrival_status: Type.Enum(['moored', 'anchored', 'stopped'], { description: 'What said it had arrived: navigation status moored or at anchor, or a stop by speed alone' }),
  arrival_position: Type.Object({ lat: Type.Number(), lon: Type.Number() }),
  berthed_at: nullable(Type.String({ format: 'date-time', description: 'First report as moored (or stopped); null while it has only anchored' })),
  berth_position: nullable(Type.Object({ lat: Type.Number(), lon: Type.Number() })),
  departed_at: nullable(Type.String({ format: 'date-time', description: 'When it got under way before leaving the area, or was last seen there' })),
  departure_observed: nullable(Type.Boolean({ description: 'false: the vessel fell silent in port or reappeared elsewhere; null while in port' })),
  duration_hours: nullable(Type.Number({ description: 'Arrival to departure, 0.1 h; null while in port' })),
  draught_arrival_m: nullable(Type.Number()),
  draught_departure_m: nullable(Type.Number()),
  source: Type.Union([Type.Literal('live'), Type.Literal('simulated'), Type.Literal('replay'), Type.Literal('upload')], {
    description: 'The source of the report that started the call',
  }),
}));

const CallQuery = Type.Object({
  from: Type.Optional(DateTime('Calls that arrived at or after this time (ISO 8601)')),
  to: Type.Optional(DateTime('Calls that arrived at or before this time')),
  state: Type.Optional(Type.Enum(['in_port', 'departed'], { description: '`in_port`: not departed yet; `departed`: finished' })),
  ...PageQuery,
});

const isCursor = (key: unknown): key is CallCursor =>
  Array.isArray(key) && key.length === 2 && typeof key[0] === 'string' && typeof key[1] === 'string';

export interface CallApiDeps {
  index: PortIndex;
  calls: PortCallStore;
  vessels: VesselStore;
  /** Waits until every call event so far is stored. */
  flush(): Promise<void>;
}

export function callView(call: PortCall, index: PortIndex) {
  const departed = call.departed_at === null ? null : Date.parse(call.departed_at);
  return {
    id: call.id,
    mmsi: call.mmsi,
    port_id: call.port_id,
    port_name: index.get(call.port_id)?.name ?? null,
    vessel_name: call.vessel_name,
    imo: call.imo,
    ship_type: call.ship_type,
    state: departed === null ? 'in_port' as const : 'departed' as const,
    arrived_at: call.arrived_at,
    arrival_observed: call.arrival_observed,
    arrival_status: call.arrival_status,
    arrival_position: { lat: call.arrival_lat, lon: call.arrival_lon },
    berthed_at: call.berthed_at,
    berth_position: call.berth_lat === null || call.berth_lon === null ? null : { lat: call.berth_lat, lon: call.berth_lon },
    departed_at: call.departed_at,
    departure_observed: call.departure_observed,
    duration_hours: departed === null ? null : Math.round((departed - Date.parse(call.arrived_at)) / 360_000) / 10,
    draught_arrival_m: call.draught_arrival_m,
    draught_departure_m: call.draught_departure_m,
    source: call.source,
  };
}

function filterOf(query: { from?: string; to?: string; state?: 'in_port' | 'departed'; limit?: number; cursor?: string }): CallFilter {
  const from = query.from === undefined ? undefined : instant(query.from, '/querystring/from');
  const to = query.to === undefined ? undefined : instant(query.to, '/querystring/to');
  if (from !== undefined && to !== undefined && from > to) throw invalidField('/querystring/from', 'must not be after `to`');
  return {
    from: from === undefined ? undefined : new Date(from).toISOString(),
    to: to === undefined ? undefined : new Date(to).toISOString(),
    state: query.state,
    limit: query.limit! + 1,
    after: query.cursor === undefined ? undefined : decodeCursor(query.cursor, isCursor),
  };
}

export function registerCallRoutes(app: App, deps: CallApiDeps): void {
  const { index, calls } = deps;
  const page = async (owner: { port_id: string } | { mmsi: number }, filter: CallFilter, limit: number) => {
    await deps.flush();
    const rows = await calls.page(owner, filter);
    const data = rows.slice(0, limit);
    const last = data[data.length - 1];
    return {
      data: data.map((call) => callView(call, index)),
      next_cursor: rows.length > limit && last ? encodeCursor([last.arrived_at, last.id]) : null,
    };
  };

  app.get('/v3/maritime/ports/:id/calls', {
    schema: {
      summary: 'Port calls at a port, detected from AIS',
      description:
        'Arrivals and departures read from AIS positions (rules in the README): newest arrival first, cursor-paginated; `from`/`to` bound the arrival time, ' +
        '`state` picks calls in progress or finished. 400 for a malformed id or times, 404 `port_not_found`.',
      tags: [TAG],
      params: IdParams,
      querystring: CallQuery,
      response: { 200: Page(PortCallSchema) },
    },
  }, async (request) => {
    const port = portById(index, request.params.id);
    return page({ port_id: port.id }, filterOf(request.query), request.query.limit!);
  });

  app.get('/v3/maritime/vessels/:mmsi/calls', {
    schema: {
      summary: 'Port calls of a vessel, detected from AIS',
      description:
        'The vessel\'s calls at every port, newest arrival first, cursor-paginated, with the same filters as a port\'s calls. ' +
        '400 for a malformed MMSI, 404 `vessel_not_found` when nothing was heard from it and no call of it is stored.',
      tags: ['Vessels'],
      params: Type.Object({ mmsi: Type.String({ description: 'Maritime Mobile Service Identity: 1 to 9 digits' }) }),
      querystring: CallQuery,
      response: { 200: Page(PortCallSchema) },
    },
  }, async (request) => {
    const mmsi = parseMmsi(request.params.mmsi);
    const filter = filterOf(request.query);
    if (deps.vessels.get(mmsi) === undefined && !(await calls.hasCalls(mmsi))) {
      throw new ProblemError(vesselNotFound, `No AIS data from MMSI ${request.params.mmsi}.`);
    }
    return page({ mmsi }, filter, request.query.limit!);
  });
}
