// REST for congestion at a port: vessels waiting now, waits lately, berth occupancy and its history.
import { Type } from 'typebox';
import { DISCLAIMER } from '../../platform/disclaimer.ts';
import type { App } from '../../platform/http/app.ts';
import { nullable, Shared } from '../../platform/http/schema.ts';
import type { BerthViewer } from './berths.ts';
import { CapacitySchema } from './berths.routes.ts';
import { DEFAULT_CONGESTION_DAYS, MAX_CONGESTION_DAYS, MAX_WAITING_LISTED, type Congestion } from './congestion.ts';
import type { Port, PortIndex } from './model.ts';
import { IdParams, portById } from './ports.routes.ts';

const TAG = 'Ports';

const WaitingVesselSchema = Type.Object({
  mmsi: Type.Integer(),
  name: nullable(Type.String({ description: 'As the vessel last reported it' })),
  call_id: Type.String({ description: 'The port call the wait belongs to (`/v3/maritime/ports/{id}/calls`)' }),
  where: Type.Enum(['anchorage', 'approach'], { description: '`anchorage`: in one of the port\'s anchorage clusters; `approach`: elsewhere in the port area' }),
  state: Type.Enum(['anchored', 'stopped', 'moored', 'under_way'], { description: 'By its latest report in the area: `under_way` is moving, e.g. from the anchorage to its berth' }),
  waiting_since: Type.String({ format: 'date-time', description: 'When it first stopped in the port area (the call\'s arrival)' }),
  waiting_hours: Type.Number({ description: 'Hours from `waiting_since` to `at`, 0.01 h' }),
  lat: nullable(Type.Number({ description: 'Latest position; null when LAMIS holds none' })),
  lon: nullable(Type.Number()),
});

const CongestionSchema = Shared('PortCongestion', Type.Object({
  port_id: Type.String({ description: 'The port\'s id' }),
  at: Type.String({ format: 'date-time', description: 'When the answer was made' }),
  days: Type.Integer({ description: 'The span of `median_wait_hours` and `history`' }),
  waiting: Type.Integer({ description: 'Vessels in the port area waiting for a berth now: arrived (stopped in the area) and not yet alongside' }),
  waiting_vessels: Type.Array(WaitingVesselSchema, { description: `The waiting vessels, longest wait first (at most ${MAX_WAITING_LISTED})` }),
  at_berth: Type.Integer({ description: 'Vessels moored or stopped alongside now, from the open port calls' }),
  capacity: CapacitySchema,
  berth_occupancy: Type.Number({ description: '`at_berth` over `capacity.berths`, 0.01; above 1 when more vessels lie alongside than the capacity counts' }),
  median_wait_hours: nullable(Type.Number({
    description: 'Median hours from arrival to berthing of the calls that anchored first and berthed in the last `days` (stored port calls), 0.01 h; null when none did',
  })),
  calls_berthed: Type.Integer({ description: 'Calls that berthed in the last `days`' }),
  calls_waited: Type.Integer({ description: 'Of those, the calls that anchored before berthing: the ones `median_wait_hours` is taken over' }),
  history: Type.Array(Type.Object({
    at: Type.String({ format: 'date-time', description: 'The start of the hour' }),
    waiting: Type.Integer({ description: 'Calls arrived and not yet berthed or gone' }),
    at_berth: Type.Integer({ description: 'Calls berthed and not yet gone' }),
  }), { description: 'Hourly counts over the last `days`, oldest first, from the stored port calls' }),
  disclaimer: Type.String(),
}));

interface CongestionApiDeps {
  index: PortIndex;
  /** With the berth records `viewer` sees for the capacity: the shared ones and its organisation's. */
  congestion(port: Port, days: number, nowMs: number, viewer: BerthViewer): Promise<Congestion>;
}

export function registerCongestionRoutes(app: App, deps: CongestionApiDeps): void {
  app.get('/v3/maritime/ports/:id/congestion', {
    schema: {
      summary: 'Congestion at a port: vessels waiting for a berth, waits lately, berth occupancy and its history',
      description:
        'Vessels waiting now in the port\'s anchorages and approach (stopped in the port area, not yet alongside) with how long each has waited; ' +
        'the median wait of the calls that anchored before berthing over the last `days`; vessels at berth over the berth capacity ' +
        '(the records you see, or an estimate marked as one); and hourly counts of waiting and berthed vessels over the last `days`, from the stored port calls. ' +
        '400 for a malformed id or `days`, 404 `port_not_found`.',
      tags: [TAG],
      params: IdParams,
      querystring: Type.Object({
        days: Type.Optional(Type.Integer({
          minimum: 1, maximum: MAX_CONGESTION_DAYS, default: DEFAULT_CONGESTION_DAYS,
          description: `Days back for the median wait and the history (1-${MAX_CONGESTION_DAYS})`,
        })),
      }),
      response: { 200: CongestionSchema },
    },
  }, async (request) => {
    const port = portById(deps.index, request.params.id);
    const answer = await deps.congestion(port, request.query.days ?? DEFAULT_CONGESTION_DAYS, Date.now(), request.principal!.organisation_id);
    return {
      ...answer,
      waiting_vessels: [...answer.waiting_vessels],
      capacity: { ...answer.capacity },
      history: [...answer.history],
      disclaimer: DISCLAIMER,
    };
  });
}
